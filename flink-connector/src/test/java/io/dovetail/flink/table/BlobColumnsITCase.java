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

import io.dovetail.table.format.blob.BlobDescriptor;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.FileSource;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * BLOB columns through Flink SQL: a {@code BYTES} column named by {@code 'blob-field'} is stored in
 * {@code .blob} files of its own (rolled by {@code blob.target-file-size}, covering exactly their
 * normal file's rows), read back byte for byte, never opened by a query that does not select it,
 * and left untouched by updates and deletes of the other columns. Descriptors given as values copy
 * the bytes they reference; {@code blob-as-descriptor} reads descriptors instead of bytes.
 */
class BlobColumnsITCase {

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

    @Test
    void insertedBlobsReadBackByteForByteFromRolledBlobFiles() {
        createImages("images", "");
        Map<Long, byte[]> images = insertImages("images", 0, 60);
        assertThat(readImages("images", "")).isEqualTo(hex(images));

        List<ManifestEntry> files = tables.liveFiles("images");
        List<ManifestEntry> blobs =
                files.stream().filter(e -> DataFileKinds.isBlob(e.file().fileName())).toList();
        assertThat(blobs.size()).as("rolled at 2 kb").isGreaterThan(2);
        for (ManifestEntry blob : blobs) {
            assertThat(blob.file().writeCols()).containsExactly("img");
            assertThat(blob.file().valueStatsCols()).isEmpty();
        }
        for (ManifestEntry normal :
                files.stream().filter(e -> DataFileKinds.isNormal(e.file().fileName())).toList()) {
            assertThat(normal.file().writeCols()).containsExactly("id", "caption");
            long first = normal.file().firstRowId();
            long covered =
                    blobs.stream()
                            .filter(
                                    b ->
                                            b.file().firstRowId() >= first
                                                    && b.file().firstRowId()
                                                            < first + normal.file().rowCount())
                            .mapToLong(b -> b.file().rowCount())
                            .sum();
            assertThat(covered)
                    .as("BLOB rows of %s", normal.file().fileName())
                    .isEqualTo(normal.file().rowCount());
        }
        assertThat(
                        SqlTesting.rows(
                                sql,
                                "SELECT file_format, COUNT(*) FROM `images$files` GROUP BY"
                                        + " file_format"))
                .containsExactlyInAnyOrder(
                        "+I[parquet, " + (files.size() - blobs.size()) + "]",
                        "+I[blob, " + blobs.size() + "]");
        assertThat(SqlTesting.rows(sql, "SELECT COUNT(*) FROM images WHERE img IS NULL"))
                .containsExactly(
                        "+I[" + images.values().stream().filter(v -> v == null).count() + "]");
        assertThat(
                        SqlTesting.rows(
                                sql, "SELECT id, img FROM images WHERE _ROW_ID BETWEEN 10 AND 12"))
                .hasSize(3);
    }

    @Test
    void anUpdateOfABlobColumnWritesANewVersionOverEachTouchedRange() {
        createImages("retouched", ", 'deletion-vectors.enabled' = 'true'");
        Map<Long, byte[]> images = insertImages("retouched", 0, 30);
        insertImages("retouched", 30, 30).forEach(images::put);
        SqlTesting.execute(sql, "DELETE FROM retouched WHERE id = 5");
        images.remove(5L);
        List<String> before = blobFileNames("retouched");
        SqlTesting.execute(
                sql,
                "UPDATE retouched SET img = X'CAFE', caption = 'retouched' WHERE id IN (3, 4)");
        images.put(3L, new byte[] {(byte) 0xCA, (byte) 0xFE});
        images.put(4L, new byte[] {(byte) 0xCA, (byte) 0xFE});
        assertThat(readImages("retouched", "")).isEqualTo(hex(images));

        List<ManifestEntry> added =
                tables.liveFiles("retouched").stream()
                        .filter(e -> DataFileKinds.isBlob(e.file().fileName()))
                        .filter(e -> !before.contains(e.file().fileName()))
                        .toList();
        assertThat(before).isSubsetOf(blobFileNames("retouched"));
        assertThat(added)
                .as("one file over the first insert's whole range")
                .singleElement()
                .satisfies(
                        e -> {
                            assertThat(e.file().firstRowId()).isZero();
                            assertThat(e.file().rowCount()).isEqualTo(30);
                        });
        assertThat(
                        SqlTesting.rows(
                                sql, "SELECT COUNT(*) FROM retouched WHERE caption = 'retouched'"))
                .containsExactly("+I[2]");

        // the same by _ROW_ID, through the column-updates sink (an insert by two writers need
        // not give ids 40 and 41 the row ids 40 and 41)
        SqlTesting.execute(
                sql,
                "INSERT INTO `retouched$column_updates` (_ROW_ID, img) SELECT _ROW_ID, CASE id"
                        + " WHEN 40 THEN X'BEEF' END FROM retouched WHERE id IN (40, 41)");
        images.put(40L, new byte[] {(byte) 0xBE, (byte) 0xEF});
        images.put(41L, null);
        assertThat(readImages("retouched", "")).isEqualTo(hex(images));
    }

    /** A streaming INSERT writes .blob files that read back byte for byte. */
    @Test
    void aStreamingInsertWritesBlobFilesReadBackByteForByte() throws Exception {
        createImages("streamed_in", "");
        TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().addConfiguration(CLUSTER.getClientConfiguration());
        streaming.getConfig().set("execution.target", "remote");
        streaming.getConfig().set("execution.checkpointing.interval", "1 s");
        streaming.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        Random random = new Random(5);
        Map<Long, byte[]> images = new HashMap<>();
        List<String> values = new ArrayList<>();
        for (long id = 0; id < 20; id++) {
            byte[] image = id % 6 == 1 ? null : new byte[300 + random.nextInt(500)];
            if (image != null) {
                random.nextBytes(image);
            }
            images.put(id, image);
            values.add(
                    "("
                            + id
                            + ", 'c', "
                            + (image == null ? "CAST(NULL AS BYTES)" : "X'" + hex(image) + "'")
                            + ")");
        }
        streaming
                .executeSql(
                        "INSERT INTO dt.`default`.streamed_in VALUES " + String.join(", ", values))
                .await();
        assertThat(readImages("streamed_in", "")).isEqualTo(hex(images));
        assertThat(blobFileNames("streamed_in")).as("rolled at 2 kb").hasSizeGreaterThan(2);
    }

    /**
     * A streaming t$column_updates of a BLOB column alone writes, per flush and touched group, a
     * {@code .blob} file over the group's range and no normal file; with a buffer of a few values a
     * writer flushes several times a group and the commit merges those writes row by row into one
     * file per group. With a normal column too, each group's files go in as written. Values byte
     * for byte, no file of the replaced writes left behind.
     */
    @Test
    void aStreamingUpdateOfABlobColumnWritesBlobFilesOverTheUpdatedGroups() throws Exception {
        createImages("streamed", "");
        Map<Long, byte[]> images = insertImages("streamed", 0, 30);
        insertImages("streamed", 30, 30).forEach(images::put);
        List<String> normalBefore = normalFileNames("streamed");
        List<String> blobsBefore = blobFileNames("streamed");
        TableEnvironment streaming = tables.streamingSession(CLUSTER);

        Map<Long, Long> rowIds = new HashMap<>();
        try (CloseableIterator<Row> rows =
                sql.executeSql("SELECT id, _ROW_ID FROM streamed").collect()) {
            rows.forEachRemaining(r -> rowIds.put((Long) r.getField(0), (Long) r.getField(1)));
        }
        Random random = new Random(7);
        List<String> updates = new ArrayList<>();
        for (long id = 1; id < 60; id += 3) { // both groups
            byte[] image = null;
            if (id % 9 != 4) {
                image = new byte[300 + random.nextInt(1200)];
                random.nextBytes(image);
            }
            images.put(id, image);
            updates.add("(CAST(" + rowIds.get(id) + " AS BIGINT), " + bytes(image) + ")");
        }
        streaming
                .executeSql(
                        "INSERT INTO dt.`default`.`streamed$column_updates` /*+"
                                + " OPTIONS('sink.column-updates.buffer-size' = '2 kb') */"
                                + " (_ROW_ID, img) SELECT * FROM (VALUES "
                                + String.join(", ", updates)
                                + ") AS u (rid, img)")
                .await();
        assertThat(readImages("streamed", "")).isEqualTo(hex(images));
        assertThat(normalFileNames("streamed"))
                .as("no normal file written")
                .isEqualTo(normalBefore);
        List<ManifestEntry> added =
                tables.liveFiles("streamed").stream()
                        .filter(e -> DataFileKinds.isBlob(e.file().fileName()))
                        .filter(e -> !blobsBefore.contains(e.file().fileName()))
                        .sorted(Comparator.comparing(e -> e.file().firstRowId()))
                        .toList();
        assertThat(added)
                .as("one merged .blob file per group")
                .extracting(e -> e.file().firstRowId() + "+" + e.file().rowCount())
                .containsExactly("0+30", "30+30");

        streaming
                .executeSql(
                        "INSERT INTO dt.`default`.`streamed$column_updates` (_ROW_ID, caption,"
                                + " img) VALUES (CAST("
                                + rowIds.get(2L)
                                + " AS BIGINT), 'two', X'0102'), (CAST("
                                + rowIds.get(45L)
                                + " AS BIGINT), 'forty-five', CAST(NULL AS BYTES))")
                .await();
        images.put(2L, new byte[] {1, 2});
        images.put(45L, null);
        assertThat(readImages("streamed", "")).isEqualTo(hex(images));
        assertThat(SqlTesting.rows(sql, "SELECT id, caption FROM streamed WHERE id IN (2, 45, 46)"))
                .containsExactlyInAnyOrder(
                        "+I[2, two]", "+I[45, forty-five]", "+I[46, caption-46]");
        try (Stream<Path> written = Files.list(warehouse.resolve("default.db/streamed/bucket-0"))) {
            assertThat(written.map(f -> f.getFileName().toString()).filter(DataFileKinds::isBlob))
                    .as("no .blob file of a replaced write left behind")
                    .containsExactlyInAnyOrderElementsOf(blobFileNames("streamed"));
        }
    }

    @Test
    void aQueryWithoutTheBlobColumnOpensNoBlobFile() throws Exception {
        createImages("unopened", "");
        insertImages("unopened", 0, 30);
        for (ManifestEntry entry : tables.liveFiles("unopened")) {
            if (DataFileKinds.isBlob(entry.file().fileName())) {
                Files.delete(blobPath("unopened", entry));
            }
        }
        assertThat(SqlTesting.rows(sql, "SELECT id, caption, _ROW_ID FROM unopened")).hasSize(30);
        assertThatThrownBy(() -> SqlTesting.rows(sql, "SELECT img FROM unopened"))
                .hasStackTraceContaining(".blob");
    }

    @Test
    void updatesAndDeletesOfOtherColumnsLeaveTheBlobFilesAlone() {
        createImages("edited", ", 'deletion-vectors.enabled' = 'true'");
        Map<Long, byte[]> images = insertImages("edited", 0, 40);
        List<String> blobFiles = blobFileNames("edited");
        SqlTesting.execute(sql, "UPDATE edited SET caption = 'changed' WHERE id < 10");
        SqlTesting.execute(sql, "DELETE FROM edited WHERE id = 20");
        images.remove(20L);
        assertThat(blobFileNames("edited")).isEqualTo(blobFiles);
        assertThat(readImages("edited", "")).isEqualTo(hex(images));
        assertThat(SqlTesting.rows(sql, "SELECT COUNT(*) FROM edited WHERE caption = 'changed'"))
                .containsExactly("+I[10]");
    }

    @Test
    void descriptorsCopyTheirBytesInAndAreReadOnRequest() throws Exception {
        createImages("described", "");
        byte[] outside = new byte[5000];
        new Random(7).nextBytes(outside);
        Path source = Files.write(warehouse.resolve("outside.bin"), outside);
        byte[] whole = new BlobDescriptor(source.toUri().toString(), 0, -1).serialize();
        byte[] part = new BlobDescriptor(source.toUri().toString(), 100, 50).serialize();
        SqlTesting.execute(
                sql,
                "INSERT INTO described VALUES (1, 'whole', X'"
                        + HexFormat.of().formatHex(whole)
                        + "'), (2, 'part', X'"
                        + HexFormat.of().formatHex(part)
                        + "')");
        Files.delete(source); // the table holds copies
        Map<Long, String> read = readImages("described", "");
        assertThat(read.get(1L)).isEqualTo(HexFormat.of().formatHex(outside));
        assertThat(read.get(2L))
                .isEqualTo(HexFormat.of().formatHex(Arrays.copyOfRange(outside, 100, 150)));

        Map<Long, String> descriptors =
                readImages("described", " /*+ OPTIONS('blob-as-descriptor' = 'true') */");
        BlobDescriptor second =
                BlobDescriptor.deserialize(HexFormat.of().parseHex(descriptors.get(2L)));
        assertThat(second.length()).isEqualTo(50);
        assertThat(second.uri()).endsWith(".blob");
        try (var in = Files.newInputStream(Path.of(java.net.URI.create(second.uri())))) {
            in.skipNBytes(second.offset());
            assertThat(in.readNBytes(50)).isEqualTo(Arrays.copyOfRange(outside, 100, 150));
        }
    }

    @Test
    void aBlobColumnAddedLaterHoldsOnlyTheRowsWrittenSince() {
        createImages("grown", "");
        insertImages("grown", 0, 10);
        assertThatThrownBy(() -> sql.executeSql("ALTER TABLE grown SET ('blob-field' = 'caption')"))
                .hasStackTraceContaining("cannot be changed");
        SqlTesting.execute(sql, "ALTER TABLE grown SET ('blob-field' = 'img,thumb')");
        SqlTesting.execute(sql, "ALTER TABLE grown ADD thumb BYTES");
        SqlTesting.execute(
                sql,
                "INSERT INTO grown VALUES (10, 'later', X'0102', X'CAFE'), (11, 'l', CAST(NULL AS BYTES), CAST(NULL AS BYTES))");
        assertThat(SqlTesting.rows(sql, "SELECT id, thumb FROM grown WHERE id IN (0, 10, 11)"))
                .containsExactlyInAnyOrder("+I[0, null]", "+I[10, [-54, -2]]", "+I[11, null]");
        assertThat(blobFileNames("grown")).hasSizeGreaterThan(2);
        assertThat(
                        tables.liveFiles("grown").stream()
                                .filter(e -> DataFileKinds.isBlob(e.file().fileName()))
                                .filter(e -> e.file().writeCols().equals(List.of("thumb")))
                                .mapToLong(e -> e.file().rowCount())
                                .sum())
                .as("thumb's .blob rows")
                .isEqualTo(2);
    }

    @Test
    void theDescriptorFunctionsOfTheSysDatabase() throws Exception {
        createImages("described_by_path", "");
        byte[] outside = new byte[300];
        new Random(11).nextBytes(outside);
        Path source = Files.write(warehouse.resolve("function.bin"), outside);
        SqlTesting.execute(
                sql,
                "INSERT INTO described_by_path VALUES (1, 'f', sys.path_to_descriptor('"
                        + source.toUri()
                        + "'))");
        assertThat(readImages("described_by_path", "").get(1L))
                .isEqualTo(HexFormat.of().formatHex(outside));
        assertThat(
                        SqlTesting.rows(
                                sql,
                                "SELECT sys.descriptor_to_string(sys.path_to_descriptor('s3://b/k'))"))
                .containsExactly(
                        "+I[BlobDescriptor{version=2, uri='s3://b/k', offset=0, length=-1}]");
        assertThat(SqlTesting.rows(sql, "SHOW FUNCTIONS IN sys").toString())
                .contains("path_to_descriptor", "descriptor_to_string");
    }

    @Test
    void aDescriptorOfAMissingFileFailsTheInsertAndChangesNothing() {
        createImages("missing", "");
        insertImages("missing", 0, 3);
        long snapshot = tables.latest("missing").id();
        byte[] dangling =
                new BlobDescriptor(warehouse.resolve("nowhere.bin").toUri().toString(), 0, -1)
                        .serialize();
        assertThatThrownBy(
                        () ->
                                SqlTesting.execute(
                                        sql,
                                        "INSERT INTO missing VALUES (9, 'x', X'"
                                                + HexFormat.of().formatHex(dangling)
                                                + "')"))
                .hasStackTraceContaining("nowhere.bin");
        assertThat(tables.latest("missing").id()).isEqualTo(snapshot);
    }

    @Test
    void anUpdateToADescriptorOfAMissingFileFailsAndChangesNothing() {
        createImages("missing_update", "");
        Map<Long, byte[]> images = insertImages("missing_update", 0, 5);
        long snapshot = tables.latest("missing_update").id();
        List<String> blobFiles = blobFileNames("missing_update");
        List<Path> dataFiles = dataDirectory("missing_update");
        byte[] dangling =
                new BlobDescriptor(warehouse.resolve("gone.bin").toUri().toString(), 0, -1)
                        .serialize();
        assertThatThrownBy(
                        () ->
                                SqlTesting.execute(
                                        sql,
                                        "UPDATE missing_update SET img = X'"
                                                + HexFormat.of().formatHex(dangling)
                                                + "' WHERE id = 2"))
                .hasStackTraceContaining("gone.bin");
        assertThat(tables.latest("missing_update").id()).isEqualTo(snapshot);
        assertThat(blobFileNames("missing_update")).isEqualTo(blobFiles);
        assertThat(dataDirectory("missing_update")).as("nothing left behind").isEqualTo(dataFiles);
        assertThat(readImages("missing_update", "")).isEqualTo(hex(images));
    }

    private List<Path> dataDirectory(String table) {
        try (var files =
                Files.list(warehouse.resolve("default.db").resolve(table).resolve("bucket-0"))) {
            return files.sorted().toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void blobDeclarationsAreChecked() {
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        "CREATE TABLE bad1 (id BIGINT, img STRING) WITH"
                                                + " ('blob-field' = 'img')"))
                .hasStackTraceContaining("a BLOB column is declared BYTES");
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        "CREATE TABLE bad2 (id BIGINT, img BYTES) WITH"
                                                + " ('blob-field' = 'image')"))
                .hasStackTraceContaining("which the table does not declare");
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        "CREATE TABLE bad3 (id BIGINT, img BYTES) PARTITIONED BY"
                                                + " (img) WITH ('blob-field' = 'img')"))
                .hasStackTraceContaining("cannot be a partition key");
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        "CREATE TABLE bad4 (img BYTES) WITH ('blob-field' ="
                                                + " 'img')"))
                .hasStackTraceContaining("at least one non-BLOB column");
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        "CREATE TABLE bad5 (id BIGINT, img BYTES) WITH"
                                                + " ('blob-field' = 'img', 'data-evolution.enabled'"
                                                + " = 'false')"))
                .hasStackTraceContaining("data-evolution.enabled");
        createImages("declared", "");
        insertImages("declared", 0, 3);
        assertThat(SqlTesting.rows(sql, "DESCRIBE declared").toString()).contains("img, BYTES");
    }

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "orc"})
    void blobColumnsStoredInlineAsDescriptorsReadTheBytesTheyReference(String format)
            throws Exception {
        String table = "inline_" + format;
        SqlTesting.execute(
                sql,
                "CREATE TABLE "
                        + table
                        + " (id BIGINT, caption STRING, img BYTES, thumb BYTES) WITH ('blob-field'"
                        + " = 'img,thumb', 'blob-descriptor-field' = 'img', 'file.format' = '"
                        + format
                        + "', 'deletion-vectors.enabled' = 'true')");
        byte[][] files = new byte[3][];
        Path[] paths = new Path[3];
        for (int i = 0; i < 3; i++) {
            files[i] = new byte[3000 + i];
            new Random(i).nextBytes(files[i]);
            paths[i] = Files.write(warehouse.resolve(table + "-" + i + ".bin"), files[i]);
        }
        byte[] part = new BlobDescriptor(paths[1].toUri().toString(), 100, 50).serialize();
        SqlTesting.execute(
                sql,
                "INSERT INTO "
                        + table
                        + " VALUES (1, 'a', sys.path_to_descriptor('"
                        + paths[0].toUri()
                        + "'), X'01'), (2, 'b', X'"
                        + HexFormat.of().formatHex(part)
                        + "', CAST(NULL AS BYTES)), (3, 'c', CAST(NULL AS BYTES), X'02')");
        // the descriptors are stored in the normal file; only thumb has .blob files
        for (ManifestEntry entry : tables.liveFiles(table)) {
            assertThat(entry.file().writeCols())
                    .isEqualTo(
                            DataFileKinds.isBlob(entry.file().fileName())
                                    ? List.of("thumb")
                                    : List.of("id", "caption", "img"));
        }
        Map<Long, String> expected = new HashMap<>();
        expected.put(1L, HexFormat.of().formatHex(files[0]));
        expected.put(2L, HexFormat.of().formatHex(Arrays.copyOfRange(files[1], 100, 150)));
        expected.put(3L, null);
        assertThat(readImages(table, "")).isEqualTo(expected);
        assertThat(readImages(table, " /*+ OPTIONS('blob-as-descriptor' = 'true') */").get(2L))
                .as("the stored descriptor")
                .isEqualTo(HexFormat.of().formatHex(part));

        long snapshot = tables.latest(table).id();
        assertThatThrownBy(
                        () ->
                                SqlTesting.execute(
                                        sql,
                                        "INSERT INTO "
                                                + table
                                                + " VALUES (4, 'd', X'0102', X'03')"))
                .hasStackTraceContaining("is stored inline as descriptors");
        assertThat(tables.latest(table).id()).as("the refused insert").isEqualTo(snapshot);

        List<String> blobFiles = blobFileNames(table);
        SqlTesting.execute(
                sql,
                "UPDATE "
                        + table
                        + " SET img = sys.path_to_descriptor('"
                        + paths[2].toUri()
                        + "') WHERE id = 3");
        SqlTesting.execute(sql, "UPDATE " + table + " SET caption = 'A' WHERE id = 1");
        expected.put(3L, HexFormat.of().formatHex(files[2]));
        assertThat(readImages(table, "")).isEqualTo(expected);
        assertThat(blobFileNames(table)).as("no .blob file rewritten").isEqualTo(blobFiles);
        new DataEvolutionCompaction(tables.store(table))
                .compact(
                        "test",
                        1,
                        p -> true,
                        new CompactionConfig(256 << 20, 4 << 20, 2, CompactionConfig.Rewrite.FULL));
        assertThat(readImages(table, "")).as("after compaction").isEqualTo(expected);
        assertThat(SqlTesting.rows(sql, "SELECT id, caption, thumb FROM " + table))
                .containsExactlyInAnyOrder("+I[1, A, [1]]", "+I[2, b, null]", "+I[3, c, [2]]");

        Files.delete(paths[0]);
        assertThat(SqlTesting.rows(sql, "SELECT id FROM " + table + " WHERE caption = 'A'"))
                .as("a read without img opens no referenced file")
                .containsExactly("+I[1]");
        assertThatThrownBy(() -> readImages(table, ""))
                .hasStackTraceContaining(paths[0].getFileName().toString());
    }

    /**
     * With {@code compaction.dedicated-files.enabled} (off by default), compaction folds each
     * group's {@code .blob} files (rolled, then a newer version over the range) and vector-store
     * files into one file each over the group's rows: row ids, values and BLOB bytes unchanged,
     * deleted rows still deleted.
     */
    @Test
    void compactionFoldsBlobAndVectorFilesOnlyWhenAsked() {
        SqlTesting.execute(
                sql,
                "CREATE TABLE folded (id BIGINT, caption STRING, img BYTES, emb ARRAY<FLOAT>)"
                        + " WITH ('blob-field' = 'img', 'blob.target-file-size' = '2 kb',"
                        + " 'vector-field' = 'emb', 'field.emb.vector-dim' = '2',"
                        + " 'vector.file.format' = 'json', 'deletion-vectors.enabled' = 'true',"
                        + " 'compaction.min.file-num' = '2')");
        for (int insert = 0; insert < 2; insert++) {
            Random random = new Random(insert);
            List<String> values = new ArrayList<>();
            for (long id = insert * 20L; id < insert * 20L + 20; id++) {
                byte[] image = new byte[200 + random.nextInt(400)];
                random.nextBytes(image);
                values.add(
                        "("
                                + id
                                + ", 'c"
                                + id
                                + "', "
                                + (id % 9 == 4 ? "CAST(NULL AS BYTES)" : "X'" + hex(image) + "'")
                                + ", ARRAY[CAST("
                                + id
                                + " AS FLOAT), CAST(0.5 AS FLOAT)])");
            }
            SqlTesting.execute(
                    sql,
                    "INSERT INTO folded /*+ OPTIONS('sink.parallelism' = '1') */ VALUES "
                            + String.join(", ", values));
        }
        SqlTesting.execute(sql, "UPDATE folded SET img = X'CAFE' WHERE id IN (3, 25)");
        SqlTesting.execute(
                sql,
                "UPDATE folded SET emb = ARRAY[CAST(9 AS FLOAT), CAST(9 AS FLOAT)] WHERE id = 7");
        SqlTesting.execute(sql, "DELETE FROM folded WHERE id IN (5, 30)");
        String query = "SELECT _ROW_ID, id, caption, img, emb FROM folded";
        List<String> expected = SqlTesting.rows(sql, query);
        assertThat(expected)
                .hasSize(38)
                .anyMatch(r -> r.endsWith(", 3, c3, [-54, -2], [3.0, 0.5]]"));
        List<String> blobs = blobFileNames("folded");
        List<ManifestEntry> dedicatedBefore = dedicatedFiles("folded");
        assertThat(dedicatedBefore.stream().filter(e -> e.file().firstRowId() < 20).count())
                .as("rolled .blob files, a newer version, two vector-store files")
                .isGreaterThan(4);

        DataEvolutionCompaction.Result plain =
                new DataEvolutionCompaction(tables.store("folded")).compact("test", 1);
        assertThat(blobFileNames("folded")).as("off by default").isEqualTo(blobs);
        assertThat(dedicatedFiles("folded")).isEqualTo(dedicatedBefore);

        SqlTesting.execute(
                sql, "ALTER TABLE folded SET ('compaction.dedicated-files.enabled' = 'true')");
        DataEvolutionCompaction.Result result =
                new DataEvolutionCompaction(tables.store("folded")).compact("test", 2);
        assertThat(result.snapshotId()).isPresent();
        List<ManifestEntry> normal =
                tables.liveFiles("folded").stream()
                        .filter(e -> DataFileKinds.isNormal(e.file().fileName()))
                        .toList();
        List<ManifestEntry> dedicatedAfter = dedicatedFiles("folded");
        assertThat(dedicatedAfter)
                .as("one .blob and one vector-store file per group")
                .hasSize(4)
                .allSatisfy(
                        e -> {
                            assertThat(e.file().rowCount()).isEqualTo(20);
                            assertThat(e.file().firstRowId()).isIn(0L, 20L);
                        });
        assertThat(dedicatedAfter)
                .as("the vector-store file of rows 20..39, never updated, stays")
                .filteredOn(e -> e.file().fileSource() != FileSource.COMPACT)
                .singleElement()
                .satisfies(
                        e -> {
                            assertThat(dedicatedBefore).contains(e);
                            assertThat(e.file().firstRowId()).isEqualTo(20);
                            assertThat(DataFileKinds.isVectorStore(e.file().fileName())).isTrue();
                        });
        assertThat(
                        dedicatedAfter.stream()
                                .filter(e -> DataFileKinds.isBlob(e.file().fileName()))
                                .map(e -> e.file().writeCols()))
                .containsOnly(List.of("img"));
        assertThat(normal.stream().map(e -> e.file().firstRowId()).distinct())
                .containsExactlyInAnyOrder(0L, 20L);
        assertThat(SqlTesting.rows(sql, query))
                .as("row ids, values and BLOB bytes")
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(SqlTesting.rows(sql, "SELECT COUNT(*) FROM folded")).containsExactly("+I[38]");
        assertThat(plain.snapshotId()).as("the plain run folded no caption").isEmpty();
    }

    private List<ManifestEntry> dedicatedFiles(String table) {
        return tables.liveFiles(table).stream()
                .filter(e -> !DataFileKinds.isNormal(e.file().fileName()))
                .sorted(Comparator.comparing(e -> e.file().fileName()))
                .toList();
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    @Test
    void blobsWrittenUnderAnExternalPathAreRefusedByName() {
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        "CREATE TABLE stored_outside (id BIGINT, img BYTES) WITH"
                                                + " ('blob-field' = 'img', 'blob-descriptor-field'"
                                                + " = 'img', 'blob-external-storage-field' ="
                                                + " 'img', 'blob-external-storage-path' ="
                                                + " '/tmp/x')"))
                .hasStackTraceContaining("blob-external-storage-field");
    }

    private void createImages(String table, String moreOptions) {
        SqlTesting.execute(
                sql,
                "CREATE TABLE "
                        + table
                        + " (id BIGINT, caption STRING, img BYTES) WITH ('blob-field' = 'img',"
                        + " 'blob.target-file-size' = '2 kb'"
                        + moreOptions
                        + ")");
    }

    /**
     * Inserts rows {@code first ..} (row ids in id order, continuing the table's) with images of
     * 100-700 random bytes, every 7th NULL.
     */
    private Map<Long, byte[]> insertImages(String table, long first, int count) {
        Random random = new Random(first);
        Map<Long, byte[]> images = new HashMap<>();
        List<String> values = new ArrayList<>();
        for (long id = first; id < first + count; id++) {
            byte[] image = null;
            if (id % 7 != 3) {
                image = new byte[100 + random.nextInt(600)];
                random.nextBytes(image);
            }
            images.put(id, image);
            values.add(
                    "("
                            + id
                            + ", 'caption-"
                            + id
                            + "', "
                            + (image == null
                                    ? "CAST(NULL AS BYTES)"
                                    : "X'" + HexFormat.of().formatHex(image) + "'")
                            + ")");
        }
        // one writer: one normal file per insert, row ids in id order
        SqlTesting.execute(
                sql,
                "INSERT INTO "
                        + table
                        + " /*+ OPTIONS('sink.parallelism' = '1') */ VALUES "
                        + String.join(", ", values));
        return images;
    }

    /** {@code id -> hex(img)} (null for NULL) as SQL reads them. */
    private Map<Long, String> readImages(String table, String hint) {
        Map<Long, String> out = new HashMap<>();
        try (CloseableIterator<Row> rows =
                sql.executeSql("SELECT id, img FROM " + table + hint).collect()) {
            rows.forEachRemaining(
                    row -> {
                        byte[] img = (byte[]) row.getField(1);
                        out.put(
                                (Long) row.getField(0),
                                img == null ? null : HexFormat.of().formatHex(img));
                    });
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        return out;
    }

    private static Map<Long, String> hex(Map<Long, byte[]> images) {
        Map<Long, String> out = new HashMap<>();
        images.forEach((id, v) -> out.put(id, v == null ? null : HexFormat.of().formatHex(v)));
        return out;
    }

    private List<String> blobFileNames(String table) {
        return tables.liveFiles(table).stream()
                .map(e -> e.file().fileName())
                .filter(DataFileKinds::isBlob)
                .sorted()
                .toList();
    }

    private List<String> normalFileNames(String table) {
        return tables.liveFiles(table).stream()
                .map(e -> e.file().fileName())
                .filter(DataFileKinds::isNormal)
                .sorted()
                .toList();
    }

    private static String bytes(byte[] value) {
        return value == null ? "CAST(NULL AS BYTES)" : "X'" + HexFormat.of().formatHex(value) + "'";
    }

    private Path blobPath(String table, ManifestEntry entry) {
        return warehouse
                .resolve("default.db")
                .resolve(table)
                .resolve("bucket-0")
                .resolve(entry.file().fileName());
    }
}
