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
package io.dovetail.flink.table;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Batch SELECT through Flink SQL on a Dovetail catalog, on one MiniCluster at parallelism 2: a
 * table written through the core API (appends, a partial-column update, deletes by deletion vector,
 * an added column and an update of it) reads through SQL exactly as the core reader reads it, with
 * projections, filters, partition filters, {@code $row_tracking} and time travel.
 *
 * <p>Row ids equal ids: every append continues the ids where the previous one stopped.
 */
class SqlReadITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static java.nio.file.Path warehouse;

    private static TableEnvironment sql;
    private static TableStore store;

    /** Written once; DDL runs no job, so it needs no cluster environment yet. */
    @BeforeAll
    static void writeTable() {
        connect();
        sql.executeSql(
                "CREATE TABLE t (id BIGINT, name STRING, score INT, dt STRING) PARTITIONED BY"
                        + " (dt) WITH ('deletion-vectors.enabled' = 'true')");
        sql.executeSql("CREATE TABLE empty_table (id BIGINT)");
        store = TableStore.open(new Warehouse(new Path(warehouse.toUri())).table("default", "t"));
        append("a", 0, 100); // snapshot 1
        append("b", 100, 100); // 2
        append("a", 200, 50); // 3
        update("name", new long[] {5, 150, 210}, "five", null, "two-ten"); // 4
        delete(7, 120); // 5
        sql.executeSql("ALTER TABLE t ADD caption STRING");
        append("b", 250, 10); // 6: captions cap-250 ..
        update("caption", new long[] {1, 101}, "one", "one-o-one"); // 7
    }

    /** A session on the shared MiniCluster, whose environment is registered per test. */
    @BeforeEach
    void connectToTheCluster() {
        connect();
    }

    private static void connect() {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().set("parallelism.default", "2");
        sql.getConfig()
                .set("table.column-expansion-strategy", "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS");
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        sql.executeSql("USE CATALOG dt");
    }

    @Test
    void selectStarReadsWhatTheCoreReads() {
        assertThat(rows("SELECT * FROM t"))
                .hasSize(258)
                .containsExactlyInAnyOrderElementsOf(core(request()));
        assertThat(rows("SELECT * FROM t WHERE id IN (1, 5, 7, 150, 255)"))
                .containsExactlyInAnyOrder(
                        "+I[1, name-1, 10, a, one]",
                        "+I[5, five, 50, a, null]",
                        "+I[150, null, 1500, b, null]",
                        "+I[255, name-255, 2550, b, cap-255]");
    }

    @Test
    void projectionsReadTheirColumnsInQueryOrder() {
        assertThat(rows("SELECT caption, id FROM t"))
                .containsExactlyInAnyOrderElementsOf(core(request().withColumns("caption", "id")));
        assertThat(rows("SELECT caption FROM t WHERE caption IS NOT NULL"))
                .containsExactlyInAnyOrder(
                        "+I[one]",
                        "+I[one-o-one]",
                        "+I[cap-250]",
                        "+I[cap-251]",
                        "+I[cap-252]",
                        "+I[cap-253]",
                        "+I[cap-254]",
                        "+I[cap-255]",
                        "+I[cap-256]",
                        "+I[cap-257]",
                        "+I[cap-258]",
                        "+I[cap-259]");
        assertThat(rows("SELECT count(*) FROM t")).containsExactly("+I[258]");
        assertThat(rows("SELECT count(caption) FROM t")).containsExactly("+I[12]");
    }

    @Test
    void filtersReturnExactlyTheMatchingRows() {
        List<String> all = core(request().withColumns("id", "name", "score", "dt"));
        assertThat(rows("SELECT id, name, score, dt FROM t WHERE score BETWEEN 95 AND 1005"))
                .containsExactlyInAnyOrderElementsOf(filter(all, r -> between(score(r), 95, 1005)));
        assertThat(rows("SELECT id, name, score, dt FROM t WHERE name IS NULL OR id < 3"))
                .containsExactlyInAnyOrder(
                        "+I[0, name-0, 0, a]",
                        "+I[1, name-1, 10, a]",
                        "+I[2, name-2, 20, a]",
                        "+I[150, null, 1500, b]");
        assertThat(rows("SELECT id FROM t WHERE NOT (id >= 3) AND name <> 'name-1'"))
                .containsExactlyInAnyOrder("+I[0]", "+I[2]");
        assertThat(rows("SELECT id FROM t WHERE name = 'two-ten' OR 260 < id"))
                .containsExactly("+I[210]");
        assertThat(
                        rows(
                                "SELECT id FROM t WHERE score > 2000 AND id <> 250 AND caption > 'cap-257'"))
                .containsExactlyInAnyOrder("+I[258]", "+I[259]");
    }

    @Test
    void partitionFiltersArePushedAndExact() {
        assertThat(rows("SELECT count(*), min(id), max(id) FROM t WHERE dt = 'b'"))
                .containsExactly("+I[109, 100, 259]");
        assertThat(rows("SELECT count(*) FROM t WHERE dt IN ('a', 'c') AND id >= 90"))
                .containsExactly("+I[60]");
        assertThat(rows("SELECT count(*) FROM t WHERE dt = 'none'")).containsExactly("+I[0]");
        assertThat(sql.explainSql("SELECT id FROM t WHERE dt = 'b' AND id > 5"))
                .contains("filter=[and(=(dt, _UTF-16LE'b'", ">(id, 5)")
                .contains("project=[id");
    }

    @Test
    void rowTrackingTableAddsRowIdAndSequenceNumber() {
        assertThat(rows("SELECT * FROM `t$row_tracking`"))
                .hasSize(258)
                .containsExactlyInAnyOrderElementsOf(core(request().withRowTracking()));
        assertThat(sql.from("`t$row_tracking`").getResolvedSchema().getColumnNames())
                .containsExactly(
                        "id", "name", "score", "dt", "caption", "_ROW_ID", "_SEQUENCE_NUMBER");
        assertThat(
                        rows(
                                "SELECT id, _ROW_ID FROM `t$row_tracking` WHERE _ROW_ID BETWEEN 5"
                                        + " AND 8 OR _ROW_ID = 120"))
                .containsExactlyInAnyOrder("+I[5, 5]", "+I[6, 6]", "+I[8, 8]");
        assertThat(rows("SELECT DISTINCT _SEQUENCE_NUMBER FROM `t$row_tracking` WHERE id = 1"))
                .containsExactlyElementsOf(
                        filter(
                                        core(request().withColumns("_SEQUENCE_NUMBER", "id")),
                                        r -> r.endsWith(", 1]"))
                                .stream()
                                .map(r -> r.substring(0, r.lastIndexOf(',')) + "]")
                                .toList());
        assertThatThrownBy(() -> sql.executeSql("SELECT * FROM `t$nope`"))
                .hasStackTraceContaining("Unknown system table 't$nope'");
    }

    @Test
    void metadataColumnsAreSelectableOnThePlainTable() {
        assertThat(rows("SELECT _ROW_ID, _SEQUENCE_NUMBER, id FROM t"))
                .containsExactlyInAnyOrderElementsOf(
                        core(request().withColumns("_ROW_ID", "_SEQUENCE_NUMBER", "id")));
        assertThat(rows("SELECT id, name FROM t WHERE _ROW_ID IN (5, 150, 255)"))
                .containsExactlyInAnyOrder("+I[5, five]", "+I[150, null]", "+I[255, name-255]");
        assertThat(sql.sqlQuery("SELECT * FROM t").getResolvedSchema().getColumnNames())
                .as("SELECT * leaves virtual metadata columns out under the expansion strategy")
                .containsExactly("id", "name", "score", "dt", "caption");
        assertThat(rows("SELECT _ROW_ID, * FROM t WHERE id = 7 OR id = 8"))
                .as("row 7 is deleted")
                .containsExactly("+I[8, 8, name-8, 80, a, null]");

        TableEnvironment defaults = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        defaults.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        assertThat(
                        defaults.sqlQuery("SELECT * FROM dt.`default`.t")
                                .getResolvedSchema()
                                .getColumnNames())
                .as("Flink's default expansion includes them")
                .containsExactly(
                        "id", "name", "score", "dt", "caption", "_ROW_ID", "_SEQUENCE_NUMBER");
    }

    @Test
    void timeTravelReadsAnOlderSnapshotWithTheLatestColumns() {
        Snapshot second = store.snapshots().snapshot(2);
        assertThat(rows("SELECT * FROM t /*+ OPTIONS('scan.snapshot-id' = '2') */"))
                .hasSize(200)
                .containsExactlyInAnyOrderElementsOf(core(second, request()));
        assertThat(
                        rows(
                                "SELECT id, name FROM t /*+ OPTIONS('scan.snapshot-id' = '4') */ WHERE id = 7"))
                .containsExactly("+I[7, name-7]");
        assertThatThrownBy(() -> rows("SELECT * FROM t /*+ OPTIONS('scan.snapshot-id' = '99') */"))
                .hasStackTraceContaining("Snapshot 99 does not exist");
    }

    @Test
    void anUnboundedScanInABatchJobIsRefused() {
        assertThatThrownBy(() -> rows("SELECT * FROM t /*+ OPTIONS('scan.bounded' = 'false') */"))
                .hasStackTraceContaining("'scan.bounded' = 'false' needs a streaming job");
        assertThat(rows("SELECT * FROM t /*+ OPTIONS('scan.bounded' = 'true') */"))
                .containsExactlyInAnyOrderElementsOf(rows("SELECT * FROM t"));
    }

    @Test
    void manySplitsAreReadInParallel() {
        ReadRequest tiny = request().withSplitSizes(1, 1);
        ReadPlan plan = new ReadPlanner(store).planLatest(tiny);
        assertThat(plan.splits()).hasSizeGreaterThanOrEqualTo(4);
        assertThat(
                        rows(
                                "SELECT * FROM t /*+ OPTIONS('source.split.target-size' = '1b',"
                                        + " 'source.split.open-file-cost' = '1b') */"))
                .containsExactlyInAnyOrderElementsOf(core(tiny));
    }

    @Test
    void aTableWithoutSnapshotsIsEmpty() {
        assertThat(rows("SELECT * FROM empty_table")).isEmpty();
    }

    // ---------------------------------------------------------------- writes through the core

    private static void append(String dt, long first, int count) {
        boolean caption = store.latestSchema().field("caption").isPresent();
        List<ManifestEntry> files;
        try (DataFileWriter writer =
                DataFileWriter.forAppend(
                        store.paths(), store.latestSchema(), GenericRowData.of(str(dt)))) {
            for (long id = first; id < first + count; id++) {
                GenericRowData row =
                        caption
                                ? GenericRowData.of(
                                        id,
                                        str("name-" + id),
                                        (int) id * 10,
                                        str(dt),
                                        str("cap-" + id))
                                : GenericRowData.of(id, str("name-" + id), (int) id * 10, str(dt));
                writer.write(row);
            }
            files = writer.finish();
        }
        new TableCommit(store).commit(CommitRequest.append("test", nextIdentifier(), files));
    }

    private static void update(String column, long[] rowIds, String... values) {
        List<RowUpdate> updates = new ArrayList<>();
        for (int i = 0; i < rowIds.length; i++) {
            updates.add(new RowUpdate(rowIds[i], GenericRowData.of(str(values[i]))));
        }
        ColumnUpdater.on(store, latest(), List.of(column))
                .commit("test", nextIdentifier(), updates.iterator())
                .orElseThrow();
    }

    private static void delete(long... rowIds) {
        Snapshot base = latest();
        new TableCommit(store)
                .commit(
                        CommitRequest.delete(
                                "test",
                                nextIdentifier(),
                                base.id(),
                                new DeletionVectorWriter(store)
                                        .deleteRows(base, LongStream.of(rowIds).boxed().toList())));
    }

    private static long nextIdentifier() {
        return store.latestSnapshot().map(Snapshot::id).orElse(0L) + 1;
    }

    private static Snapshot latest() {
        return store.latestSnapshot().orElseThrow();
    }

    private static StringData str(String value) {
        return value == null ? null : StringData.fromString(value);
    }

    // ---------------------------------------------------------------- reads

    private static ReadRequest request() {
        return ReadRequest.allColumns(store.latestSchema());
    }

    private static List<String> rows(String query) {
        TableResult result = sql.executeSql(query);
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        return out;
    }

    /** The core reader's rows, in {@link Row#toString()} form. */
    private static List<String> core(ReadRequest request) {
        return core(latest(), request);
    }

    private static List<String> core(Snapshot snapshot, ReadRequest request) {
        ReadPlan plan = new ReadPlanner(store).plan(snapshot, request);
        RowType type = plan.rowType();
        List<String> out = new ArrayList<>();
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan, split)) {
                for (ReadBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                    for (int i = 0; i < b.size(); i++) {
                        out.add(external(type, b.row(i)).toString());
                    }
                }
            }
        }
        return out;
    }

    private static Row external(RowType type, RowData row) {
        Object[] values = new Object[type.getFieldCount()];
        for (int i = 0; i < values.length; i++) {
            Object value = RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row);
            values[i] = value instanceof StringData s ? s.toString() : value;
        }
        return Row.of(values);
    }

    private static List<String> filter(List<String> rows, Predicate<String> keep) {
        return rows.stream().filter(keep).toList();
    }

    /** The score of a rendered {@code id, name, score, dt} row. */
    private static Integer score(String row) {
        String score = Arrays.asList(row.substring(3, row.length() - 1).split(", ")).get(2);
        return score.equals("null") ? null : Integer.valueOf(score);
    }

    private static boolean between(Integer value, int low, int high) {
        return value != null && value >= low && value <= high;
    }
}
