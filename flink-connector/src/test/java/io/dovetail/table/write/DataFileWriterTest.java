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
package io.dovetail.table.write;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.format.OrcFiles;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.stats.ColumnStats;
import io.dovetail.table.stats.SimpleStats;
import io.dovetail.table.stats.SimpleStatsConverter;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;

import org.apache.orc.CompressionKind;
import org.apache.orc.Reader;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataFileWriterTest {

    @TempDir java.nio.file.Path dir;

    private static final List<DataField> FIELDS =
            List.of(
                    new DataField(0, "id", DataTypes.BIGINT().withNullable(false)),
                    new DataField(1, "name", DataTypes.STRING()),
                    new DataField(2, "raw", DataTypes.BYTES()),
                    new DataField(3, "ts9", DataTypes.TIMESTAMP(9)),
                    new DataField(4, "ts6", DataTypes.TIMESTAMP(6)),
                    new DataField(5, "amount", DataTypes.DECIMAL(38, 2)),
                    new DataField(6, "score", DataTypes.FLOAT()),
                    new DataField(
                            7, "nested", DataTypes.ROW(new DataField(10, "x", DataTypes.INT()))),
                    new DataField(8, "p", DataTypes.STRING()),
                    new DataField(9, "q", DataTypes.INT()));

    private static final GenericRowData PARTITION =
            GenericRowData.of(StringData.fromString("a/b"), 7);

    @Test
    void appendFileCarriesCompleteMetadata() throws IOException {
        long before = DataFileMeta.localNowAsUtcMillis();
        List<ManifestEntry> entries = write(schema(Map.of()), null, rows(0, 5));
        long after = DataFileMeta.localNowAsUtcMillis();

        assertThat(entries).hasSize(1);
        ManifestEntry entry = entries.get(0);
        assertThat(entry.kind()).isEqualTo(FileKind.ADD);
        assertThat(entry.bucket()).isZero();
        assertThat(entry.totalBuckets()).isEqualTo(-1);
        assertThat(entry.partition())
                .isEqualTo(
                        BinaryRowCodec.of(
                                        FlinkTypes.toFlink(DataTypes.STRING()),
                                        FlinkTypes.toFlink(DataTypes.INT()))
                                .serialize(PARTITION));
        DataFileMeta meta = entry.file();
        java.nio.file.Path file = bucketDir().resolve(meta.fileName());
        assertThat(meta.fileName()).matches("data-[0-9a-f-]{36}-0\\.parquet");
        assertThat(meta.fileSize()).isEqualTo(Files.size(file));
        assertThat(meta.rowCount()).isEqualTo(5);
        assertThat(meta.schemaId()).isEqualTo(3);
        assertThat(meta.fileSource()).isEqualTo(FileSource.APPEND);
        assertThat(meta.minSequenceNumber()).isZero();
        assertThat(meta.maxSequenceNumber()).isZero();
        assertThat(meta.firstRowId()).isNull();
        assertThat(meta.writeCols()).isNull();
        assertThat(meta.level()).isZero();
        assertThat(meta.deleteRowCount()).isZero();
        assertThat(meta.extraFiles()).isEmpty();
        assertThat(meta.keyStats()).isEqualTo(SimpleStats.EMPTY);
        assertThat(meta.minKey()).isEqualTo(BinaryRowCodec.emptyRow());
        assertThat(meta.creationTime()).isBetween(before, after);
        assertThat(ParquetFiles.rows(new Path(file.toUri())))
                .extracting(g -> g.getLong("id", 0))
                .containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void valueStatsFollowPaimonsRulesPerType() {
        List<RowData> rows = new ArrayList<>(rows(0, 3));
        rows.add(row(3, null, 0.0f)); // nulls everywhere but id, score 0.0
        DataFileMeta meta = write(schema(Map.of()), null, rows).get(0).file();

        // ROW has no top-level Parquet column: dropped from the dense stats
        List<String> kept = List.of("id", "name", "raw", "ts9", "ts6", "amount", "score", "p", "q");
        assertThat(meta.valueStatsCols()).isEqualTo(kept);
        List<ColumnStats> stats = decode(meta, kept);
        assertThat(stats.get(0)).isEqualTo(new ColumnStats(0L, 3L, 0L));
        // truncate(16): "name-0-xxxxxxxxxxxxxxxxxxxx" cut to 16 code points, max rounded up
        assertThat(stats.get(1))
                .isEqualTo(
                        new ColumnStats(
                                StringData.fromString("name-0-xxxxxxxxx"),
                                StringData.fromString("name-2-xxxxxxxxy"),
                                1L));
        assertThat(stats.get(2))
                .as("BYTES: counts only")
                .isEqualTo(new ColumnStats(null, null, 1L));
        assertThat(stats.get(3))
                .as("TIMESTAMP(9) is INT96")
                .isEqualTo(new ColumnStats(null, null, 1L));
        assertThat(stats.get(4))
                .isEqualTo(
                        new ColumnStats(
                                TimestampData.fromEpochMillis(0, 0),
                                TimestampData.fromEpochMillis(2_000, 2_000),
                                1L));
        assertThat(stats.get(5)).isEqualTo(new ColumnStats(decimal("-1.50"), decimal("0.50"), 1L));
        // Parquet readers widen a 0.0 minimum to -0.0, and Paimon copies what it reads
        assertThat(Float.floatToIntBits((Float) stats.get(6).min()))
                .isEqualTo(Float.floatToIntBits(-0.0f));
        assertThat(stats.get(6).max()).isEqualTo(2.0f);
        assertThat(stats.get(7))
                .isEqualTo(
                        new ColumnStats(
                                StringData.fromString("a/b"), StringData.fromString("a/b"), 0L));
    }

    @Test
    void orcValueStatsFollowPaimonsRulesPerType() throws IOException {
        List<RowData> rows = new ArrayList<>(rows(0, 3));
        rows.add(row(3, null, 0.0f)); // nulls everywhere but id, score 0.0
        DataFileMeta meta = write(schema(Map.of("file.format", "orc")), null, rows).get(0).file();

        assertThat(meta.fileName()).matches("data-[0-9a-f-]{36}-0\\.orc");
        java.nio.file.Path file = bucketDir().resolve(meta.fileName());
        assertThat(meta.fileSize()).isEqualTo(Files.size(file));
        try (Reader reader = OrcFiles.open(new Path(file.toUri()), meta.fileSize())) {
            assertThat(reader.getCompressionKind()).isEqualTo(CompressionKind.ZSTD);
            assertThat(reader.getSchema().toString())
                    .isEqualTo(
                            "struct<id:bigint,name:string,raw:binary,ts9:timestamp,"
                                    + "ts6:timestamp,amount:decimal(38,2),score:float,"
                                    + "nested:struct<x:int>,p:string,q:int>");
            assertThat(reader.getSchema().findSubtype("nested.x").getAttributeValue("paimon.id"))
                    .isEqualTo("10");
        }
        // ORC keeps a null count for every column, ROW included, so none is dropped
        assertThat(meta.valueStatsCols()).isNull();
        List<String> all = FIELDS.stream().map(DataField::name).toList();
        List<ColumnStats> stats = decode(meta, all);
        assertThat(stats.get(0)).isEqualTo(new ColumnStats(0L, 3L, 0L));
        assertThat(stats.get(1))
                .isEqualTo(
                        new ColumnStats(
                                StringData.fromString("name-0-xxxxxxxxx"),
                                StringData.fromString("name-2-xxxxxxxxy"),
                                1L));
        assertThat(stats.get(2))
                .as("BYTES: counts only")
                .isEqualTo(new ColumnStats(null, null, 1L));
        assertThat(stats.get(3))
                .as("ORC timestamps keep their bounds at every precision")
                .isEqualTo(
                        new ColumnStats(
                                TimestampData.fromEpochMillis(0, 7),
                                TimestampData.fromEpochMillis(2_000, 7),
                                1L));
        assertThat(stats.get(5)).isEqualTo(new ColumnStats(decimal("-1.50"), decimal("0.50"), 1L));
        assertThat(stats.get(6)).isEqualTo(new ColumnStats(0.0f, 2.0f, 0L));
        assertThat(stats.get(7)).as("ROW: counts only").isEqualTo(new ColumnStats(null, null, 1L));
        assertThat(stats.get(8))
                .isEqualTo(
                        new ColumnStats(
                                StringData.fromString("a/b"), StringData.fromString("a/b"), 0L));
    }

    @Test
    void perColumnModesAndNaNs() {
        List<RowData> rows = new ArrayList<>(rows(0, 3));
        rows.add(row(3, "zzz", Float.NaN));
        TableSchema schema =
                schema(
                        Map.of(
                                "metadata.stats-mode", "none",
                                "fields.name.stats-mode", "full",
                                "fields.score.stats-mode", "full",
                                "fields.id.stats-mode", "counts"));
        DataFileMeta meta = write(schema, null, rows).get(0).file();

        assertThat(meta.valueStatsCols()).containsExactly("id", "name", "score");
        List<ColumnStats> stats = decode(meta, meta.valueStatsCols());
        assertThat(stats.get(0)).isEqualTo(new ColumnStats(null, null, 0L));
        assertThat(stats.get(1))
                .isEqualTo(
                        new ColumnStats(
                                StringData.fromString("name-0-xxxxxxxxxxxxxxxxxxxx"),
                                StringData.fromString("zzz"),
                                0L));
        assertThat(stats.get(2))
                .as("NaN leaves no true bounds")
                .isEqualTo(new ColumnStats(null, null, 0L));
    }

    @Test
    void statsMergeOverRowGroups() {
        TableSchema schema =
                schema(Map.of("parquet.block.size", "1", "fields.id.stats-mode", "full"));
        List<RowData> rows = rows(0, 1000);
        DataFileMeta meta = write(schema, null, rows).get(0).file();
        java.nio.file.Path file = bucketDir().resolve(meta.fileName());
        try {
            assertThat(ParquetFiles.footer(new Path(file.toUri())).getBlocks().size())
                    .isGreaterThan(1);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertThat(decode(meta, meta.valueStatsCols()).get(0))
                .isEqualTo(new ColumnStats(0L, 999L, 0L));
    }

    @Test
    void rollsByRowCount() throws IOException {
        List<ManifestEntry> entries =
                write(schema(Map.of("target-file-row-num", "10")), null, rows(0, 25));
        assertThat(entries).extracting(e -> e.file().rowCount()).containsExactly(10L, 10L, 5L);
        assertThat(entries).extracting(e -> e.file().fileName()).doesNotHaveDuplicates();
        List<Long> ids = new ArrayList<>();
        for (ManifestEntry entry : entries) {
            java.nio.file.Path file = bucketDir().resolve(entry.file().fileName());
            assertThat(entry.file().fileSize()).isEqualTo(Files.size(file));
            ParquetFiles.rows(new Path(file.toUri())).forEach(g -> ids.add(g.getLong("id", 0)));
        }
        assertThat(ids).hasSize(25).isSorted();
    }

    @Test
    void rollsBySizeEveryThousandRowsAtMost() {
        List<ManifestEntry> tiny =
                write(schema(Map.of("target-file-size", "1 b")), null, rows(0, 2500));
        assertThat(tiny).extracting(e -> e.file().rowCount()).containsExactly(1000L, 1000L, 500L);

        List<ManifestEntry> large =
                write(schema(Map.of("target-file-size", "64 mb")), null, rows(0, 2500));
        assertThat(large).extracting(e -> e.file().rowCount()).containsExactly(2500L);
    }

    @Test
    void partialColumnFileIsNeverRolledAndListsItsColumns() throws IOException {
        TableSchema schema = schema(Map.of("target-file-row-num", "2", "target-file-size", "1 b"));
        List<ManifestEntry> entries;
        try (DataFileWriter writer =
                DataFileWriter.forPartialColumns(
                        paths(), schema, List.of("score", "name"), PARTITION)) {
            for (int i = 0; i < 2500; i++) {
                writer.write(GenericRowData.of((float) i, StringData.fromString("n" + i)));
            }
            entries = writer.finish();
        }
        assertThat(entries).hasSize(1);
        DataFileMeta meta = entries.get(0).file();
        assertThat(meta.rowCount()).isEqualTo(2500);
        assertThat(meta.writeCols()).containsExactly("score", "name");
        assertThat(meta.valueStatsCols()).isNull();
        assertThat(meta.firstRowId()).isNull();
        Path file = new Path(bucketDir().resolve(meta.fileName()).toUri());
        assertThat(ParquetFiles.footer(file).getFileMetaData().getSchema().toString())
                .isEqualTo(
                        "message paimon_schema {\n"
                                + "  optional float score = 6;\n"
                                + "  optional binary name (STRING) = 1;\n"
                                + "}\n");
        Group last = ParquetFiles.rows(file).get(2499);
        assertThat(last.getString("name", 0)).isEqualTo("n2499");
    }

    @Test
    void allColumnsInSchemaOrderMakeAFullFile() {
        TableSchema schema = schema(Map.of());
        List<ManifestEntry> entries = write(schema, schema.fieldNames(), rows(0, 1));
        assertThat(entries.get(0).file().writeCols()).isNull();
    }

    @Test
    void compressionComesFromTheTableOptions() throws IOException {
        DataFileMeta meta =
                write(schema(Map.of("file.compression", "none")), null, rows(0, 3)).get(0).file();
        Path file = new Path(bucketDir().resolve(meta.fileName()).toUri());
        assertThat(ParquetFiles.footer(file).getBlocks().get(0).getColumns())
                .allSatisfy(
                        c -> assertThat(c.getCodec()).isEqualTo(CompressionCodecName.UNCOMPRESSED));
        assertThatThrownBy(() -> write(schema(Map.of("file.compression", "lzo")), null, rows(0, 1)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("lzo");
    }

    @Test
    void failureDeletesEveryFileTheWriterCreated() throws IOException {
        TableSchema schema = schema(Map.of("target-file-row-num", "2"));
        DataFileWriter writer = DataFileWriter.forAppend(paths(), schema, PARTITION);
        for (RowData row : rows(0, 5)) {
            writer.write(row);
        }
        assertThat(dataFiles()).hasSize(3); // two finished, one open
        GenericRowData bad = (GenericRowData) row(5, "x", 1f);
        bad.setField(0, null);
        assertThatThrownBy(() -> writer.write(bad))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("'id' is NOT NULL");
        assertThat(dataFiles()).isEmpty();
        assertThatThrownBy(() -> writer.write(row(6, "y", 1f)))
                .hasMessageContaining("already aborted");
        writer.close();
    }

    @Test
    void closingAnUnfinishedWriterDeletesItsFiles() throws IOException {
        try (DataFileWriter writer =
                DataFileWriter.forAppend(
                        paths(), schema(Map.of("target-file-row-num", "2")), PARTITION)) {
            rows(0, 3).forEach(writer::write);
        }
        assertThat(dataFiles()).isEmpty();
        try (DataFileWriter writer =
                DataFileWriter.forAppend(paths(), schema(Map.of()), PARTITION)) {
            rows(0, 3).forEach(writer::write);
            writer.finish();
        }
        assertThat(dataFiles()).hasSize(1);
    }

    @Test
    void rejectsBadColumnsAndFormats() {
        TableSchema schema = schema(Map.of());
        assertThatThrownBy(() -> write(schema, List.of("nope"), List.of()))
                .hasMessageContaining("'nope'");
        assertThatThrownBy(() -> write(schema, List.of("name", "name"), List.of()))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> write(schema, List.of("name", "p"), List.of()))
                .hasMessageContaining("Partition column 'p'");
        assertThatThrownBy(() -> write(schema, List.of(), List.of()))
                .hasMessageContaining("at least one column");
        assertThatThrownBy(() -> write(schema(Map.of("file.format", "avro")), null, List.of()))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("'avro'");
        assertThatThrownBy(
                        () ->
                                write(
                                        schema(
                                                Map.of(
                                                        "file.format", "orc",
                                                        "file.compression", "gzip")),
                                        null,
                                        List.of()))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("ORC compression 'gzip'");
        assertThatThrownBy(() -> write(schema, null, List.of(GenericRowData.of(1L))))
                .hasMessageContaining("A row of 1 fields");
        assertThat(write(schema, null, List.of())).isEmpty();
    }

    private List<ManifestEntry> write(
            TableSchema schema, List<String> writeCols, List<RowData> rows) {
        try (DataFileWriter writer =
                DataFileWriter.open(
                        paths(),
                        schema,
                        writeCols,
                        PARTITION,
                        DataFileWriterOptions.fromTableOptions(schema.options()))) {
            rows.forEach(writer::write);
            return writer.finish();
        }
    }

    private static List<ColumnStats> decode(DataFileMeta meta, List<String> columns) {
        List<LogicalType> types = new ArrayList<>();
        for (String column : columns) {
            DataType type =
                    FIELDS.stream()
                            .filter(f -> f.name().equals(column))
                            .findFirst()
                            .orElseThrow()
                            .type();
            types.add(FlinkTypes.toFlink(type));
        }
        return new SimpleStatsConverter(types).fromStats(meta.valueStats(), meta.fileName());
    }

    private static TableSchema schema(Map<String, String> extraOptions) {
        Map<String, String> options = new HashMap<>(extraOptions);
        options.putIfAbsent("file.format", "parquet");
        return new TableSchema(3, FIELDS, 10, List.of("p", "q"), List.of(), options, null, 0);
    }

    private static List<RowData> rows(int from, int to) {
        List<RowData> rows = new ArrayList<>();
        for (int i = from; i < to; i++) {
            rows.add(row(i, "name-" + i + "-xxxxxxxxxxxxxxxxxxxx", i));
        }
        return rows;
    }

    private static RowData row(long id, String name, float score) {
        boolean nulls = name == null;
        return GenericRowData.of(
                id,
                nulls ? null : StringData.fromString(name),
                nulls ? null : new byte[] {(byte) id},
                nulls ? null : TimestampData.fromEpochMillis(id * 1000, 7),
                nulls ? null : TimestampData.fromEpochMillis(id * 1000, (int) (id % 1000) * 1000),
                nulls
                        ? null
                        : decimal(
                                BigDecimal.valueOf(id)
                                        .subtract(new BigDecimal("1.5"))
                                        .toPlainString()),
                score,
                nulls ? null : GenericRowData.of((int) id),
                StringData.fromString("a/b"),
                7);
    }

    private static DecimalData decimal(String value) {
        return DecimalData.fromBigDecimal(new BigDecimal(value), 38, 2);
    }

    private TablePaths paths() {
        return new TablePaths(new Path(dir.toUri()));
    }

    private java.nio.file.Path bucketDir() {
        return dir.resolve("p=a%2Fb").resolve("q=7").resolve("bucket-0");
    }

    private List<java.nio.file.Path> dataFiles() throws IOException {
        if (!Files.exists(bucketDir())) {
            return List.of();
        }
        try (Stream<java.nio.file.Path> files = Files.list(bucketDir())) {
            return files.toList();
        }
    }
}
