/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.dovetail.e2e.interop;

import io.dovetail.e2e.paimon.PaimonWorkbench;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paimon 1.4.2 writes appends and data-evolution partial-column updates (one file per row range,
 * the way its merge does) into a partitioned table; a Dovetail streaming SELECT (full changelog)
 * emits, per snapshot, exactly the changes that Paimon's own batch reads of that snapshot and the
 * one before imply, compared by {@code _ROW_ID}: {@code +I} for new rows, {@code -U} then {@code
 * +U} for changed ones, nothing for rows an update rewrote unchanged. Read from the start ({@code
 * scan.mode} full, while Paimon writes) and again from snapshot 2 ({@code from-snapshot}). A change
 * too many in one snapshot shows as a wrong change of the next; the last snapshot is one append.
 */
class PaimonChangesStreamITCase {

    private static final String TABLE = "paimon_changes";
    private static final String COLUMNS = "id, name, score, dt, _ROW_ID";

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir java.nio.file.Path warehouse;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void dovetailStreamsTheChangesOfPaimonsSnapshots() throws Exception {
        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            paimon.createTable(
                    TABLE,
                    PaimonWorkbench.dataEvolutionSchema()
                            .column("id", DataTypes.BIGINT())
                            .column("name", DataTypes.STRING())
                            .column("score", DataTypes.DOUBLE())
                            .column("dt", DataTypes.STRING())
                            .partitionKeys("dt")
                            .build());
            paimon.append(TABLE, rows(0, 6)); // 1
            TableEnvironment sql = session();
            TableResult full =
                    sql.executeSql(
                            "SELECT "
                                    + COLUMNS
                                    + " FROM "
                                    + TABLE
                                    + " /*+ OPTIONS('scan.changelog-mode' = 'full',"
                                    + " 'continuous.discovery-interval' = '50ms') */");
            try (CloseableIterator<Row> rows = full.collect()) {
                Function<Row, String> render = changeRenderer(full);
                assertThat(expectChanges(paimon, 1, rows, render)).isEqualTo(6);

                paimon.append(TABLE, rows(6, 4)); // 2
                assertThat(expectChanges(paimon, 2, rows, render)).isEqualTo(4);

                // 3: even rows get new names (row 4 NULL); odd rows are rewritten unchanged
                paimon.updateColumns(
                        TABLE,
                        List.of("name"),
                        (rowId, row) ->
                                new Object[] {
                                    rowId == 4
                                            ? null
                                            : rowId % 2 == 0 ? str("upd-" + rowId) : name(row)
                                });
                assertThat(expectChanges(paimon, 3, rows, render))
                        .as("rows 0, 2, 4, 6, 8")
                        .isEqualTo(10);

                // 4: two columns written out of table order; only scores of rows 6.. change
                paimon.updateColumns(
                        TABLE,
                        List.of("score", "name"),
                        (rowId, row) ->
                                new Object[] {
                                    rowId >= 6 ? Double.valueOf(rowId * 100.0) : score(row),
                                    name(row)
                                });
                assertThat(expectChanges(paimon, 4, rows, render)).as("rows 6..9").isEqualTo(8);

                paimon.append(TABLE, rows(10, 1)); // 5
                assertThat(expectChanges(paimon, 5, rows, render)).isEqualTo(1);
            } finally {
                full.getJobClient().orElseThrow().cancel();
            }

            // snapshots 2..5 exist already: two readers keep each row's changes in order, not
            // each snapshot's changes as one block, which is what this read checks; one reader does
            sql.getConfig().set("parallelism.default", "1");
            TableResult fromSecond =
                    sql.executeSql(
                            "SELECT "
                                    + COLUMNS
                                    + " FROM "
                                    + TABLE
                                    + " /*+ OPTIONS('scan.mode' = 'from-snapshot',"
                                    + " 'scan.changelog-mode' = 'full',"
                                    + " 'scan.snapshot-id' = '2',"
                                    + " 'continuous.discovery-interval' = '50ms') */");
            try (CloseableIterator<Row> rows = fromSecond.collect()) {
                Function<Row, String> render = changeRenderer(fromSecond);
                int changes = 0;
                for (long snapshot = 2; snapshot <= 5; snapshot++) {
                    changes += expectChanges(paimon, snapshot, rows, render);
                }
                assertThat(changes).isEqualTo(4 + 10 + 8 + 1);
            } finally {
                fromSecond.getJobClient().orElseThrow().cancel();
            }
        }
    }

    /**
     * Takes the changes of {@code snapshot} from the running query and checks them against the
     * difference of Paimon's reads of {@code snapshot} and the one before; returns how many.
     */
    private static int expectChanges(
            PaimonWorkbench paimon,
            long snapshot,
            CloseableIterator<Row> rows,
            Function<Row, String> render)
            throws Exception {
        Map<Long, String> before = snapshot == 1 ? Map.of() : paimonRows(paimon, snapshot - 1);
        Map<Long, String> after = paimonRows(paimon, snapshot);
        List<String> expected = new ArrayList<>();
        after.forEach(
                (rowId, row) -> {
                    String old = before.get(rowId);
                    if (old == null) {
                        expected.add("+I " + row);
                    } else if (!old.equals(row)) {
                        expected.add("-U " + old);
                        expected.add("+U " + row);
                    }
                });
        assertThat(before.keySet()).as("Paimon deleted no row").isSubsetOf(after.keySet());
        List<String> actual = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
            actual.add(render.apply(rows.next()));
        }
        assertThat(actual)
                .as("changes of snapshot %s", snapshot)
                .containsExactlyInAnyOrderElementsOf(expected);
        for (String update : actual) {
            if (update.startsWith("-U ")) {
                String updated = "+U " + after.get(rowId(update));
                assertThat(actual.indexOf(update))
                        .as("%s comes before %s", update, updated)
                        .isLessThan(actual.indexOf(updated));
            }
        }
        return actual.size();
    }

    /** Paimon's batch read of {@code snapshot}: row id to the rendered row. */
    private static Map<Long, String> paimonRows(PaimonWorkbench paimon, long snapshot)
            throws Exception {
        FileStoreTable table =
                paimon.table(TABLE).copy(Map.of("scan.snapshot-id", String.valueOf(snapshot)));
        Map<Long, String> out = new TreeMap<>();
        for (String row : TwoSidedReads.paimon(table, COLUMNS.split(", "))) {
            out.put(rowId(row), row);
        }
        return out;
    }

    private static long rowId(String rendered) {
        return Long.parseLong(rendered.substring(rendered.lastIndexOf("_ROW_ID=") + 8));
    }

    private static Function<Row, String> changeRenderer(TableResult result) {
        Function<Row, String> values = SqlRows.renderer(result);
        return row -> row.getKind().shortString() + " " + values.apply(row);
    }

    /** {@code count} rows from id {@code first}: partitions a and b, one NULL name and score. */
    private static List<GenericRow> rows(long first, int count) {
        return LongStream.range(first, first + count)
                .mapToObj(
                        id ->
                                GenericRow.of(
                                        id,
                                        id == 3 ? null : str("name-" + id),
                                        id == 5 ? null : id + 0.5,
                                        str(id % 3 == 0 ? "b" : "a")))
                .toList();
    }

    private static BinaryString name(InternalRow row) {
        return row.isNullAt(1) ? null : row.getString(1).copy();
    }

    private static Double score(InternalRow row) {
        return row.isNullAt(2) ? null : row.getDouble(2);
    }

    private static BinaryString str(String value) {
        return BinaryString.fromString(value);
    }

    private TableEnvironment session() {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.getConfig().set("parallelism.default", "2");
        env.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        env.executeSql("USE CATALOG dt");
        return env;
    }
}
