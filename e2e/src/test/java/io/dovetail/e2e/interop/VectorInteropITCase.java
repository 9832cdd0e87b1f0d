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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * VECTOR tables in vector-store files across engines in one warehouse, Apache Paimon 1.4.2's Flink
 * connector on one side, for both formats Dovetail writes ({@code avro}, {@code json}): a table
 * Paimon writes (two VECTOR columns, NULL vectors, two appends) reads through Dovetail's SQL
 * exactly as through Paimon's under every projection; Dovetail's appends, updates of a normal and
 * of a VECTOR column, a column backfill by {@code _ROW_ID} and a compaction of it, and a table
 * Dovetail creates and writes, read through Paimon's SQL exactly as through Dovetail's.
 */
class VectorInteropITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final String ALL = "id, caption, emb, tags";

    @TempDir java.nio.file.Path root;

    private TableEnvironment sql;

    @BeforeEach
    void connect() {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().addConfiguration(CLUSTER.getClientConfiguration());
        sql.getConfig().set("execution.target", "remote");
        sql.getConfig().set("parallelism.default", "2");
        sql.getConfig().set("table.dml-sync", "true");
        BothCatalogs.register(sql, root);
    }

    @ParameterizedTest
    @ValueSource(strings = {"avro", "json"})
    void paimonWrittenVectorTablesReadTheSameThroughDovetail(String format) throws Exception {
        sql.executeSql(create("paimon", "vecs", format)).await();
        insert("paimon", "vecs", 0, 40);
        insert("paimon", "vecs", 40, 25);
        assertThat(vectorFiles("vecs")).as("a vector-store file per insert").hasSize(2);
        for (String projection :
                List.of(
                        ALL,
                        "tags, id",
                        "emb",
                        "caption",
                        "COUNT(*)",
                        "id, emb FROM vecs WHERE emb IS NULL --",
                        "id, tags FROM vecs WHERE id BETWEEN 30 AND 45 --",
                        "_ROW_ID, id, emb FROM `vecs$row_tracking` --")) {
            assertThat(read("dovetail", "vecs", projection))
                    .as(projection)
                    .isEqualTo(read("paimon", "vecs", projection))
                    .isNotEmpty();
        }

        // Dovetail appends, updates a normal column and a VECTOR column, backfills by _ROW_ID
        insert("dovetail", "vecs", 200, 30);
        sql.executeSql("UPDATE dovetail.`default`.vecs SET caption = 'new' WHERE id < 50").await();
        sql.executeSql(
                        "UPDATE dovetail.`default`.vecs SET emb = ARRAY[CAST(0.5 AS FLOAT), CAST(1"
                                + " AS FLOAT), CAST(2 AS FLOAT)] WHERE id IN (7, 45, 201)")
                .await();
        sql.executeSql(
                        "INSERT INTO dovetail.`default`.`vecs$column_updates` (_ROW_ID, tags)"
                                + " SELECT _ROW_ID, ARRAY[-1, CAST(id AS INT)] FROM"
                                + " dovetail.`default`.vecs WHERE id IN (8, 46)")
                .await();
        assertThat(read("dovetail", "vecs", "id, emb, tags FROM vecs WHERE id IN (7, 8) --"))
                .containsExactly("+I[7, [0.5, 1.0, 2.0], null]", "+I[8, " + emb(8) + ", [-1, 8]]");
        sql.executeSql(
                "CREATE CATALOG paimon_later WITH ('type' = 'paimon', 'warehouse' = '"
                        + root.toUri()
                        + "')");
        assertThat(read("paimon_later", "vecs", ALL))
                .isEqualTo(read("dovetail", "vecs", ALL))
                .hasSize(95);
        assertThat(read("paimon_later", "vecs", "COUNT(*) FROM vecs WHERE caption = 'new' --"))
                .containsExactly("+I[50]");

        // Dovetail compacts the normal files around the vector files, which stay as they are:
        // first column-selectively (the two versions of caption over ids < 50 fold into one
        // file; the files written once stay), then fully
        sql.executeSql("UPDATE dovetail.`default`.vecs SET caption = 'new' WHERE id < 50").await();
        List<String> before = read("dovetail", "vecs", ALL);
        List<String> vectors = vectorFiles("vecs");
        sql.executeSql("ALTER TABLE dovetail.`default`.vecs SET ('compaction.min.file-num' = '2')")
                .await();
        try (CloseableIterator<Row> result =
                sql.executeSql("CALL dovetail.sys.compact(`table` => 'default.vecs')").collect()) {
            Row compacted = result.next(); // files_written, files_rewritten, .., snapshot_id, ..
            assertThat((Long) compacted.getField(1)).isPositive();
            assertThat(compacted.getField(4)).isNotNull();
        }
        sql.executeSql(
                "CREATE CATALOG paimon_selective WITH ('type' = 'paimon', 'warehouse' = '"
                        + root.toUri()
                        + "')");
        assertThat(vectorFiles("vecs")).containsAll(vectors);
        assertThat(read("paimon_selective", "vecs", ALL)).isEqualTo(before);
        assertThat(read("dovetail", "vecs", ALL)).isEqualTo(before);
        sql.executeSql(
                        "CALL dovetail.sys.compact(`table` => 'default.vecs',"
                                + " compact_strategy => 'full')")
                .await();
        sql.executeSql(
                "CREATE CATALOG paimon_compacted WITH ('type' = 'paimon', 'warehouse' = '"
                        + root.toUri()
                        + "')");
        assertThat(vectorFiles("vecs")).containsAll(vectors);
        assertThat(read("paimon_compacted", "vecs", ALL)).isEqualTo(before);
        assertThat(read("dovetail", "vecs", ALL)).isEqualTo(before);
        assertThat(read("dovetail", "vecs", "_ROW_ID, id, emb FROM `vecs$row_tracking` --"))
                .isEqualTo(
                        read(
                                "paimon_compacted",
                                "vecs",
                                "_ROW_ID, id, emb FROM" + " `vecs$row_tracking` --"));

        // then the vector-store files too (a Dovetail option, off by default): each group's
        // versions fold into one file, which Paimon reads the same, row ids kept
        List<String> rowIds =
                read("dovetail", "vecs", "_ROW_ID, id, emb FROM `vecs$row_tracking` --");
        String liveVectors = "COUNT(*) FROM `vecs$files` WHERE file_format = '" + format + "' --";
        long vectorsBefore = count(read("dovetail", "vecs", liveVectors));
        sql.executeSql(
                        "CALL dovetail.sys.compact(`table` => 'default.vecs', options =>"
                                + " 'compaction.dedicated-files.enabled=true')")
                .await();
        assertThat(count(read("dovetail", "vecs", liveVectors)))
                .as("live vector-store files")
                .isLessThan(vectorsBefore);
        sql.executeSql(
                "CREATE CATALOG paimon_folded WITH ('type' = 'paimon', 'warehouse' = '"
                        + root.toUri()
                        + "')");
        assertThat(read("paimon_folded", "vecs", ALL)).isEqualTo(before);
        assertThat(read("dovetail", "vecs", ALL)).isEqualTo(before);
        assertThat(read("paimon_folded", "vecs", "_ROW_ID, id, emb FROM `vecs$row_tracking` --"))
                .isEqualTo(rowIds);
    }

    private static long count(List<String> rows) {
        String row = rows.get(0);
        return Long.parseLong(row.substring(3, row.length() - 1));
    }

    @Test
    void dovetailWrittenVectorTablesReadTheSameThroughPaimon() throws Exception {
        for (String format : List.of("avro", "json")) {
            String table = "made_" + format;
            sql.executeSql(create("dovetail", table, format)).await();
            insert("dovetail", table, 0, 50);
            insert("dovetail", table, 50, 10);
            for (String projection :
                    List.of(
                            ALL,
                            "emb, id",
                            "tags",
                            "_ROW_ID, id, tags FROM `" + table + "$row_tracking` --")) {
                assertThat(read("paimon", table, projection))
                        .as(format + ": " + projection)
                        .isEqualTo(read("dovetail", table, projection))
                        .isNotEmpty();
            }
        }
        // a VECTOR column added later (Paimon's own ALTER cannot add one), filled by _ROW_ID
        sql.executeSql(
                        "ALTER TABLE dovetail.`default`.made_avro SET ('vector-field' ="
                                + " 'emb,tags,late', 'field.late.vector-dim' = '2')")
                .await();
        sql.executeSql("ALTER TABLE dovetail.`default`.made_avro ADD late ARRAY<DOUBLE>").await();
        sql.executeSql(
                        "INSERT INTO dovetail.`default`.`made_avro$column_updates` (_ROW_ID, late)"
                                + " SELECT _ROW_ID, ARRAY[CAST(id AS DOUBLE), 0.25] FROM"
                                + " dovetail.`default`.made_avro WHERE id >= 45")
                .await();
        sql.executeSql(
                "CREATE CATALOG paimon_later WITH ('type' = 'paimon', 'warehouse' = '"
                        + root.toUri()
                        + "')");
        assertThat(read("paimon_later", "made_avro", "id, late FROM made_avro WHERE id >= 44 --"))
                .startsWith("+I[44, null]", "+I[45, [45.0, 0.25]]")
                .hasSize(16);
        assertThat(read("paimon_later", "made_avro", ALL + ", late"))
                .isEqualTo(read("dovetail", "made_avro", ALL + ", late"));
    }

    /**
     * A vector-store table Paimon evolves itself: a renamed and an added normal column, rows of
     * both schemas, the vector-store files all written before the change; Dovetail reads every
     * projection as Paimon does (a projection of only the renamed column aside: Paimon 1.4.2 drops
     * the older rows there, see BlobInteropITCase).
     */
    @ParameterizedTest
    @ValueSource(strings = {"avro", "json"})
    void paimonEvolvedVectorTablesReadTheSameThroughDovetail(String format) throws Exception {
        sql.executeSql(create("paimon", "evo", format)).await();
        insert("paimon", "evo", 0, 30);
        sql.executeSql("ALTER TABLE paimon.`default`.evo RENAME caption TO title").await();
        sql.executeSql("ALTER TABLE paimon.`default`.evo ADD score INT").await();
        insert("paimon", "evo", 30, 5, true);
        sql.executeSql(
                "CREATE CATALOG paimon_evolved WITH ('type' = 'paimon', 'warehouse' = '"
                        + root.toUri()
                        + "')");
        for (String projection :
                List.of(
                        "id, title, emb, tags, score",
                        "score, tags",
                        "emb",
                        "id, emb FROM evo WHERE score IS NULL --",
                        "_ROW_ID, id, emb, score FROM `evo$row_tracking` --")) {
            assertThat(read("dovetail", "evo", projection))
                    .as(projection)
                    .isEqualTo(read("paimon_evolved", "evo", projection))
                    .isNotEmpty();
        }
        assertThat(read("dovetail", "evo", "COUNT(*) FROM evo WHERE score IS NOT NULL --"))
                .containsExactly("+I[5]");
    }

    private static String create(String engine, String table, String format) {
        return "CREATE TABLE "
                + engine
                + ".`default`."
                + table
                + " (id BIGINT, caption STRING, emb ARRAY<FLOAT>, tags ARRAY<INT>) WITH"
                + " ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true',"
                + " 'vector-field' = 'emb,tags', 'field.emb.vector-dim' = '3',"
                + " 'field.tags.vector-dim' = '2', 'vector.file.format' = '"
                + format
                + "', 'vector.target-file-size' = '1 kb'"
                // Paimon 1.4.2 compresses JSON through Hadoop's native zstd, absent here
                + (format.equals("json") ? ", 'file.compression' = 'none'" : "")
                + ")";
    }

    /** Rows {@code first ..}: every 6th {@code emb} and every 4th {@code tags} NULL. */
    private void insert(String engine, String table, long first, int count) throws Exception {
        insert(engine, table, first, count, false);
    }

    /** As above, with a last column {@code score} = id x 10 if {@code score}. */
    private void insert(String engine, String table, long first, int count, boolean score)
            throws Exception {
        List<String> values = new ArrayList<>();
        for (long id = first; id < first + count; id++) {
            values.add(
                    "("
                            + id
                            + ", 'caption-"
                            + id
                            + "', "
                            + (id % 6 == 1
                                    ? "CAST(NULL AS ARRAY<FLOAT>)"
                                    : Arrays.stream(floats(id))
                                            .map(f -> "CAST(" + f + " AS FLOAT)")
                                            .collect(Collectors.joining(", ", "ARRAY[", "]")))
                            + ", "
                            + (id % 4 == 3 ? "CAST(NULL AS ARRAY<INT>)" : "ARRAY[" + tags(id) + "]")
                            + (score ? ", CAST(" + id * 10 + " AS INT)" : "")
                            + ")");
        }
        sql.executeSql(
                        "INSERT INTO "
                                + engine
                                + ".`default`."
                                + table
                                + " /*+ OPTIONS('sink.parallelism' = '1') */ VALUES "
                                + String.join(", ", values))
                .await();
    }

    private static Float[] floats(long id) {
        Random random = new Random(id);
        return new Float[] {random.nextFloat(), -random.nextFloat() * 1e6f, (float) id};
    }

    private static String emb(long id) {
        return id % 6 == 1 ? "null" : Arrays.toString(floats(id));
    }

    private static String tags(long id) {
        return (id * 31 % 1000) + ", " + (-id);
    }

    private List<String> read(String engine, String table, String projection) throws Exception {
        return EngineReads.read(sql, engine, table, projection);
    }

    private List<String> vectorFiles(String table) throws Exception {
        try (Stream<java.nio.file.Path> files =
                Files.list(root.resolve("default.db").resolve(table).resolve("bucket-0"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.contains(".vector."))
                    .toList();
        }
    }
}
