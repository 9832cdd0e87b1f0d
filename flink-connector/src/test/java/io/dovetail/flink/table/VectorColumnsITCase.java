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

import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.ManifestEntry;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * VECTOR columns through Flink SQL: an {@code ARRAY} column named by {@code 'vector-field'} (with
 * {@code 'field.<col>.vector-dim'}) is a VECTOR, stored with the table's other VECTOR columns in
 * vector-store files of {@code 'vector.file.format'} ({@code avro} or {@code json}), rolled by
 * {@code vector.target-file-size} inside each normal file's rows, read back value for value under
 * every projection, never opened by a query that does not select them, rewritten over a touched
 * range by an update of a VECTOR column and left alone by updates of other columns and by
 * compaction. Bad vectors and bad declarations fail clearly and change nothing.
 */
class VectorColumnsITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path warehouse;

    private TableEnvironment sql;
    private SqlTesting tables;

    @BeforeEach
    void connect() {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().addConfiguration(CLUSTER.getClientConfiguration());
        sql.getConfig().set("execution.target", "remote");
        sql.getConfig().set("parallelism.default", "2");
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        sql.executeSql("USE CATALOG dt");
        tables = new SqlTesting(warehouse);
    }

    @ParameterizedTest
    @ValueSource(strings = {"avro", "json"})
    void insertedVectorsReadBackFromRolledVectorFiles(String format) {
        createVectors("embedded", format, "");
        Map<Long, String> expected = insertVectors("embedded", 0, 80);
        insertVectors("embedded", 80, 40).forEach(expected::put);
        assertThat(readVectors("embedded", "")).isEqualTo(expected);

        List<ManifestEntry> files = tables.liveFiles("embedded");
        List<ManifestEntry> vectors =
                files.stream()
                        .filter(e -> DataFileKinds.isVectorStore(e.file().fileName()))
                        .toList();
        assertThat(vectors.size()).as("rolled at 1 kb").isGreaterThan(2);
        for (ManifestEntry vector : vectors) {
            assertThat(vector.file().fileName()).endsWith(".vector." + format);
            assertThat(vector.file().writeCols()).containsExactly("emb", "tags");
        }
        for (ManifestEntry normal :
                files.stream().filter(e -> DataFileKinds.isNormal(e.file().fileName())).toList()) {
            assertThat(normal.file().writeCols()).containsExactly("id", "caption");
            long first = normal.file().firstRowId();
            long covered =
                    vectors.stream()
                            .filter(
                                    v ->
                                            v.file().firstRowId() >= first
                                                    && v.file().firstRowId()
                                                            < first + normal.file().rowCount())
                            .mapToLong(v -> v.file().rowCount())
                            .sum();
            assertThat(covered).isEqualTo(normal.file().rowCount());
        }
        assertThat(
                        SqlTesting.rows(
                                sql,
                                "SELECT file_format, COUNT(*) FROM `embedded$files` GROUP BY"
                                        + " file_format"))
                .containsExactlyInAnyOrder(
                        "+I[parquet, " + (files.size() - vectors.size()) + "]",
                        "+I[" + format + ", " + vectors.size() + "]");
        // _ROW_ID with the vector columns alone, and a row-id range inside rolled files
        Map<Long, Long> rowIds = new TreeMap<>();
        for (Row row : collect("SELECT _ROW_ID, id FROM embedded")) {
            rowIds.put((Long) row.getField(0), (Long) row.getField(1));
        }
        for (Row row : collect("SELECT _ROW_ID, emb, tags FROM embedded")) {
            long id = rowIds.get((Long) row.getField(0));
            assertThat(render(row.getField(1), row.getField(2))).isEqualTo(expected.get(id));
        }
        assertThat(collect("SELECT emb FROM embedded WHERE _ROW_ID BETWEEN 37 AND 41")).hasSize(5);
        assertThat(SqlTesting.rows(sql, "SELECT COUNT(*) FROM embedded WHERE emb IS NULL"))
                .containsExactly(
                        "+I["
                                + expected.values().stream()
                                        .filter(v -> v.startsWith("null"))
                                        .count()
                                + "]");
    }

    @Test
    void aQueryWithoutVectorColumnsOpensNoVectorFile() throws Exception {
        createVectors("unopened", "avro", "");
        insertVectors("unopened", 0, 30);
        for (ManifestEntry entry : tables.liveFiles("unopened")) {
            if (DataFileKinds.isVectorStore(entry.file().fileName())) {
                Files.delete(dataFile("unopened", entry));
            }
        }
        assertThat(SqlTesting.rows(sql, "SELECT id, caption, _ROW_ID FROM unopened")).hasSize(30);
        assertThatThrownBy(() -> SqlTesting.rows(sql, "SELECT emb FROM unopened"))
                .hasStackTraceContaining(".vector.avro");
    }

    @Test
    void updatesWriteVectorsOverTheTouchedRangeAndLeaveThemOtherwise() {
        createVectors("updated", "json", ", 'deletion-vectors.enabled' = 'true'");
        Map<Long, String> expected = insertVectors("updated", 0, 30);
        insertVectors("updated", 30, 30).forEach(expected::put);
        List<String> before = vectorFileNames("updated");

        SqlTesting.execute(sql, "UPDATE updated SET caption = 'changed' WHERE id < 10");
        SqlTesting.execute(sql, "DELETE FROM updated WHERE id = 20");
        expected.remove(20L);
        assertThat(vectorFileNames("updated")).as("no vector file rewritten").isEqualTo(before);
        assertThat(readVectors("updated", "")).isEqualTo(expected);

        SqlTesting.execute(
                sql,
                "UPDATE updated SET emb = ARRAY[CAST(1 AS FLOAT), CAST(2 AS FLOAT), CAST(3 AS"
                        + " FLOAT), CAST(4 AS FLOAT)] WHERE id IN (3, 4)");
        for (long id : new long[] {3, 4}) {
            expected.put(
                    id,
                    "[1.0, 2.0, 3.0, 4.0]"
                            + expected.get(id).substring(expected.get(id).indexOf(" / ")));
        }
        assertThat(readVectors("updated", "")).isEqualTo(expected);
        List<String> added = new ArrayList<>(vectorFileNames("updated"));
        added.removeAll(before);
        assertThat(added).as("one new vector file, over the first insert's range").hasSize(1);

        SqlTesting.execute(
                sql,
                "INSERT INTO `updated$column_updates` (_ROW_ID, tags) SELECT _ROW_ID, CASE id"
                        + " WHEN 40 THEN ARRAY[7, 8] END FROM updated WHERE id IN (40, 41)");
        expected.put(
                40L,
                expected.get(40L).substring(0, expected.get(40L).indexOf(" / ")) + " / [7, 8]");
        expected.put(
                41L, expected.get(41L).substring(0, expected.get(41L).indexOf(" / ")) + " / null");
        assertThat(readVectors("updated", "")).isEqualTo(expected);
        assertThat(SqlTesting.rows(sql, "SELECT COUNT(*) FROM updated WHERE caption = 'changed'"))
                .containsExactly("+I[10]");
    }

    /**
     * A streaming t$column_updates of a VECTOR column writes, per flush and touched group, a new
     * version of the group's vector-store file (the other VECTOR column carried) and no normal
     * file; a buffer of a few values makes several writes a group, merged row by row by the commit.
     */
    @ParameterizedTest
    @ValueSource(strings = {"avro", "json"})
    void aStreamingUpdateOfAVectorColumnWritesVectorFilesOverTheUpdatedGroups(String format)
            throws Exception {
        createVectors("streamed", format, "");
        Map<Long, String> expected = insertVectors("streamed", 0, 30);
        insertVectors("streamed", 30, 30).forEach(expected::put);
        List<String> normalBefore =
                tables.liveFiles("streamed").stream()
                        .map(e -> e.file().fileName())
                        .filter(DataFileKinds::isNormal)
                        .toList();
        TableEnvironment streaming = tables.streamingSession(CLUSTER);
        Map<Long, Long> rowIds = new TreeMap<>();
        for (Row row : collect("SELECT id, _ROW_ID FROM streamed")) {
            rowIds.put((Long) row.getField(0), (Long) row.getField(1));
        }
        List<String> updates = new ArrayList<>();
        for (long id = 2; id < 60; id += 4) { // both groups
            String tags = expected.get(id).substring(expected.get(id).indexOf(" / "));
            if (id % 10 == 6) {
                updates.add("(CAST(" + rowIds.get(id) + " AS BIGINT), CAST(NULL AS ARRAY<FLOAT>))");
                expected.put(id, "null" + tags);
            } else {
                updates.add(
                        "(CAST("
                                + rowIds.get(id)
                                + " AS BIGINT), ARRAY[CAST("
                                + id
                                + " AS FLOAT), CAST(0.5 AS FLOAT), CAST(-"
                                + id
                                + " AS FLOAT), CAST(0.125 AS FLOAT)])");
                expected.put(id, "[" + (float) id + ", 0.5, " + (float) -id + ", 0.125]" + tags);
            }
        }
        streaming
                .executeSql(
                        "INSERT INTO dt.`default`.`streamed$column_updates` /*+"
                                + " OPTIONS('sink.column-updates.buffer-size' = '1 kb') */"
                                + " (_ROW_ID, emb) SELECT * FROM (VALUES "
                                + String.join(", ", updates)
                                + ") AS u (rid, emb)")
                .await();
        assertThat(readVectors("streamed", "")).isEqualTo(expected);
        assertThat(
                        tables.liveFiles("streamed").stream()
                                .map(e -> e.file().fileName())
                                .filter(DataFileKinds::isNormal)
                                .toList())
                .as("no normal file written")
                .isEqualTo(normalBefore);
        for (ManifestEntry vector : tables.liveFiles("streamed")) {
            if (DataFileKinds.isVectorStore(vector.file().fileName())) {
                assertThat(vector.file().writeCols()).containsExactly("emb", "tags");
            }
        }
        try (Stream<Path> written = Files.list(warehouse.resolve("default.db/streamed/bucket-0"))) {
            assertThat(
                            written.map(f -> f.getFileName().toString())
                                    .filter(DataFileKinds::isVectorStore))
                    .as("no vector file of a replaced write left behind")
                    .containsExactlyInAnyOrderElementsOf(vectorFileNames("streamed"));
        }
    }

    @Test
    void compactionFoldsNormalFilesAndKeepsVectorFiles() throws Exception {
        createVectors("compacted", "avro", "");
        Map<Long, String> expected = new TreeMap<>();
        for (int i = 0; i < 4; i++) {
            insertVectors("compacted", i * 10L, 10).forEach(expected::put);
        }
        List<String> before = vectorFileNames("compacted");
        new DataEvolutionCompaction(tables.store("compacted"))
                .compact(
                        "test",
                        1,
                        p -> true,
                        new CompactionConfig(256 << 20, 4 << 20, 2, CompactionConfig.Rewrite.FULL));
        assertThat(
                        tables.liveFiles("compacted").stream()
                                .filter(e -> DataFileKinds.isNormal(e.file().fileName()))
                                .count())
                .isEqualTo(1);
        assertThat(vectorFileNames("compacted")).isEqualTo(before);
        assertThat(readVectors("compacted", "")).isEqualTo(expected);
    }

    @Test
    void aVectorColumnAddedLaterIsBackfilledByRowId() {
        SqlTesting.execute(
                sql,
                "CREATE TABLE docs (id BIGINT, body STRING) WITH ('vector.file.format' = 'json')");
        List<String> values = new ArrayList<>();
        for (int id = 0; id < 20; id++) {
            values.add("(" + id + ", 'body-" + id + "')");
        }
        SqlTesting.execute(sql, "INSERT INTO docs VALUES " + String.join(", ", values));
        SqlTesting.execute(
                sql, "ALTER TABLE docs SET ('vector-field' = 'emb', 'field.emb.vector-dim' = '2')");
        SqlTesting.execute(sql, "ALTER TABLE docs ADD emb ARRAY<FLOAT>");
        SqlTesting.execute(
                sql,
                "INSERT INTO `docs$column_updates` (_ROW_ID, emb) SELECT _ROW_ID, ARRAY[CAST(id AS"
                        + " FLOAT), CAST(-id AS FLOAT)] FROM docs WHERE MOD(id, 2) = 0");
        for (Row row : collect("SELECT id, emb FROM docs")) {
            long id = (Long) row.getField(0);
            assertThat(row.getField(1) == null ? null : Arrays.toString((Object[]) row.getField(1)))
                    .as("id %s", id)
                    .isEqualTo(id % 2 == 0 ? "[" + (float) id + ", " + (float) -id + "]" : null);
        }
        assertThat(vectorFileNames("docs")).isNotEmpty().allMatch(n -> n.endsWith(".vector.json"));
    }

    @Test
    void badVectorsFailTheWriteAndChangeNothing() {
        createVectors("strict", "avro", "");
        insertVectors("strict", 0, 3);
        long snapshot = tables.latest("strict").id();
        assertThatThrownBy(
                        () ->
                                SqlTesting.execute(
                                        sql,
                                        "INSERT INTO strict VALUES (9, 'x', ARRAY[CAST(1 AS"
                                                + " FLOAT)], ARRAY[1, 2])"))
                .hasStackTraceContaining("VECTOR column 'emb' has dimension 4")
                .hasStackTraceContaining("1 elements");
        assertThatThrownBy(
                        () ->
                                SqlTesting.execute(
                                        sql,
                                        "INSERT INTO strict VALUES (9, 'x', ARRAY[CAST(1 AS FLOAT),"
                                                + " CAST(2 AS FLOAT), CAST(3 AS FLOAT), CAST(4 AS"
                                                + " FLOAT)], ARRAY[1, CAST(NULL AS INT)])"))
                .hasStackTraceContaining("VECTOR column 'tags' cannot hold NULL elements");
        assertThat(tables.latest("strict").id()).isEqualTo(snapshot);
        assertThat(
                        tables.liveFiles("strict").stream()
                                .filter(e -> DataFileKinds.isVectorStore(e.file().fileName()))
                                .count())
                .isEqualTo(1);
    }

    @Test
    void vectorDeclarationsAreChecked() {
        assertThatThrownBy(() -> create("bad1", "emb ARRAY<FLOAT>", "'vector-field' = 'emb'"))
                .hasStackTraceContaining("needs its dimension: set 'field.emb.vector-dim'");
        assertThatThrownBy(
                        () ->
                                create(
                                        "bad2",
                                        "emb STRING",
                                        "'vector-field' = 'emb', 'field.emb.vector-dim' = '3'"))
                .hasStackTraceContaining("a VECTOR column is declared ARRAY<FLOAT>");
        assertThatThrownBy(
                        () ->
                                create(
                                        "bad3",
                                        "emb ARRAY<STRING>",
                                        "'vector-field' = 'emb', 'field.emb.vector-dim' = '3',"
                                                + " 'vector.file.format' = 'avro'"))
                .hasStackTraceContaining("VECTOR element must be");
        assertThatThrownBy(
                        () ->
                                create(
                                        "bad4",
                                        "emb ARRAY<FLOAT>",
                                        "'vector-field' = 'emb', 'field.emb.vector-dim' = '3'"))
                .hasStackTraceContaining("'vector.file.format' to 'avro' or 'json'");
        assertThatThrownBy(
                        () ->
                                create(
                                        "bad5",
                                        "emb ARRAY<FLOAT>",
                                        "'vector-field' = 'emb', 'field.emb.vector-dim' = '3',"
                                                + " 'vector.file.format' = 'lance'"))
                .hasStackTraceContaining("Lance's native library");
        assertThatThrownBy(
                        () ->
                                create(
                                        "bad6",
                                        "emb ARRAY<FLOAT>",
                                        "'vector-field' = 'embedding', 'field.emb.vector-dim' ="
                                                + " '3', 'vector.file.format' = 'avro'"))
                .hasStackTraceContaining("which the table does not declare");
        assertThatThrownBy(
                        () ->
                                create(
                                        "bad7",
                                        "emb ARRAY<FLOAT>",
                                        "'vector-field' = 'emb', 'field.emb.vector-dim' = '0',"
                                                + " 'vector.file.format' = 'avro'"))
                .hasStackTraceContaining("field.emb.vector-dim");
        createVectors("declared", "avro", "");
        assertThat(SqlTesting.rows(sql, "DESCRIBE declared").toString())
                .contains("emb, ARRAY<FLOAT>")
                .contains("tags, ARRAY<INT>");
    }

    private void create(String table, String column, String options) {
        SqlTesting.execute(
                sql,
                "CREATE TABLE " + table + " (id BIGINT, " + column + ") WITH (" + options + ")");
    }

    private void createVectors(String table, String format, String moreOptions) {
        SqlTesting.execute(
                sql,
                "CREATE TABLE "
                        + table
                        + " (id BIGINT, caption STRING, emb ARRAY<FLOAT>, tags ARRAY<INT>) WITH"
                        + " ('vector-field' = 'emb,tags', 'field.emb.vector-dim' = '4',"
                        + " 'field.tags.vector-dim' = '2', 'vector.file.format' = '"
                        + format
                        + "', 'vector.target-file-size' = '1 kb'"
                        + moreOptions
                        + ")");
    }

    /**
     * Inserts rows {@code first ..} (one writer: row ids in id order) with vectors of floats in
     * eighths (exact in FLOAT), every 7th {@code emb} and every 5th {@code tags} NULL; returns
     * {@code id -> "emb / tags"}.
     */
    private Map<Long, String> insertVectors(String table, long first, int count) {
        Random random = new Random(first);
        Map<Long, String> expected = new TreeMap<>();
        List<String> values = new ArrayList<>();
        for (long id = first; id < first + count; id++) {
            Float[] emb = null;
            if (id % 7 != 3) {
                emb = new Float[4];
                for (int i = 0; i < 4; i++) {
                    emb[i] = (random.nextInt(2001) - 1000) / 8f;
                }
            }
            Integer[] tags = id % 5 == 1 ? null : new Integer[] {random.nextInt(), (int) id};
            expected.put(id, render(emb, tags));
            values.add(
                    "("
                            + id
                            + ", 'caption-"
                            + id
                            + "', "
                            + (emb == null
                                    ? "CAST(NULL AS ARRAY<FLOAT>)"
                                    : Arrays.stream(emb)
                                            .map(f -> "CAST(" + f + " AS FLOAT)")
                                            .collect(Collectors.joining(", ", "ARRAY[", "]")))
                            + ", "
                            + (tags == null
                                    ? "CAST(NULL AS ARRAY<INT>)"
                                    : "ARRAY[" + tags[0] + ", " + tags[1] + "]")
                            + ")");
        }
        SqlTesting.execute(
                sql,
                "INSERT INTO "
                        + table
                        + " /*+ OPTIONS('sink.parallelism' = '1') */ VALUES "
                        + String.join(", ", values));
        return expected;
    }

    /** {@code id -> "emb / tags"} as SQL reads them. */
    private Map<Long, String> readVectors(String table, String hint) {
        Map<Long, String> out = new TreeMap<>();
        for (Row row : collect("SELECT id, emb, tags FROM " + table + hint)) {
            out.put((Long) row.getField(0), render(row.getField(1), row.getField(2)));
        }
        return out;
    }

    private static String render(Object emb, Object tags) {
        return (emb == null ? "null" : Arrays.toString((Object[]) emb))
                + " / "
                + (tags == null ? "null" : Arrays.toString((Object[]) tags));
    }

    private List<Row> collect(String query) {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
            it.forEachRemaining(rows::add);
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        return rows;
    }

    private List<String> vectorFileNames(String table) {
        return tables.liveFiles(table).stream()
                .map(e -> e.file().fileName())
                .filter(DataFileKinds::isVectorStore)
                .sorted()
                .toList();
    }

    private Path dataFile(String table, ManifestEntry entry) {
        return warehouse
                .resolve("default.db")
                .resolve(table)
                .resolve("bucket-0")
                .resolve(entry.file().fileName());
    }
}
