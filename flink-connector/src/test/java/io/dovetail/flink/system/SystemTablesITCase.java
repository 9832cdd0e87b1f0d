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
package io.dovetail.flink.system;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.json.Json;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The metadata system tables through Flink SQL, on one MiniCluster. The table is written through
 * the core API, each step one snapshot:
 *
 * <pre>
 *   1 append a [0, 9]          4 update name of rows 2, 16     6 append b [20, 24] (schema 1)
 *   2 append a [10, 14]        5 delete rows 3, 4, 17 (DVs)    7 compact partition a:
 *   3 append b [15, 19]          then ADD COLUMN caption          [0, 9] + [10, 14] -> [0, 14]
 * </pre>
 *
 * Expected rows come from the core's own metadata, plus literal commit kinds, row-id ranges, write
 * columns and deletion-vector counts.
 */
class SystemTablesITCase {

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

    @BeforeAll
    static void writeTable() {
        connect();
        sql.executeSql(
                "CREATE TABLE t (id BIGINT, name STRING, score INT, dt STRING) PARTITIONED BY"
                        + " (dt) WITH ('deletion-vectors.enabled' = 'true')");
        sql.executeSql("CREATE TABLE empty_table (id BIGINT)");
        store = TableStore.open(new Warehouse(new Path(warehouse.toUri())).table("default", "t"));
        append("a", 0, 10);
        append("a", 10, 5);
        append("b", 15, 5);
        ColumnUpdater.on(store, latest(), List.of("name"))
                .commit(
                        "test",
                        nextIdentifier(),
                        List.of(
                                        new RowUpdate(2, GenericRowData.of(str("two"))),
                                        new RowUpdate(16, GenericRowData.of(str("sixteen"))))
                                .iterator())
                .orElseThrow();
        new TableCommit(store)
                .commit(
                        CommitRequest.delete(
                                "test",
                                nextIdentifier(),
                                latest().id(),
                                new DeletionVectorWriter(store)
                                        .deleteRows(
                                                latest(),
                                                LongStream.of(3, 4, 17).boxed().toList())));
        sql.executeSql("ALTER TABLE t ADD caption STRING");
        append("b", 20, 5);
        new DataEvolutionCompaction(store)
                .compact(
                        "test",
                        nextIdentifier(),
                        p -> p.getString(0).toString().equals("a"),
                        new CompactionConfig(256 << 20, 4 << 20, 2));
    }

    @BeforeEach
    void connectToTheCluster() {
        connect();
    }

    private static void connect() {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().set("parallelism.default", "2");
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        sql.executeSql("USE CATALOG dt");
    }

    @Test
    void snapshotsListEverySnapshotWithItsCommit() {
        List<String> expected = new ArrayList<>();
        for (long id = 1; id <= 7; id++) {
            Snapshot s = store.snapshots().snapshot(id);
            expected.add(
                    Row.of(
                                    s.id(),
                                    s.schemaId(),
                                    s.commitUser(),
                                    s.commitIdentifier(),
                                    s.commitKind().name(),
                                    LocalDateTime.ofInstant(
                                            Instant.ofEpochMilli(s.timeMillis()),
                                            ZoneId.systemDefault()),
                                    s.baseManifestList(),
                                    s.deltaManifestList(),
                                    s.changelogManifestList(),
                                    s.totalRecordCount(),
                                    s.deltaRecordCount(),
                                    s.changelogRecordCount(),
                                    s.watermark(),
                                    s.nextRowId())
                            .toString());
        }
        assertThat(rows("SELECT * FROM `t$snapshots`"))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(
                        rows(
                                "SELECT snapshot_id, schema_id, commit_kind, next_row_id,"
                                        + " total_record_count FROM `t$snapshots` ORDER BY snapshot_id"))
                .containsExactly(
                        "+I[1, 0, APPEND, 10, 10]",
                        "+I[2, 0, APPEND, 15, 15]",
                        "+I[3, 0, APPEND, 20, 20]",
                        "+I[4, 0, APPEND, 20, 35]",
                        "+I[5, 0, OVERWRITE, 20, 35]",
                        "+I[6, 1, APPEND, 25, 40]",
                        "+I[7, 1, COMPACT, 25, 30]");
    }

    @Test
    void schemasShowTheFieldsWithIdsAsTheSchemaFilesStoreThem() throws Exception {
        List<String> expected = new ArrayList<>();
        for (long id = 0; id <= 1; id++) {
            TableSchema schema = store.schemas().schema(id);
            var file =
                    Json.parse(FileIO.readFully(store.paths().schemaFile(id), "the test's schema"));
            expected.add(
                    Row.of(
                                    id,
                                    file.get("fields").toString(),
                                    "[\"dt\"]",
                                    "[]",
                                    file.get("options").toString(),
                                    schema.comment(),
                                    LocalDateTime.ofInstant(
                                            Instant.ofEpochMilli(schema.timeMillis()),
                                            ZoneId.systemDefault()))
                            .toString());
        }
        assertThat(rows("SELECT * FROM `t$schemas`")).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(rows("SELECT fields FROM `t$schemas` WHERE schema_id = 1").get(0))
                .contains("{\"id\":0,\"name\":\"id\",\"type\":\"BIGINT\"}")
                .contains("{\"id\":4,\"name\":\"caption\",\"type\":\"STRING\"}");
    }

    @Test
    void optionsAreTheLatestSchemas() {
        List<String> expected = new ArrayList<>();
        store.latestSchema().options().forEach((k, v) -> expected.add(Row.of(k, v).toString()));
        assertThat(rows("SELECT * FROM `t$options`"))
                .containsExactlyInAnyOrderElementsOf(expected)
                .contains(
                        "+I[deletion-vectors.enabled, true]",
                        "+I[row-tracking.enabled, true]",
                        "+I[data-evolution.enabled, true]");
    }

    @Test
    void filesListTheLiveFilesOfTheSnapshot() {
        assertThat(rows("SELECT * FROM `t$files`"))
                .containsExactlyInAnyOrderElementsOf(files(latest()));
        assertThat(
                        rows(
                                "SELECT `partition`, first_row_id, last_row_id, record_count,"
                                        + " file_source, schema_id, write_cols,"
                                        + " deletion_vector_cardinality FROM `t$files`"))
                .containsExactlyInAnyOrder(
                        "+I[{a}, 0, 14, 15, COMPACT, 1, null, 2]",
                        "+I[{b}, 15, 19, 5, APPEND, 0, null, 1]",
                        "+I[{b}, 15, 19, 5, APPEND, 0, [name], null]",
                        "+I[{b}, 20, 24, 5, APPEND, 1, null, null]");
        Snapshot fifth = store.snapshots().snapshot(5);
        assertThat(rows("SELECT * FROM `t$files` /*+ OPTIONS('scan.snapshot-id' = '5') */"))
                .hasSize(5)
                .containsExactlyInAnyOrderElementsOf(files(fifth));
    }

    @Test
    void manifestsAreTheSnapshotsDataManifests() {
        List<String> expected = new ArrayList<>();
        for (ManifestFileMeta m : store.files(latest()).dataManifests()) {
            expected.add(
                    Row.of(
                                    m.fileName(),
                                    m.fileSize(),
                                    m.numAddedFiles(),
                                    m.numDeletedFiles(),
                                    m.schemaId(),
                                    m.minBucket(),
                                    m.maxBucket(),
                                    m.minLevel(),
                                    m.maxLevel(),
                                    m.minRowId(),
                                    m.maxRowId())
                            .toString());
        }
        assertThat(rows("SELECT * FROM `t$manifests`"))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(rows("SELECT min(min_row_id), max(max_row_id) FROM `t$manifests`"))
                .containsExactly("+I[0, 24]");
    }

    @Test
    void rowGroupsSayWhichFilesProvideWhichColumnsOfEachRange() {
        SnapshotFiles files = store.files(latest());
        DataFileMeta compacted = file(files, "a", null);
        DataFileMeta b1 = file(files, "b", 15L);
        DataFileMeta b1Names = partialFile(files);
        DataFileMeta b2 = file(files, "b", 20L);
        List<String> all = List.of("id", "name", "score", "dt", "caption");
        List<String> schema0 = List.of("id", "name", "score", "dt");
        assertThat(rows("SELECT * FROM `t$row_groups`"))
                .containsExactlyInAnyOrder(
                        group(
                                "a",
                                0,
                                14,
                                2,
                                compacted.maxSequenceNumber(),
                                fileRow(compacted, all)),
                        group(
                                "b",
                                15,
                                19,
                                1,
                                b1Names.maxSequenceNumber(),
                                fileRow(b1, schema0),
                                fileRow(b1Names, List.of("name"))),
                        group("b", 20, 24, 0, b2.maxSequenceNumber(), fileRow(b2, all)));
        assertThat(
                        rows(
                                "SELECT `partition`, first_row_id, last_row_id, file_count,"
                                        + " deleted_rows FROM `t$row_groups`"
                                        + " /*+ OPTIONS('scan.snapshot-id' = '5') */ ORDER BY first_row_id"))
                .containsExactly(
                        "+I[{a}, 0, 9, 2, 2]", "+I[{a}, 10, 14, 1, 0]", "+I[{b}, 15, 19, 2, 1]");
    }

    @Test
    void tableIndexesListTheDeletionVectorFilesWithTheirRanges() {
        SnapshotFiles files = store.files(latest());
        List<String> expected = new ArrayList<>();
        for (IndexManifestEntry entry : files.indexFiles()) {
            IndexFileMeta file = entry.indexFile();
            DataFileMeta inPartition =
                    files.liveFiles().stream()
                            .filter(e -> Arrays.equals(e.partition(), entry.partition()))
                            .findFirst()
                            .orElseThrow()
                            .file();
            expected.add(
                    Row.of(
                                    "{" + partitionOf(files, inPartition) + "}",
                                    entry.bucket(),
                                    "DELETION_VECTORS",
                                    file.fileName(),
                                    file.fileSize(),
                                    file.rowCount(),
                                    file.deletionVectors().stream()
                                            .map(
                                                    v ->
                                                            Row.of(
                                                                    v.dataFileName(),
                                                                    v.offset(),
                                                                    v.length(),
                                                                    v.cardinality()))
                                            .toArray(Row[]::new),
                                    null,
                                    null,
                                    null,
                                    null)
                            .toString());
        }
        assertThat(expected).as("the table has deletion vectors").isNotEmpty();
        assertThat(rows("SELECT * FROM `t$table_indexes`"))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(
                        rows(
                                "SELECT `partition`, index_type, row_count, dv_ranges[1]._CARDINALITY"
                                        + " FROM `t$table_indexes`"))
                .containsExactlyInAnyOrder(
                        "+I[{a}, DELETION_VECTORS, 1, 2]", "+I[{b}, DELETION_VECTORS, 1, 1]");
        assertThat(
                        rows(
                                "SELECT count(*) FROM `t$table_indexes`"
                                        + " /*+ OPTIONS('scan.snapshot-id' = '4') */"))
                .as("before the delete")
                .containsExactly("+I[0]");
    }

    @Test
    void aTableWithoutSnapshotsHasOnlyItsSchemaAndOptions() {
        for (String empty :
                List.of("snapshots", "files", "manifests", "row_groups", "table_indexes")) {
            assertThat(rows("SELECT * FROM `empty_table$" + empty + "`")).isEmpty();
        }
        assertThat(rows("SELECT schema_id FROM `empty_table$schemas`")).containsExactly("+I[0]");
        assertThat(rows("SELECT * FROM `empty_table$options`"))
                .contains("+I[row-tracking.enabled, true]");
    }

    @Test
    void everySystemTableExistsAndOthersAreAClearError() throws Exception {
        Catalog catalog = sql.getCatalog("dt").orElseThrow();
        for (String name :
                List.of(
                        "row_tracking",
                        "column_updates",
                        "snapshots",
                        "schemas",
                        "options",
                        "consumers",
                        "files",
                        "manifests",
                        "row_groups",
                        "table_indexes")) {
            ObjectPath path = new ObjectPath("default", "t$" + name);
            assertThat(catalog.tableExists(path)).as(name).isTrue();
            assertThat(catalog.getTable(path)).as(name).isNotNull();
            assertThat(catalog.tableExists(new ObjectPath("default", "missing$" + name))).isFalse();
        }
        assertThat(catalog.tableExists(new ObjectPath("default", "t$nope"))).isFalse();
        assertThatThrownBy(() -> sql.executeSql("SELECT * FROM `t$nope`"))
                .hasStackTraceContaining(
                        "Unknown system table 't$nope'; Dovetail tables have $row_tracking,"
                                + " $column_updates (to write), $snapshots, $schemas, $options, $consumers, $files,"
                                + " $manifests,"
                                + " $row_groups, $table_indexes.");
        assertThatThrownBy(() -> sql.executeSql("SELECT * FROM `t$column_updates`"))
                .hasStackTraceContaining("t$column_updates is a sink");
        assertThat(rows("SELECT count(*) FROM `t$row_tracking` WHERE _ROW_ID < 15"))
                .containsExactly("+I[13]");
    }

    // ---------------------------------------------------------------- expectations

    /** The {@code $files} rows of {@code snapshot} from the core's metadata. */
    private static List<String> files(Snapshot snapshot) {
        SnapshotFiles files = store.files(snapshot);
        List<String> expected = new ArrayList<>();
        for (ManifestEntry entry : files.liveFiles()) {
            DataFileMeta f = entry.file();
            expected.add(
                    Row.of(
                                    "{" + partitionOf(files, f) + "}",
                                    entry.bucket(),
                                    files.dataFilePath(entry).toString(),
                                    "parquet",
                                    f.schemaId(),
                                    f.level(),
                                    f.rowCount(),
                                    f.fileSize(),
                                    f.minSequenceNumber(),
                                    f.maxSequenceNumber(),
                                    TimestampData.fromEpochMillis(f.creationTime())
                                            .toLocalDateTime(),
                                    f.fileSource().name(),
                                    f.firstRowId(),
                                    f.firstRowId() + f.rowCount() - 1,
                                    f.writeCols() == null
                                            ? null
                                            : f.writeCols().toArray(String[]::new),
                                    deletionVector(files, f))
                            .toString());
        }
        return expected;
    }

    /** The partition a file of this table is in: its directory, {@code dt=<value>}. */
    private static String partitionOf(SnapshotFiles files, DataFileMeta file) {
        for (ManifestEntry entry : files.liveFiles()) {
            if (entry.file().equals(file)) {
                return files.dataFilePath(entry).getParent().getParent().getName().substring(3);
            }
        }
        throw new AssertionError(file.fileName());
    }

    /** The cardinality recorded in the index manifest for the vector keyed to {@code file}. */
    private static Long deletionVector(SnapshotFiles files, DataFileMeta file) {
        return files.indexFiles().stream()
                .flatMap(e -> e.indexFile().deletionVectors().stream())
                .filter(v -> v.dataFileName().equals(file.fileName()))
                .map(v -> v.cardinality())
                .findFirst()
                .orElse(null);
    }

    /** The full-row file of partition {@code dt} starting at {@code firstRowId} (any if null). */
    private static DataFileMeta file(SnapshotFiles files, String dt, Long firstRowId) {
        return files.liveFiles().stream()
                .map(ManifestEntry::file)
                .filter(f -> f.writeCols() == null)
                .filter(f -> partitionOf(files, f).equals(dt))
                .filter(f -> firstRowId == null || f.firstRowId().equals(firstRowId))
                .findFirst()
                .orElseThrow();
    }

    private static DataFileMeta partialFile(SnapshotFiles files) {
        return files.liveFiles().stream()
                .map(ManifestEntry::file)
                .filter(f -> f.writeCols() != null)
                .findFirst()
                .orElseThrow();
    }

    private static Row fileRow(DataFileMeta file, List<String> columns) {
        return Row.of(
                file.fileName(),
                columns.toArray(String[]::new),
                file.fileSize(),
                file.maxSequenceNumber());
    }

    private static String group(
            String dt, long first, long last, long deleted, long maxSequence, Row... files) {
        long bytes = 0;
        for (Row file : files) {
            bytes += (Long) file.getField(2);
        }
        return Row.of(
                        "{" + dt + "}",
                        first,
                        last,
                        last - first + 1,
                        files.length,
                        files,
                        bytes,
                        deleted,
                        maxSequence)
                .toString();
    }

    // ---------------------------------------------------------------- writes and reads

    private static void append(String dt, long first, int count) {
        boolean caption = store.latestSchema().field("caption").isPresent();
        List<ManifestEntry> files;
        try (DataFileWriter writer =
                DataFileWriter.forAppend(
                        store.paths(), store.latestSchema(), GenericRowData.of(str(dt)))) {
            for (long id = first; id < first + count; id++) {
                writer.write(
                        caption
                                ? GenericRowData.of(
                                        id, str("n" + id), (int) id, str(dt), str("c" + id))
                                : GenericRowData.of(id, str("n" + id), (int) id, str(dt)));
            }
            files = writer.finish();
        }
        new TableCommit(store).commit(CommitRequest.append("test", nextIdentifier(), files));
    }

    private static long nextIdentifier() {
        return store.latestSnapshot().map(Snapshot::id).orElse(0L) + 1;
    }

    private static Snapshot latest() {
        return store.latestSnapshot().orElseThrow();
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }

    private static List<String> rows(String query) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        return out;
    }
}
