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
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.format.OrcSchemas;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.FieldIds;
import io.dovetail.table.write.DataFileWriter;
import io.dovetail.table.write.ParquetSchemas;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import org.apache.paimon.CoreOptions;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.format.SimpleColStats;
import org.apache.paimon.format.SimpleStatsExtractor;
import org.apache.paimon.format.orc.OrcFileFormat;
import org.apache.paimon.format.orc.OrcTypeUtil;
import org.apache.paimon.format.orc.filter.OrcSimpleStatsExtractor;
import org.apache.paimon.format.parquet.ParquetSchemaConverter;
import org.apache.paimon.format.parquet.ParquetSimpleStatsExtractor;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.statistics.SimpleColStatsCollector;
import org.apache.paimon.stats.SimpleStatsConverter;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.Pair;
import org.apache.paimon.utils.StatsCollectorFactories;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dovetail's own Parquet or ORC writer produces every data file of a data-evolution table (all
 * primitive types, nested ROW, ARRAY and MAP, two partitions, rolled files, then a partial-column
 * file of one group); real Paimon 1.4.2 must read every row exactly as written, with {@code
 * _ROW_ID} and {@code _SEQUENCE_NUMBER}, and must derive the same file schema and the same value
 * statistics for each file as the metadata Dovetail wrote.
 */
class DovetailDataFilesToPaimonTest {

    private static final String TABLE = "files_by_dovetail";
    private static final String USER = "dovetail-files-interop";
    private static final int ROWS = 40;

    @TempDir java.nio.file.Path warehouse;

    /** Expected table content: row id to the values of every column, and the row's snapshot. */
    private final Map<Long, Object[]> model = new TreeMap<>();

    private final Map<Long, Long> sequence = new TreeMap<>();

    @ParameterizedTest
    @ValueSource(strings = {"parquet", "orc"})
    void paimonReadsRowsAndStatsOfDovetailWrittenFiles(String format) throws Exception {
        TablePaths paths = new Warehouse(new Path(warehouse.toUri())).table("default", TABLE);
        TableStore store = TableStore.at(paths);
        TableSchema schema =
                store.schemas()
                        .createTable(
                                FieldIds.assignFresh(fields(), -1),
                                List.of("region"),
                                List.of(),
                                Map.of(
                                        "row-tracking.enabled", "true",
                                        "data-evolution.enabled", "true",
                                        "file.format", format,
                                        "target-file-row-num", "7"),
                                "written by Dovetail's " + format + " writer");

        // 1. append: rows of two partitions, rolled into files of at most 7 rows
        Map<String, List<Object[]>> byRegion = new LinkedHashMap<>();
        for (int i = 0; i < ROWS; i++) {
            Object[] row = sampleRow(i);
            byRegion.computeIfAbsent((String) row[row.length - 1], k -> new ArrayList<>()).add(row);
        }
        List<ManifestEntry> appended = new ArrayList<>();
        Map<String, List<Object[]>> rowsByFile = new HashMap<>();
        for (Map.Entry<String, List<Object[]>> region : byRegion.entrySet()) {
            List<Object[]> rows = region.getValue();
            try (DataFileWriter writer =
                    DataFileWriter.forAppend(paths, schema, partition(region.getKey()))) {
                rows.forEach(r -> writer.write(flinkRow(schema.fields(), r)));
                List<ManifestEntry> entries = writer.finish();
                int next = 0;
                for (ManifestEntry entry : entries) {
                    int count = (int) entry.file().rowCount();
                    rowsByFile.put(entry.file().fileName(), rows.subList(next, next + count));
                    next += count;
                }
                assertThat(next).isEqualTo(rows.size());
                appended.addAll(entries);
            }
        }
        assertThat(appended).hasSizeGreaterThan(2);
        Snapshot first = new TableCommit(store).commit(CommitRequest.append(USER, 1, appended));
        for (ManifestEntry entry : store.files(first).deltaEntries()) {
            List<Object[]> rows = rowsByFile.get(entry.file().fileName());
            for (int r = 0; r < rows.size(); r++) {
                model.put(entry.file().firstRowId() + r, rows.get(r).clone());
                sequence.put(entry.file().firstRowId() + r, first.id());
            }
        }

        // 2. partial-column file: new values of `vc` for the whole first group of region "us"
        ManifestEntry group =
                store.files(first).deltaEntries().stream()
                        .filter(e -> rowsByFile.get(e.file().fileName()).get(0)[27].equals("us"))
                        .min(Comparator.comparing(e -> e.file().firstRowId()))
                        .orElseThrow();
        long start = group.file().firstRowId();
        int vc = schema.fieldNames().indexOf("vc");
        ManifestEntry partial;
        try (DataFileWriter writer =
                DataFileWriter.forPartialColumns(paths, schema, List.of("vc"), partition("us"))) {
            for (long rowId = start; rowId < start + group.file().rowCount(); rowId++) {
                String value = rowId % 3 == 0 ? null : "updated-" + rowId;
                writer.write(
                        GenericRowData.of(value == null ? null : StringData.fromString(value)));
                model.get(rowId)[vc] = value;
            }
            List<ManifestEntry> entries = writer.finish();
            assertThat(entries).hasSize(1);
            ManifestEntry written = entries.get(0);
            partial =
                    new ManifestEntry(
                            written.kind(),
                            written.partition(),
                            written.bucket(),
                            written.totalBuckets(),
                            written.file().toBuilder().firstRowId(start).build());
        }
        Snapshot second =
                new TableCommit(store)
                        .commit(CommitRequest.columnUpdate(USER, 2, first.id(), List.of(partial)));
        for (long rowId = start; rowId < start + group.file().rowCount(); rowId++) {
            sequence.put(rowId, second.id());
        }

        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            FileStoreTable table = paimon.table(TABLE);
            List<String> expected = expectedRows(table);
            assertThat(expected).hasSize(ROWS).anyMatch(r -> r.contains("vc=updated-"));
            assertThat(readWithRowTracking(table))
                    .isEqualTo(format.equals("orc") ? asOrcStoresThem(expected) : expected);
            for (SnapshotFiles files : List.of(store.files(first), store.files(second))) {
                for (ManifestEntry entry : files.deltaEntries()) {
                    assertThat(entry.file().fileName()).endsWith("." + format);
                    assertPaimonDerivesTheSameFile(table, schema, files, entry, format);
                }
            }
        }
    }

    /**
     * Paimon's own schema converter and statistics extractor, run on the file Dovetail wrote, give
     * exactly the file schema (Parquet message, ORC struct with field id attributes) and the
     * statistics in Dovetail's metadata.
     */
    private static void assertPaimonDerivesTheSameFile(
            FileStoreTable table,
            TableSchema schema,
            SnapshotFiles files,
            ManifestEntry entry,
            String format)
            throws Exception {
        List<String> columns =
                entry.file().writeCols() == null ? schema.fieldNames() : entry.file().writeCols();
        RowType fileType = table.rowType().project(columns);
        List<DataField> ourColumns =
                columns.stream().map(c -> schema.field(c).orElseThrow()).toList();
        org.apache.paimon.fs.Path path =
                new org.apache.paimon.fs.Path(files.dataFilePath(entry).toUri());
        SimpleStatsExtractor extractor;
        SimpleColStatsCollector.Factory[] collectors =
                new StatsCollectorFactories(CoreOptions.fromMap(table.options()))
                        .statsCollectors(columns);
        if (format.equals("orc")) {
            assertThat(OrcSchemas.struct(ourColumns).toJson())
                    .isEqualTo(OrcTypeUtil.convertToOrcSchema(orcRefined(fileType)).toJson());
            extractor = new OrcSimpleStatsExtractor(fileType, collectors, true);
        } else {
            assertThat(ParquetSchemas.messageType(ourColumns).toString())
                    .isEqualTo(
                            ParquetSchemaConverter.convertToParquetMessageType(fileType)
                                    .toString());
            extractor = new ParquetSimpleStatsExtractor(new Options(), fileType, collectors);
        }
        SimpleColStats[] colStats =
                extractor.extract(table.fileIO(), path, entry.file().fileSize());
        Pair<List<String>, org.apache.paimon.stats.SimpleStats> paimonStats =
                new SimpleStatsConverter(fileType, true).toBinary(colStats);
        assertThat(DovetailSide.stats(entry.file().valueStats()))
                .as("value stats of %s", entry.file().fileName())
                .isEqualTo(PaimonSide.stats(paimonStats.getRight()));
        assertThat(entry.file().valueStatsCols()).isEqualTo(paimonStats.getLeft());
        if (entry.file().writeCols() == null && format.equals("parquet")) {
            assertThat(entry.file().valueStatsCols())
                    .as("nested columns carry no statistics")
                    .doesNotContain("nested", "arr", "m")
                    .hasSize(columns.size() - 3);
        }
        assertThat(entry.file().fileSize()).isEqualTo(table.fileIO().getFileSize(path));
    }

    /**
     * ORC 1.9's writer (the one Paimon 1.4.2 writes with, too) stores a timestamp in the last
     * second before 1970 that has a fraction of a second one second later; Paimon and Dovetail read
     * back what it stored.
     */
    private static List<String> asOrcStoresThem(List<String> rows) {
        return rows.stream()
                .map(r -> r.replaceAll("1969-12-31T23:59:59\\.(\\d+)", "1970-01-01T00:00:00.$1"))
                .toList();
    }

    /** The row type Paimon's ORC format writes for {@code type} (binary types as BYTES...). */
    private static RowType orcRefined(RowType type) throws Exception {
        Method refine =
                OrcFileFormat.class.getDeclaredMethod(
                        "refineDataType", org.apache.paimon.types.DataType.class);
        refine.setAccessible(true);
        return (RowType) refine.invoke(null, type);
    }

    private List<String> readWithRowTracking(FileStoreTable table) throws Exception {
        RowType readType = SpecialFields.rowTypeWithRowTracking(table.rowType());
        List<String> out = new ArrayList<>();
        ReadBuilder rb = table.newReadBuilder().withReadType(readType);
        try (RecordReader<InternalRow> reader =
                rb.newRead().createReader(rb.newScan().plan().splits())) {
            reader.forEachRemaining(row -> out.add(PaimonWorkbench.render(readType, row)));
        }
        out.sort(null);
        return out;
    }

    private List<String> expectedRows(FileStoreTable table) {
        RowType readType = SpecialFields.rowTypeWithRowTracking(table.rowType());
        List<DataType> types = fields().stream().map(DataField::type).toList();
        List<String> out = new ArrayList<>();
        for (Map.Entry<Long, Object[]> e : model.entrySet()) {
            Object[] values = e.getValue();
            GenericRow row = new GenericRow(values.length + 2);
            for (int i = 0; i < values.length; i++) {
                row.setField(i, paimonValue(types.get(i), values[i]));
            }
            row.setField(values.length, e.getKey());
            row.setField(values.length + 1, sequence.get(e.getKey()));
            out.add(PaimonWorkbench.render(readType, row));
        }
        out.sort(null);
        return out;
    }

    // ---- the table and its rows ----

    private static List<DataField> fields() {
        return List.of(
                field("id", DataTypes.BIGINT().withNullable(false)),
                field("flag", DataTypes.BOOLEAN()),
                field("tiny", DataTypes.TINYINT()),
                field("small", DataTypes.SMALLINT()),
                field("num", DataTypes.INT()),
                field("big", DataTypes.BIGINT()),
                field("f", DataTypes.FLOAT()),
                field("d", DataTypes.DOUBLE()),
                field("d5", DataTypes.DECIMAL(5, 2)),
                field("d18", DataTypes.DECIMAL(18, 4)),
                field("d38", DataTypes.DECIMAL(38, 10)),
                field("ch", DataTypes.CHAR(4)),
                field("vc", DataTypes.VARCHAR(40)),
                field("bin", DataTypes.BINARY(3)),
                field("bytes", DataTypes.BYTES()),
                field("day", DataTypes.DATE()),
                field("tm", DataTypes.TIME(3)),
                field("ts3", DataTypes.TIMESTAMP(3)),
                field("ts6", DataTypes.TIMESTAMP(6)),
                field("ts9", DataTypes.TIMESTAMP(9)),
                field("ltz3", DataTypes.TIMESTAMP_LTZ(3)),
                field("ltz6", DataTypes.TIMESTAMP_LTZ(6)),
                field("ltz9", DataTypes.TIMESTAMP_LTZ(9)),
                field(
                        "nested",
                        DataTypes.ROW(field("a", DataTypes.INT()), field("b", DataTypes.STRING()))),
                field("arr", DataTypes.ARRAY(DataTypes.STRING())),
                field("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
                field("num2", DataTypes.INT()),
                field("region", DataTypes.STRING()));
    }

    /** Plain values (Long, String, BigDecimal, LocalDateTime, byte[], List, Map ...). */
    private static Object[] sampleRow(int i) {
        boolean nulls = i % 5 == 4;
        LocalDateTime moment =
                LocalDateTime.of(2024, 1, 1, 0, 0).plusSeconds(i * 86_461L).plusNanos(i * 123_457L);
        LocalDateTime old = LocalDateTime.of(1969, 12, 31, 23, 59, 59).plusNanos(i * 1_111_111L);
        Map<String, Integer> map = new LinkedHashMap<>();
        map.put("k" + i, i);
        map.put("n" + i, null);
        return new Object[] {
            (long) i,
            nulls ? null : i % 2 == 0,
            nulls ? null : (byte) (i - 20),
            nulls ? null : (short) (i * 1000 - 20000),
            nulls ? null : i * 7,
            nulls ? null : (long) i * 1_000_000_007L,
            nulls ? null : i * 0.5f - 3,
            nulls ? null : i * -1.25,
            nulls ? null : new BigDecimal(i * 37 - 500).movePointLeft(2),
            nulls ? null : new BigDecimal(i * 123_456_789L - 2_000_000_000L).movePointLeft(4),
            nulls
                    ? null
                    : new BigDecimal("-1234567890123456789012345678.0123456789")
                            .add(BigDecimal.valueOf(i * 1_000_003L, 3)),
            nulls ? null : "c" + i,
            nulls ? null : "value-" + i + "-with-a-long-tail-ééé",
            nulls ? null : new byte[] {(byte) i, 0, (byte) -i},
            nulls ? null : new byte[] {(byte) 0xca, (byte) 0xfe, (byte) i},
            nulls ? null : 19_000 + i * 13 - 20_000,
            nulls ? null : i * 1_234_567 % 86_400_000,
            nulls
                    ? null
                    : (i % 3 == 0 ? old : moment)
                            .withNano(
                                    (i % 3 == 0 ? old : moment).getNano() / 1_000_000 * 1_000_000),
            nulls
                    ? null
                    : (i % 3 == 0 ? old : moment)
                            .withNano((i % 3 == 0 ? old : moment).getNano() / 1000 * 1000),
            nulls ? null : (i % 3 == 0 ? old : moment),
            nulls ? null : moment.withNano(moment.getNano() / 1_000_000 * 1_000_000),
            nulls ? null : old.withNano(old.getNano() / 1000 * 1000),
            nulls ? null : moment,
            nulls ? null : Arrays.asList(i % 4 == 1 ? null : i, "nested-" + i),
            nulls ? null : i % 4 == 0 ? List.of() : Arrays.asList("x" + i, null, "z"),
            nulls ? null : map,
            nulls ? null : -i,
            i % 3 == 0 ? "eu" : "us"
        };
    }

    private static GenericRowData partition(String region) {
        return GenericRowData.of(StringData.fromString(region));
    }

    private static GenericRowData flinkRow(List<DataField> fields, Object[] values) {
        GenericRowData row = new GenericRowData(values.length);
        for (int i = 0; i < values.length; i++) {
            row.setField(i, flinkValue(fields.get(i).type(), values[i]));
        }
        return row;
    }

    private static Object flinkValue(DataType type, Object value) {
        if (value == null) {
            return null;
        }
        if (type instanceof io.dovetail.table.types.RowType row) {
            List<?> values = (List<?>) value;
            GenericRowData out = new GenericRowData(values.size());
            for (int i = 0; i < values.size(); i++) {
                out.setField(i, flinkValue(row.fields().get(i).type(), values.get(i)));
            }
            return out;
        }
        if (type instanceof io.dovetail.table.types.ArrayType array) {
            return new GenericArrayData(
                    ((List<?>) value).stream().map(v -> flinkValue(array.element(), v)).toArray());
        }
        if (type instanceof io.dovetail.table.types.MapType map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            ((Map<?, ?>) value)
                    .forEach(
                            (k, v) ->
                                    out.put(flinkValue(map.key(), k), flinkValue(map.value(), v)));
            return new GenericMapData(out);
        }
        if (value instanceof String s) {
            return StringData.fromString(s);
        }
        if (value instanceof BigDecimal d) {
            var atomic = (io.dovetail.table.types.AtomicType) type;
            return DecimalData.fromBigDecimal(d, atomic.precision(), atomic.scale());
        }
        if (value instanceof LocalDateTime t) {
            return TimestampData.fromLocalDateTime(t);
        }
        return value;
    }

    private static Object paimonValue(DataType type, Object value) {
        if (value == null) {
            return null;
        }
        if (type instanceof io.dovetail.table.types.RowType row) {
            List<?> values = (List<?>) value;
            GenericRow out = new GenericRow(values.size());
            for (int i = 0; i < values.size(); i++) {
                out.setField(i, paimonValue(row.fields().get(i).type(), values.get(i)));
            }
            return out;
        }
        if (type instanceof io.dovetail.table.types.ArrayType array) {
            return new GenericArray(
                    ((List<?>) value).stream().map(v -> paimonValue(array.element(), v)).toArray());
        }
        if (type instanceof io.dovetail.table.types.MapType map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            ((Map<?, ?>) value)
                    .forEach(
                            (k, v) ->
                                    out.put(
                                            paimonValue(map.key(), k),
                                            paimonValue(map.value(), v)));
            return new GenericMap(out);
        }
        if (value instanceof String s) {
            return BinaryString.fromString(s);
        }
        if (value instanceof BigDecimal d) {
            var atomic = (io.dovetail.table.types.AtomicType) type;
            return Decimal.fromBigDecimal(d, atomic.precision(), atomic.scale());
        }
        if (value instanceof LocalDateTime t) {
            return Timestamp.fromLocalDateTime(t);
        }
        return value;
    }

    private static DataField field(String name, DataType type) {
        return new DataField(0, name, type);
    }
}
