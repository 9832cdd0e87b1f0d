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
import io.dovetail.table.TableStore;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

import org.apache.paimon.data.BinaryString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dovetail's {@link ColumnUpdater} updates some rows of a partitioned data-evolution table (across
 * groups and partitions, explicit NULLs, a renamed and an added column); Paimon 1.4.2 must read
 * exactly the rows Dovetail's read path returns, {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}
 * included. Then Paimon partially updates a column, and Dovetail must read exactly Paimon's rows,
 * also after updating on top of Paimon's files.
 */
class UpdateInteropTest {

    private static final String TABLE = "updated_by_dovetail";
    private static final String USER = "dovetail-update-interop";

    @TempDir java.nio.file.Path warehouse;

    private TableStore store;
    private long identifier;

    @Test
    void paimonReadsWhatTheUpdaterWroteAndDovetailReadsPaimonsUpdates() throws Exception {
        store = DovetailTables.regionTable(warehouse, TABLE);
        append(0, 5, "eu");
        append(5, 4, "us");
        append(9, 6, "eu");

        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            update(
                    List.of("name"),
                    rowId -> rowId % 4 == 0 ? null : new Object[] {str("upd-" + rowId)},
                    rowId -> rowId % 3 == 0);
            Map<Long, String> rows = dovetailRows();
            assertThat(rows.get(0L)).startsWith("id=0, name=null,");
            assertThat(rows.get(6L)).startsWith("id=6, name=upd-6,");
            assertThat(rows.get(12L)).startsWith("id=12, name=null,");
            assertThat(rows.get(7L)).startsWith("id=7, name=name-7,");
            assertThat(paimon.readRowsWithRowTracking(TABLE)).isEqualTo(sorted(rows));

            store.schemas()
                    .commitChanges(
                            SchemaChange.renameColumn("score", "rating"),
                            SchemaChange.addColumn("note", DataTypes.STRING()));
            update(
                    List.of("note", "rating"),
                    rowId -> new Object[] {str("note-" + rowId), rowId % 2 == 0 ? null : -1.0},
                    rowId -> rowId >= 4 && rowId <= 10);
            rows = dovetailRows();
            assertThat(rows.get(4L))
                    .isEqualTo(
                            "id=4, name=name-4, rating=null, region=eu, note=note-4, _ROW_ID=4,"
                                    + " _SEQUENCE_NUMBER="
                                    + store.latestSnapshot().orElseThrow().id());
            assertThat(rows.get(11L)).contains("rating=2.75", "note=null");
            assertThat(paimon.readRowsWithRowTracking(TABLE)).isEqualTo(sorted(rows));

            paimon.updateColumns(
                    TABLE,
                    List.of("note"),
                    (rowId, row) -> new Object[] {BinaryString.fromString("paimon-" + rowId)});
            List<String> afterPaimon = paimon.readRowsWithRowTracking(TABLE);
            assertThat(afterPaimon).anyMatch(r -> r.contains("note=paimon-11"));
            assertThat(sorted(dovetailRows())).isEqualTo(afterPaimon);

            update(
                    List.of("name"),
                    rowId -> new Object[] {str("again-" + rowId)},
                    rowId -> rowId == 1 || rowId == 14);
            rows = dovetailRows();
            assertThat(rows.get(14L)).contains("name=again-14", "note=paimon-14");
            assertThat(paimon.readRowsWithRowTracking(TABLE)).isEqualTo(sorted(rows));
        }
    }

    /**
     * Paimon 1.4.2 skips a partial-column file once every column it wrote has been renamed (it
     * matches the file's {@code writeCols} names against the current schema's names, not field
     * ids), so it reads the older values; a table Paimon itself updates behaves the same. Dovetail
     * reads by field id. A full Dovetail compaction rewrites such files with the current names,
     * after which Paimon reads the updated values again: the workaround the docs give.
     */
    @Test
    void paimonMissesAnUpdateAfterItsColumnsWereRenamedUntilAFullCompaction() throws Exception {
        String table = "renamed_after_update";
        store =
                DovetailTables.regionTable(
                        new org.apache.flink.core.fs.Path(warehouse.toUri()),
                        table,
                        Map.of("compaction.min.file-num", "2"));
        append(0, 4, "eu");
        update(List.of("name"), rowId -> new Object[] {str("upd-" + rowId)}, rowId -> true);
        store.schemas().commitChanges(SchemaChange.renameColumn("name", "title"));

        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            Map<Long, String> rows = dovetailRows();
            assertThat(rows.get(2L)).startsWith("id=2, title=upd-2,");
            assertThat(paimon.readRowsWithRowTracking(table))
                    .as("Paimon 1.4.2 reads the values from before the update")
                    .hasSize(4)
                    .allMatch(row -> row.contains("title=name-"));

            new DataEvolutionCompaction(store)
                    .compact(
                            "dovetail-compactor",
                            1,
                            partition -> true,
                            CompactionConfig.fromOptions(store.latestSchema().options())
                                    .withRewrite(CompactionConfig.Rewrite.FULL));
            rows = dovetailRows();
            assertThat(rows.get(2L)).startsWith("id=2, title=upd-2,");
            assertThat(paimon.readRowsWithRowTracking(table)).isEqualTo(sorted(rows));
        }
    }

    private void append(long first, int count, String region) {
        DovetailTables.appendToRegion(store, USER, ++identifier, first, count, region);
    }

    /**
     * Updates {@code columns} of the rows {@code touched} selects (row ids of the latest snapshot)
     * to {@code values} (null = every column NULL) through the updater.
     */
    private void update(
            List<String> columns, LongFunction<Object[]> values, LongPredicate touched) {
        Snapshot base = store.latestSnapshot().orElseThrow();
        List<RowUpdate> updates = new ArrayList<>();
        for (long rowId = 0; rowId < base.nextRowId(); rowId++) {
            if (touched.test(rowId)) {
                Object[] v = values.apply(rowId);
                updates.add(
                        new RowUpdate(
                                rowId,
                                v == null
                                        ? new GenericRowData(columns.size())
                                        : GenericRowData.of(v)));
            }
        }
        ColumnUpdater.on(store, base, columns)
                .commit(USER, ++identifier, updates.iterator())
                .orElseThrow();
    }

    /** Dovetail's read of the latest snapshot with row tracking, rendered as Paimon renders. */
    private Map<Long, String> dovetailRows() {
        ReadPlan plan =
                new ReadPlanner(store)
                        .planLatest(ReadRequest.allColumns(store.latestSchema()).withRowTracking());
        RowType type = plan.rowType();
        int rowIdField = type.getFieldCount() - 2;
        Map<Long, String> rows = new TreeMap<>();
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan, split)) {
                for (ReadBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                    for (int i = 0; i < b.size(); i++) {
                        rows.put(b.row(i).getLong(rowIdField), render(type, b.row(i)));
                    }
                }
            }
        }
        return rows;
    }

    /** {@link PaimonWorkbench#render} for flat Flink rows. */
    private static String render(RowType type, RowData row) {
        List<String> fields = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            Object v = RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row);
            fields.add(type.getFieldNames().get(i) + "=" + v);
        }
        return String.join(", ", fields);
    }

    private static List<String> sorted(Map<Long, String> rows) {
        List<String> out = new ArrayList<>(rows.values());
        out.sort(null);
        return out;
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
