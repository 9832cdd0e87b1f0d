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

import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes every type through {@link DataFileWriter} and reads the file back with parquet-mr's own
 * reader: footer schema (types, repetition, field ids), settings and every value.
 */
public class DataFileRoundTripTest {

    @TempDir java.nio.file.Path dir;

    /** A column of every type (the read tests reuse it). */
    public static final List<DataField> FIELDS =
            List.of(
                    field(0, "id", DataTypes.BIGINT().withNullable(false)),
                    field(1, "b", DataTypes.BOOLEAN()),
                    field(2, "t", DataTypes.TINYINT()),
                    field(3, "s", DataTypes.SMALLINT()),
                    field(4, "i", DataTypes.INT()),
                    field(5, "f", DataTypes.FLOAT()),
                    field(6, "d", DataTypes.DOUBLE()),
                    field(7, "c", DataTypes.CHAR(5)),
                    field(8, "v", DataTypes.STRING()),
                    field(9, "bin", DataTypes.BINARY(3)),
                    field(10, "bytes", DataTypes.BYTES()),
                    field(11, "d5", DataTypes.DECIMAL(5, 2)),
                    field(12, "d18", DataTypes.DECIMAL(18, 4)),
                    field(13, "d38", DataTypes.DECIMAL(38, 10)),
                    field(14, "day", DataTypes.DATE()),
                    field(15, "tm", DataTypes.TIME(3)),
                    field(16, "ts3", DataTypes.TIMESTAMP(3)),
                    field(17, "ts6", DataTypes.TIMESTAMP(6)),
                    field(18, "ts9", DataTypes.TIMESTAMP(9)),
                    field(19, "ltz3", DataTypes.TIMESTAMP_LTZ(3)),
                    field(20, "ltz9", DataTypes.TIMESTAMP_LTZ(9)),
                    field(
                            21,
                            "nested",
                            DataTypes.ROW(
                                    field(25, "x", DataTypes.INT()),
                                    field(26, "y", DataTypes.STRING()))),
                    field(22, "arr", DataTypes.ARRAY(DataTypes.INT())),
                    field(23, "m", DataTypes.MAP(DataTypes.STRING(), DataTypes.DOUBLE())),
                    field(24, "ms", DataTypes.MULTISET(DataTypes.STRING())));

    static final LocalDateTime MOMENT = LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_789);
    static final LocalDateTime BEFORE_EPOCH =
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999);

    @Test
    void everyTypeReadsBackWithParquetMr() throws Exception {
        TableSchema schema =
                TableSchema.initial(
                        FIELDS, List.of(), List.of(), Map.of("file.format", "parquet"), null, 0);
        TablePaths paths = new TablePaths(new Path(dir.toUri()));
        List<ManifestEntry> entries;
        try (DataFileWriter writer =
                DataFileWriter.forAppend(paths, schema, new GenericRowData(0))) {
            writer.write(fullRow());
            writer.write(nullRow());
            writer.write(edgeRow());
            entries = writer.finish();
        }
        assertThat(entries).hasSize(1);
        Path file = paths.dataFile("", 0, entries.get(0).file().fileName());

        ParquetMetadata footer = ParquetFiles.footer(file);
        assertThat(footer.getFileMetaData().getSchema())
                .isEqualTo(ParquetSchemas.messageType(FIELDS));
        assertThat(footer.getFileMetaData().getSchema().getType("nested").getId().intValue())
                .isEqualTo(21);
        assertThat(footer.getFileMetaData().getKeyValueMetaData()).isEmpty();
        assertThat(footer.getFileMetaData().getCreatedBy()).startsWith("parquet-mr version 1.15");
        for (BlockMetaData block : footer.getBlocks()) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                assertThat(chunk.getCodec()).isEqualTo(CompressionCodecName.ZSTD);
            }
        }
        assertThat(footer.getFileMetaData().getSchema().getColumns())
                .extracting(ColumnDescriptor::getPrimitiveType)
                .extracting(t -> t.getId() == null ? null : t.getId().intValue())
                .contains(536893440, 536847358, 536894464); // arr element, m key, m value

        List<Group> rows = ParquetFiles.rows(file);
        assertThat(rows).hasSize(3);
        assertFull(rows.get(0));
        assertNulls(rows.get(1));
        assertEdges(rows.get(2));
    }

    /** Values in every column of {@link #FIELDS}. */
    public static GenericRowData fullRow() {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(StringData.fromString("k1"), 1.5);
        map.put(StringData.fromString("k2"), null);
        Map<Object, Object> multiset = new LinkedHashMap<>();
        multiset.put(StringData.fromString("a"), 3);
        return GenericRowData.of(
                1L,
                true,
                (byte) -7,
                (short) 300,
                42,
                1.25f,
                -2.5d,
                StringData.fromString("ab"),
                StringData.fromString("héllo ✓"),
                new byte[] {1, 2, 3},
                new byte[] {(byte) 0xff, 0},
                DecimalData.fromBigDecimal(new BigDecimal("123.45"), 5, 2),
                DecimalData.fromBigDecimal(new BigDecimal("12345678901234.5678"), 18, 4),
                DecimalData.fromBigDecimal(
                        new BigDecimal("1234567890123456789012345678.0123456789"), 38, 10),
                19_782,
                45_296_789,
                TimestampData.fromLocalDateTime(MOMENT.withNano(123_000_000)),
                TimestampData.fromLocalDateTime(MOMENT.withNano(123_456_000)),
                TimestampData.fromLocalDateTime(MOMENT),
                TimestampData.fromEpochMillis(1_700_000_000_123L),
                TimestampData.fromEpochMillis(1_700_000_000_123L, 456_789),
                GenericRowData.of(5, StringData.fromString("inner")),
                new GenericArrayData(new Object[] {1, null, 3}),
                new GenericMapData(map),
                new GenericMapData(multiset));
    }

    /** NULL in every column but the id. */
    public static GenericRowData nullRow() {
        GenericRowData row = new GenericRowData(FIELDS.size());
        row.setField(0, 2L);
        return row;
    }

    /** Negative, pre-epoch and empty values. */
    public static GenericRowData edgeRow() {
        GenericRowData row = nullRow();
        row.setField(0, 3L);
        row.setField(11, DecimalData.fromBigDecimal(new BigDecimal("-999.99"), 5, 2));
        row.setField(
                13,
                DecimalData.fromBigDecimal(
                        new BigDecimal("-0.0000000001"), 38, 10)); // sign-extended to 16 bytes
        row.setField(14, -1);
        row.setField(16, TimestampData.fromLocalDateTime(BEFORE_EPOCH.withNano(999_000_000)));
        row.setField(17, TimestampData.fromLocalDateTime(BEFORE_EPOCH));
        row.setField(18, TimestampData.fromLocalDateTime(BEFORE_EPOCH));
        row.setField(21, GenericRowData.of(null, null));
        row.setField(22, new GenericArrayData(new Object[0]));
        row.setField(23, new GenericMapData(Map.of()));
        return row;
    }

    private static void assertFull(Group row) {
        assertThat(row.getLong("id", 0)).isEqualTo(1L);
        assertThat(row.getBoolean("b", 0)).isTrue();
        assertThat(row.getInteger("t", 0)).isEqualTo(-7);
        assertThat(row.getInteger("s", 0)).isEqualTo(300);
        assertThat(row.getInteger("i", 0)).isEqualTo(42);
        assertThat(row.getFloat("f", 0)).isEqualTo(1.25f);
        assertThat(row.getDouble("d", 0)).isEqualTo(-2.5d);
        assertThat(row.getString("c", 0)).isEqualTo("ab");
        assertThat(row.getString("v", 0)).isEqualTo("héllo ✓");
        assertThat(row.getBinary("bin", 0).getBytes()).containsExactly(1, 2, 3);
        assertThat(row.getBinary("bytes", 0).getBytes()).containsExactly(0xff, 0);
        assertThat(row.getInteger("d5", 0)).isEqualTo(12345);
        assertThat(row.getLong("d18", 0)).isEqualTo(123456789012345678L);
        byte[] d38 = row.getBinary("d38", 0).getBytes();
        assertThat(d38).hasSize(16);
        assertThat(new BigInteger(d38))
                .isEqualTo(new BigInteger("12345678901234567890123456780123456789"));
        assertThat(row.getInteger("day", 0)).isEqualTo(19_782);
        assertThat(row.getInteger("tm", 0)).isEqualTo(45_296_789);
        long millis = TimestampData.fromLocalDateTime(MOMENT).getMillisecond();
        assertThat(row.getLong("ts3", 0)).isEqualTo(millis);
        assertThat(row.getLong("ts6", 0)).isEqualTo(millis * 1000 + 456);
        assertThat(int96(row.getInt96("ts9", 0))).isEqualTo(MOMENT);
        assertThat(row.getLong("ltz3", 0)).isEqualTo(1_700_000_000_123L);
        assertThat(int96(row.getInt96("ltz9", 0)))
                .isEqualTo(
                        TimestampData.fromEpochMillis(1_700_000_000_123L, 456_789)
                                .toLocalDateTime());
        Group nested = row.getGroup("nested", 0);
        assertThat(nested.getInteger("x", 0)).isEqualTo(5);
        assertThat(nested.getString("y", 0)).isEqualTo("inner");
        Group arr = row.getGroup("arr", 0);
        assertThat(arr.getFieldRepetitionCount("list")).isEqualTo(3);
        assertThat(arr.getGroup("list", 0).getInteger("element", 0)).isEqualTo(1);
        assertThat(arr.getGroup("list", 1).getFieldRepetitionCount("element")).isZero();
        assertThat(arr.getGroup("list", 2).getInteger("element", 0)).isEqualTo(3);
        Group m = row.getGroup("m", 0);
        assertThat(m.getFieldRepetitionCount("key_value")).isEqualTo(2);
        assertThat(m.getGroup("key_value", 0).getString("key", 0)).isEqualTo("k1");
        assertThat(m.getGroup("key_value", 0).getDouble("value", 0)).isEqualTo(1.5);
        assertThat(m.getGroup("key_value", 1).getString("key", 0)).isEqualTo("k2");
        assertThat(m.getGroup("key_value", 1).getFieldRepetitionCount("value")).isZero();
        Group ms = row.getGroup("ms", 0).getGroup("key_value", 0);
        assertThat(ms.getString("key", 0)).isEqualTo("a");
        assertThat(ms.getInteger("value", 0)).isEqualTo(3);
    }

    private static void assertNulls(Group row) {
        assertThat(row.getLong("id", 0)).isEqualTo(2L);
        for (int i = 1; i < FIELDS.size(); i++) {
            assertThat(row.getFieldRepetitionCount(i)).as(FIELDS.get(i).name()).isZero();
        }
    }

    private static void assertEdges(Group row) {
        assertThat(row.getInteger("d5", 0)).isEqualTo(-99999);
        byte[] d38 = row.getBinary("d38", 0).getBytes();
        assertThat(d38).hasSize(16).containsOnly((byte) 0xff);
        assertThat(row.getInteger("day", 0)).isEqualTo(-1);
        assertThat(row.getLong("ts3", 0)).isEqualTo(-1L);
        assertThat(row.getLong("ts6", 0)).isEqualTo(-1L);
        assertThat(int96(row.getInt96("ts9", 0))).isEqualTo(BEFORE_EPOCH);
        Group nested = row.getGroup("nested", 0);
        assertThat(nested.getFieldRepetitionCount("x")).isZero();
        assertThat(nested.getFieldRepetitionCount("y")).isZero();
        assertThat(row.getGroup("arr", 0).getFieldRepetitionCount("list")).isZero();
        assertThat(row.getGroup("m", 0).getFieldRepetitionCount("key_value")).isZero();
    }

    /** Decodes INT96 independently: nanos of day (LE long) and Julian day (LE int). */
    private static LocalDateTime int96(Binary value) {
        ByteBuffer buffer = ByteBuffer.wrap(value.getBytes()).order(ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = buffer.getLong();
        int julianDay = buffer.getInt();
        assertThat(nanosOfDay).isBetween(0L, 86_400_000_000_000L - 1);
        return LocalDateTime.of(1970, 1, 1, 0, 0)
                .plusDays(julianDay - 2_440_588L)
                .plusNanos(nanosOfDay);
    }

    static DataField field(int id, String name, DataType type) {
        return new DataField(id, name, type);
    }
}
