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
package io.dovetail.table.manifest;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.stats.ColumnStats;
import io.dovetail.table.stats.SimpleStatsConverter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Manifest files and lists as Paimon writes them: schema text, header, metas, rolling. */
class ManifestFilesTest {

    /** Appendix B of the format spec, verbatim. */
    static final String APPENDIX_B_MANIFEST_SCHEMA =
            "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":[\n"
                    + " {\"name\":\"_VERSION\",\"type\":\"int\"},\n"
                    + " {\"name\":\"_KIND\",\"type\":\"int\"},\n"
                    + " {\"name\":\"_PARTITION\",\"type\":\"bytes\"},\n"
                    + " {\"name\":\"_BUCKET\",\"type\":\"int\"},\n"
                    + " {\"name\":\"_TOTAL_BUCKETS\",\"type\":\"int\"},\n"
                    + " {\"name\":\"_FILE\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE\",\"fields\":[\n"
                    + "   {\"name\":\"_FILE_NAME\",\"type\":\"string\"},\n"
                    + "   {\"name\":\"_FILE_SIZE\",\"type\":\"long\"},\n"
                    + "   {\"name\":\"_ROW_COUNT\",\"type\":\"long\"},\n"
                    + "   {\"name\":\"_MIN_KEY\",\"type\":\"bytes\"},\n"
                    + "   {\"name\":\"_MAX_KEY\",\"type\":\"bytes\"},\n"
                    + "   {\"name\":\"_KEY_STATS\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE__KEY_STATS\",\"fields\":[\n"
                    + "     {\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},\n"
                    + "     {\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},\n"
                    + "     {\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},\n"
                    + "   {\"name\":\"_VALUE_STATS\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE__VALUE_STATS\",\"fields\":[\n"
                    + "     {\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},\n"
                    + "     {\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},\n"
                    + "     {\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},\n"
                    + "   {\"name\":\"_MIN_SEQUENCE_NUMBER\",\"type\":\"long\"},\n"
                    + "   {\"name\":\"_MAX_SEQUENCE_NUMBER\",\"type\":\"long\"},\n"
                    + "   {\"name\":\"_SCHEMA_ID\",\"type\":\"long\"},\n"
                    + "   {\"name\":\"_LEVEL\",\"type\":\"int\"},\n"
                    + "   {\"name\":\"_EXTRA_FILES\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},\n"
                    + "   {\"name\":\"_CREATION_TIME\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}],\"default\":null},\n"
                    + "   {\"name\":\"_DELETE_ROW_COUNT\",\"type\":[\"null\",\"long\"],\"default\":null},\n"
                    + "   {\"name\":\"_EMBEDDED_FILE_INDEX\",\"type\":[\"null\",\"bytes\"],\"default\":null},\n"
                    + "   {\"name\":\"_FILE_SOURCE\",\"type\":[\"null\",\"int\"],\"default\":null},\n"
                    + "   {\"name\":\"_VALUE_STATS_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],\"default\":null},\n"
                    + "   {\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],\"default\":null},\n"
                    + "   {\"name\":\"_FIRST_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null},\n"
                    + "   {\"name\":\"_WRITE_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],\"default\":null}]}}]}";

    /** The manifest-list schema of Appendix B, written out in the same pattern. */
    static final String MANIFEST_LIST_SCHEMA =
            "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":["
                    + "{\"name\":\"_VERSION\",\"type\":\"int\"},"
                    + "{\"name\":\"_FILE_NAME\",\"type\":\"string\"},"
                    + "{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},"
                    + "{\"name\":\"_NUM_ADDED_FILES\",\"type\":\"long\"},"
                    + "{\"name\":\"_NUM_DELETED_FILES\",\"type\":\"long\"},"
                    + "{\"name\":\"_PARTITION_STATS\",\"type\":{\"type\":\"record\",\"name\":\"record__PARTITION_STATS\",\"fields\":["
                    + "{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},"
                    + "{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},"
                    + "{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},"
                    + "{\"name\":\"_SCHEMA_ID\",\"type\":\"long\"},"
                    + "{\"name\":\"_MIN_BUCKET\",\"type\":[\"null\",\"int\"],\"default\":null},"
                    + "{\"name\":\"_MAX_BUCKET\",\"type\":[\"null\",\"int\"],\"default\":null},"
                    + "{\"name\":\"_MIN_LEVEL\",\"type\":[\"null\",\"int\"],\"default\":null},"
                    + "{\"name\":\"_MAX_LEVEL\",\"type\":[\"null\",\"int\"],\"default\":null},"
                    + "{\"name\":\"_MIN_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null},"
                    + "{\"name\":\"_MAX_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null}]}";

    private static final BinaryRowCodec PARTITIONS =
            BinaryRowCodec.of(RandomManifests.PARTITION_TYPES);

    @TempDir java.nio.file.Path tempDir;

    @Test
    void manifestHeaderCarriesAppendixBSchemaAndOnlyTwoKeys() throws IOException {
        ManifestFileMeta meta = writeManifest(List.of(entry(FileKind.ADD, "a", 1, "f1", 0L)));

        try (DataFileReader<GenericRecord> reader = open(meta.fileName())) {
            String expectedCompact =
                    new Schema.Parser().parse(APPENDIX_B_MANIFEST_SCHEMA).toString();
            assertThat(reader.getMetaString("avro.schema")).isEqualTo(expectedCompact);
            assertThat(reader.getMetaKeys()).containsExactlyInAnyOrder("avro.schema", "avro.codec");
            assertThat(reader.getMetaString("avro.codec")).isEqualTo("zstandard");
        }
        assertThat(ManifestEntryAvro.SCHEMA.toString())
                .isEqualTo(new Schema.Parser().parse(APPENDIX_B_MANIFEST_SCHEMA).toString());
    }

    @Test
    void manifestListHeaderMatchesTheSpecAndEmptyListIsValid() throws IOException {
        Path dir = new Path(tempDir.toUri());
        WrittenFile list = new ManifestListWriter(dir, AvroCodec.DEFLATE).write(List.of());

        try (DataFileReader<GenericRecord> reader = open(list.fileName())) {
            assertThat(reader.getMetaString("avro.schema"))
                    .isEqualTo(new Schema.Parser().parse(MANIFEST_LIST_SCHEMA).toString());
            assertThat(reader.getMetaString("avro.codec")).isEqualTo("deflate");
            assertThat(reader.hasNext()).isFalse();
        }
        assertThat(list.fileSize()).isEqualTo(tempDir.resolve(list.fileName()).toFile().length());
        assertThat(ManifestListReader.read(new Path(dir, list.fileName()), list.fileSize()))
                .isEmpty();
    }

    @Test
    void manifestMetaFollowsSection42() {
        List<ManifestEntry> entries =
                List.of(
                        entry(FileKind.ADD, "b", 2, "f1", 10L),
                        entry(FileKind.DELETE, null, 1, "f2", 0L),
                        entry(FileKind.ADD, "a", 1, "f3", 3L));

        ManifestFileMeta meta = writeManifest(entries);

        assertThat(meta.numAddedFiles()).isEqualTo(2);
        assertThat(meta.numDeletedFiles()).isEqualTo(1);
        assertThat(meta.fileSize()).isEqualTo(tempDir.resolve(meta.fileName()).toFile().length());
        assertThat(meta.schemaId()).isEqualTo(7);
        assertThat(meta.minBucket()).isZero();
        assertThat(meta.maxBucket()).isZero();
        assertThat(meta.minLevel()).isZero();
        assertThat(meta.maxLevel()).isZero();
        assertThat(meta.minRowId()).isZero();
        assertThat(meta.maxRowId()).isEqualTo(10 + 5 - 1);
        List<ColumnStats> partitionStats =
                new SimpleStatsConverter(RandomManifests.PARTITION_TYPES)
                        .fromStats(meta.partitionStats(), "meta");
        assertThat(partitionStats)
                .containsExactly(
                        new ColumnStats(StringData.fromString("a"), StringData.fromString("b"), 1L),
                        new ColumnStats(1, 2, 0L));
        assertThat(ManifestFileReader.read(new Path(tempDir.toUri()), meta)).isEqualTo(entries);
    }

    @Test
    void rowIdBoundsAreNullWhenAnyEntryLacksAFirstRowId() {
        ManifestFileMeta meta =
                writeManifest(
                        List.of(
                                entry(FileKind.ADD, "a", 1, "f1", 0L),
                                entry(FileKind.ADD, "a", 1, "f2", null)));

        assertThat(meta.minRowId()).isNull();
        assertThat(meta.maxRowId()).isNull();
    }

    @Test
    void unpartitionedTablesGetArityZeroPartitionStats() {
        ManifestFileWriter writer = new ManifestFileWriter(new Path(tempDir.toUri()), List.of());
        ManifestEntry entry =
                new ManifestEntry(
                        FileKind.ADD,
                        BinaryRowCodec.emptyRow(),
                        0,
                        -1,
                        DataFileMeta.builder("data-1.parquet").rowCount(1).firstRowId(0L).build());

        ManifestFileMeta meta = writer.write(List.of(entry)).get(0);

        assertThat(meta.partitionStats()).isEqualTo(io.dovetail.table.stats.SimpleStats.EMPTY);
    }

    @Test
    void rollsAtTheTargetSizeAndNoEntriesGiveNoFiles() {
        List<ManifestEntry> entries = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            entries.add(entry(FileKind.ADD, "p" + (i % 7), i % 3, "data-" + i, (long) i * 5));
        }
        ManifestFileWriter writer = writerOf8KiBFiles();

        List<ManifestFileMeta> metas = writer.write(entries);

        assertThat(metas).hasSizeGreaterThan(2);
        assertThat(metas.stream().mapToLong(ManifestFileMeta::numAddedFiles).sum()).isEqualTo(3000);
        for (ManifestFileMeta meta : metas) {
            File file = tempDir.resolve(meta.fileName()).toFile();
            assertThat(meta.fileSize()).isEqualTo(file.length());
            assertThat(meta.fileSize()).isLessThan(3 * 8 * 1024);
        }
        assertThat(metas.stream().map(ManifestFileMeta::fileName).distinct()).hasSize(metas.size());
        assertThat(writer.write(List.of())).isEmpty();
        assertThat(tempDir.toFile().list()).hasSize(metas.size());
    }

    @Test
    void aRollingWriterClosedUnfinishedDeletesEveryFileItWrote() {
        ManifestFileWriter writer = writerOf8KiBFiles();

        try (ManifestFileWriter.Rolling files = writer.rolling()) {
            for (int i = 0; i < 3000; i++) {
                files.add(entry(FileKind.ADD, "p" + (i % 7), i % 3, "data-" + i, (long) i * 5));
            }
            assertThat(tempDir.toFile().list())
                    .as("rolled files and the open one")
                    .hasSizeGreaterThan(2);
        }

        assertThat(tempDir.toFile().list()).isEmpty();
    }

    @Test
    void partitionBytesMustMatchThePartitionTypes() {
        ManifestFileWriter writer =
                new ManifestFileWriter(
                        new Path(tempDir.toUri()),
                        List.of(new org.apache.flink.table.types.logical.IntType()));

        assertThatThrownBy(() -> writer.write(List.of(entry(FileKind.ADD, "a", 1, "f1", 0L))))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("partition of data file f1 does not match");
        assertThat(tempDir.toFile().list()).isEmpty();
    }

    @Test
    void snappyNeedsItsLibrary() {
        boolean present;
        try {
            Class.forName("org.xerial.snappy.Snappy");
            present = true;
        } catch (ClassNotFoundException e) {
            present = false;
        }
        ManifestListWriter writer =
                new ManifestListWriter(new Path(tempDir.toUri()), AvroCodec.SNAPPY);
        if (present) {
            WrittenFile file = writer.write(List.of());
            assertThat(
                            ManifestListReader.read(
                                    new Path(new Path(tempDir.toUri()), file.fileName()), null))
                    .isEmpty();
        } else {
            assertThatThrownBy(() -> writer.write(List.of()))
                    .isInstanceOf(DovetailException.class)
                    .hasMessageContaining("snappy-java");
            assertThat(tempDir.toFile().list()).isEmpty();
        }
    }

    @Test
    void codecNamesIncludePaimonSpellings() {
        assertThat(AvroCodec.fromName("zstd")).isEqualTo(AvroCodec.ZSTANDARD);
        assertThat(AvroCodec.fromName("Deflate")).isEqualTo(AvroCodec.DEFLATE);
        assertThat(AvroCodec.fromName("none")).isEqualTo(AvroCodec.NULL);
        assertThatThrownBy(() -> AvroCodec.fromName("lz9"))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("lz9");
    }

    private ManifestFileWriter writerOf8KiBFiles() {
        return new ManifestFileWriter(
                new Path(tempDir.toUri()),
                RandomManifests.PARTITION_TYPES,
                AvroCodec.ZSTANDARD,
                8 * 1024);
    }

    private ManifestFileMeta writeManifest(List<ManifestEntry> entries) {
        List<ManifestFileMeta> metas =
                new ManifestFileWriter(new Path(tempDir.toUri()), RandomManifests.PARTITION_TYPES)
                        .write(entries);
        assertThat(metas).hasSize(1);
        return metas.get(0);
    }

    private DataFileReader<GenericRecord> open(String fileName) throws IOException {
        return new DataFileReader<>(tempDir.resolve(fileName).toFile(), new GenericDatumReader<>());
    }

    static ManifestEntry entry(
            FileKind kind, String part, int dpart, String fileName, Long firstRowId) {
        byte[] partition =
                PARTITIONS.serialize(
                        GenericRowData.of(
                                part == null ? null : StringData.fromString(part), dpart));
        DataFileMeta file =
                DataFileMeta.builder(fileName)
                        .fileSize(1234)
                        .rowCount(5)
                        .sequenceNumbers(3, 3)
                        .schemaId(fileName.equals("f1") ? 7 : 2)
                        .creationTime(1_700_000_000_000L)
                        .firstRowId(firstRowId)
                        .build();
        return new ManifestEntry(kind, partition, 0, -1, file);
    }
}
