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
package io.dovetail.e2e.paimon;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.TableWriteImpl;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.InternalRowUtils;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Drives real Apache Paimon 1.4.2 through its Java API: creates data-evolution tables, appends,
 * writes partial-column updates the way Paimon's own merge does (one non-rolling file per row
 * range, first row id of the range), evolves schemas, and reads rows with {@code _ROW_ID} and
 * {@code _SEQUENCE_NUMBER}. Interop tests compare what Dovetail sees against this.
 */
public final class PaimonWorkbench implements AutoCloseable {

    public static final String DB = "default";

    private final Catalog catalog;

    public PaimonWorkbench(java.nio.file.Path warehouse) {
        this(warehouse.toUri().toString(), Map.of());
    }

    /** A catalog over any warehouse URI; {@code fileOptions} configure its file IO (s3.* ...). */
    public PaimonWorkbench(String warehouse, Map<String, String> fileOptions) {
        Options options = new Options(fileOptions);
        options.set("warehouse", warehouse);
        options.set("cache-enabled", "false");
        this.catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
        try {
            catalog.createDatabase(DB, true);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Options every data-evolution table carries. */
    public static Schema.Builder dataEvolutionSchema() {
        return Schema.newBuilder()
                .option("row-tracking.enabled", "true")
                .option("data-evolution.enabled", "true")
                .option("file.format", "parquet");
    }

    public FileStoreTable createTable(String name, Schema schema) throws Exception {
        catalog.createTable(Identifier.create(DB, name), schema, false);
        return table(name);
    }

    public FileStoreTable table(String name) throws Exception {
        return (FileStoreTable) catalog.getTable(Identifier.create(DB, name));
    }

    public void alter(String name, SchemaChange... changes) throws Exception {
        catalog.alterTable(Identifier.create(DB, name), List.of(changes), false);
    }

    /** Appends rows in one commit (files get first row ids at commit). */
    public void append(String name, List<GenericRow> rows) throws Exception {
        BatchWriteBuilder builder = table(name).newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite();
                BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : rows) {
                write.write(row);
            }
            commit.commit(write.prepareCommit());
        }
    }

    /**
     * Updates {@code columns} of every row-id range of the latest snapshot in one commit: for each
     * range, one partial-column file holding exactly those columns for every row of the range.
     * {@code newValues} maps (row id, current row) to the new values, in column order.
     */
    public void updateColumns(
            String name, List<String> columns, BiFunction<Long, InternalRow, Object[]> newValues)
            throws Exception {
        FileStoreTable table = table(name);
        RowType writeType = table.rowType().project(columns);
        List<RowRange> ranges = ranges(table);
        java.util.Map<Long, InternalRow> current = readByRowId(table);
        List<CommitMessage> messages = new ArrayList<>();
        for (RowRange range : ranges) {
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite().withWriteType(writeType)) {
                TableWriteImpl<?> impl = (TableWriteImpl<?>) write;
                @SuppressWarnings("unchecked")
                org.apache.paimon.operation.FileStoreWrite<InternalRow> store =
                        (org.apache.paimon.operation.FileStoreWrite<InternalRow>) impl.getWrite();
                for (long rowId = range.first; rowId < range.first + range.count; rowId++) {
                    store.write(
                            range.partition,
                            0,
                            GenericRow.of(newValues.apply(rowId, current.get(rowId))));
                }
                for (CommitMessage message : write.prepareCommit()) {
                    CommitMessageImpl m = (CommitMessageImpl) message;
                    List<DataFileMeta> files = new ArrayList<>();
                    for (DataFileMeta f : m.newFilesIncrement().newFiles()) {
                        files.add(f.assignFirstRowId(range.first));
                    }
                    messages.add(
                            new CommitMessageImpl(
                                    m.partition(),
                                    m.bucket(),
                                    m.totalBuckets(),
                                    new DataIncrement(files, List.of(), List.of()),
                                    m.compactIncrement()));
                }
            }
        }
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.commit(messages);
        }
    }

    /** Rows of the latest snapshot with {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}, by row id. */
    public List<String> readRowsWithRowTracking(String name) throws Exception {
        FileStoreTable table = table(name);
        RowType readType = SpecialFields.rowTypeWithRowTracking(table.rowType());
        return readSorted(table.newReadBuilder().withReadType(readType), readType);
    }

    /**
     * Rows of the latest snapshot projected to {@code columns} (table columns, {@code _ROW_ID},
     * {@code _SEQUENCE_NUMBER}), rendered like {@link #render} and sorted.
     */
    public List<String> read(String name, String... columns) throws Exception {
        FileStoreTable table = table(name);
        RowType readType = SpecialFields.rowTypeWithRowTracking(table.rowType()).project(columns);
        return readSorted(table.newReadBuilder().withReadType(readType), readType);
    }

    /**
     * The rows Paimon's own system table {@code name$system} reports, restricted to {@code
     * columns}, rendered like {@link #render} and sorted.
     */
    public List<String> readSystemTable(String name, String system, List<String> columns)
            throws Exception {
        Table table = catalog.getTable(Identifier.create(DB, name + "$" + system));
        int[] projection =
                columns.stream().mapToInt(c -> table.rowType().getFieldIndex(c)).toArray();
        return readSorted(
                table.newReadBuilder().withProjection(projection),
                table.rowType().project(columns));
    }

    /** Every row {@code rb} reads, rendered and sorted. */
    private static List<String> readSorted(ReadBuilder rb, RowType readType) throws Exception {
        List<String> out = new ArrayList<>();
        try (RecordReader<InternalRow> reader =
                rb.newRead().createReader(rb.newScan().plan().splits())) {
            reader.forEachRemaining(row -> out.add(render(readType, row)));
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    private static java.util.Map<Long, InternalRow> readByRowId(FileStoreTable table)
            throws Exception {
        RowType readType = SpecialFields.rowTypeWithRowTracking(table.rowType());
        int rowIdPos = readType.getFieldIndex(SpecialFields.ROW_ID.name());
        java.util.Map<Long, InternalRow> out = new java.util.HashMap<>();
        ReadBuilder rb = table.newReadBuilder().withReadType(readType);
        // a deep copy: the reader reuses nested rows, arrays and maps between records
        InternalRowSerializer copier = new InternalRowSerializer(readType);
        try (RecordReader<InternalRow> reader =
                rb.newRead().createReader(rb.newScan().plan().splits())) {
            reader.forEachRemaining(row -> out.put(row.getLong(rowIdPos), copier.copy(row)));
        }
        return out;
    }

    /**
     * Renders a row as {@code name=value, ...} for comparisons: nested values included, map entries
     * sorted, binary values in hex.
     */
    public static String render(RowType type, InternalRow row) {
        StringBuilder sb = new StringBuilder();
        List<DataField> fields = type.getFields();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            DataType fieldType = fields.get(i).type();
            sb.append(fields.get(i).name())
                    .append('=')
                    .append(renderValue(fieldType, InternalRowUtils.get(row, i, fieldType)));
        }
        return sb.toString();
    }

    private static String renderValue(DataType type, Object value) {
        if (value == null) {
            return "null";
        }
        if (type instanceof RowType) {
            return "{" + render((RowType) type, (InternalRow) value) + "}";
        }
        if (type instanceof ArrayType) {
            DataType element = ((ArrayType) type).getElementType();
            InternalArray array = (InternalArray) value;
            List<String> items = new ArrayList<>();
            for (int i = 0; i < array.size(); i++) {
                items.add(renderValue(element, InternalRowUtils.get(array, i, element)));
            }
            return items.toString();
        }
        if (type instanceof MapType) {
            MapType mapType = (MapType) type;
            InternalMap map = (InternalMap) value;
            List<String> items = new ArrayList<>();
            for (int i = 0; i < map.size(); i++) {
                items.add(
                        renderValue(
                                        mapType.getKeyType(),
                                        InternalRowUtils.get(
                                                map.keyArray(), i, mapType.getKeyType()))
                                + "->"
                                + renderValue(
                                        mapType.getValueType(),
                                        InternalRowUtils.get(
                                                map.valueArray(), i, mapType.getValueType())));
            }
            items.sort(Comparator.naturalOrder());
            return items.toString();
        }
        if (value instanceof byte[]) {
            return "0x" + java.util.HexFormat.of().formatHex((byte[]) value);
        }
        return String.valueOf(value);
    }

    /** The live row-id ranges of the latest snapshot (one per group of equal-range files). */
    static List<RowRange> ranges(FileStoreTable table) {
        java.util.Map<Long, RowRange> byFirst = new java.util.TreeMap<>();
        for (ManifestEntry e : table.store().newScan().plan().files()) {
            DataFileMeta f = e.file();
            byFirst.putIfAbsent(
                    f.firstRowId(), new RowRange(e.partition(), f.firstRowId(), f.rowCount()));
        }
        return Collections.unmodifiableList(new ArrayList<>(byFirst.values()));
    }

    /** One row-id range: partition, first row id, row count. */
    record RowRange(BinaryRow partition, long first, long count) {}

    @Override
    public void close() throws Exception {
        catalog.close();
    }
}
