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
package io.dovetail.table.read;

import io.dovetail.table.error.Errors;
import io.dovetail.table.format.ParquetFiles;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.formats.parquet.vector.ParquetDecimalVector;
import org.apache.flink.formats.parquet.vector.ParquetSplitReaderUtil;
import org.apache.flink.formats.parquet.vector.reader.ColumnReader;
import org.apache.flink.formats.parquet.vector.reader.LongColumnReader;
import org.apache.flink.formats.parquet.vector.type.ParquetField;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;
import org.apache.flink.table.data.columnar.vector.writable.WritableColumnVector;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexStore;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.PrimitiveIterator;

/**
 * Reads some columns of one Parquet data file with flink-parquet's vectorized column readers. Row
 * groups holding no row to read are never fetched. With selected positions, a row group of
 * primitive columns that has them only in some of its pages is fetched with page skipping: each
 * column's pages overlapping the selection, by the columns' offset indexes (Paimon's reader skips
 * to the page the same way); its blocks are then the runs of rows every column has pages for, and
 * each column moves to a later run on its own ({@link SelectedPages}). Otherwise a block is a row
 * group. Rows skipped inside a block are decoded and discarded (the column readers cannot skip
 * values).
 */
final class ParquetColumnsReader implements FileColumnsReader {

    private final GroupFile file;
    private final ParquetFileReader reader;
    private final MessageType requested;
    private final LogicalType[] types;
    private final List<ParquetField> fields;
    private final WritableColumnVector[] writable;
    private final ColumnVector[] vectors;
    private final boolean[] int64Timestamps;

    @SuppressWarnings("rawtypes")
    private final ColumnReader[] columnReaders;

    private final int batchSize;
    @Nullable private final List<RowRange> selection; // file positions; null: every row
    private final boolean pagesSkippable; // every column primitive
    private final long[] rowGroupStarts; // and the file's row count last
    private int rowGroup = -1;
    private long position; // the file position read next
    private long blockEnd; // the file position after the current block
    @Nullable private RowRanges rowsFetched; // of the current row group; null: all
    @Nullable private SelectedPages[] pages; // per column, when pages were skipped
    private final long[] columnAt; // per column, the row-group position its reader reads next

    /**
     * @param selection the positions to read (sorted, disjoint, inside the file; null: all); the
     *     reader may skip pages holding none of them ({@link FileColumnsReader#open})
     */
    ParquetColumnsReader(GroupFile file, int batchSize, @Nullable List<RowRange> selection) {
        this.file = file;
        this.batchSize = batchSize;
        this.selection = selection;
        List<DataField> columns = file.columns();
        try {
            this.reader =
                    ParquetFileReader.open(
                            ParquetFiles.inputFile(
                                    file.path(), file.meta().fileSize(), "a data file"),
                            ParquetFiles.readOptions());
        } catch (IOException e) {
            throw Errors.io("open Parquet data file", file.path(), e);
        }
        try {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            Type[] parquetTypes = new Type[columns.size()];
            String[] names = new String[columns.size()];
            types = new LogicalType[columns.size()];
            for (int i = 0; i < columns.size(); i++) {
                names[i] = columns.get(i).name();
                if (!schema.containsField(names[i])) {
                    throw Errors.corruptFile(
                            file.path(),
                            "its metadata says it holds column '"
                                    + names[i]
                                    + "' but the Parquet schema has only "
                                    + schema.getFields().stream().map(Type::getName).toList());
                }
                parquetTypes[i] = schema.getType(names[i]);
                types[i] = FlinkTypes.toFlink(columns.get(i).type());
                if (!parquetTypes[i].isPrimitive()) {
                    checkNestedReaderAvailable(names[i]);
                }
            }
            requested = Types.buildMessage().addFields(parquetTypes).named("dovetail");
            reader.setRequestedSchema(requested);
            if (reader.getRecordCount() != file.meta().rowCount()) {
                throw Errors.corruptFile(
                        file.path(),
                        "it holds "
                                + reader.getRecordCount()
                                + " rows but its metadata records "
                                + file.meta().rowCount());
            }
            RowType rowType = RowType.of(types, names);
            fields =
                    ParquetSplitReaderUtil.buildFieldsList(
                            rowType.getFields(),
                            rowType.getFieldNames(),
                            new ColumnIOFactory().getColumnIO(requested));
            writable = new WritableColumnVector[columns.size()];
            vectors = new ColumnVector[columns.size()];
            int64Timestamps = new boolean[columns.size()];
            for (int i = 0; i < columns.size(); i++) {
                TimeUnit unit = Int64TimestampVector.int64TimestampUnit(parquetTypes[i]);
                if (unit != null) {
                    HeapLongVector longs = new HeapLongVector(batchSize);
                    int64Timestamps[i] = true;
                    writable[i] = longs;
                    vectors[i] = new Int64TimestampVector(longs, unit);
                    continue;
                }
                writable[i] =
                        ParquetSplitReaderUtil.createWritableColumnVector(
                                batchSize, types[i], parquetTypes[i], requested.getColumns(), 0);
                vectors[i] =
                        types[i].getTypeRoot() == LogicalTypeRoot.DECIMAL
                                ? new ParquetDecimalVector(writable[i])
                                : writable[i];
            }
            columnReaders = new ColumnReader[columns.size()];
            columnAt = new long[columns.size()];
            boolean primitive = true;
            for (Type type : parquetTypes) {
                primitive &= type.isPrimitive();
            }
            pagesSkippable = primitive;
            List<BlockMetaData> blocks = reader.getRowGroups();
            rowGroupStarts = new long[blocks.size() + 1];
            for (int i = 0; i < blocks.size(); i++) {
                rowGroupStarts[i + 1] = rowGroupStarts[i] + blocks.get(i).getRowCount();
            }
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    /**
     * flink-parquet decodes ROW, ARRAY and MAP columns with a class of flink-runtime, which every
     * Flink cluster has but a plain JVM may lack.
     */
    private static void checkNestedReaderAvailable(String column) {
        try {
            Class.forName(
                    "org.apache.flink.runtime.util.IntArrayList",
                    false,
                    ParquetColumnsReader.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw Errors.unsupported(
                    "reading nested column '" + column + "' without flink-runtime on the classpath",
                    "Run inside Flink, or add org.apache.flink:flink-runtime; flink-parquet's"
                            + " nested column reader needs it");
        }
    }

    @Override
    public ColumnVector vector(int column) {
        return vectors[column];
    }

    @Override
    public long rowsLeftInBlock() {
        if (position >= blockEnd) {
            enterBlock();
        }
        return blockEnd - position;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void read(int rows) {
        if (position >= blockEnd) {
            enterBlock();
        }
        if (rows > blockEnd - position) {
            throw new IllegalArgumentException(rows + " rows cross a block end");
        }
        try {
            long row = position - rowGroupStarts[rowGroup];
            for (int i = 0; i < writable.length; i++) {
                moveColumn(i, row);
                writable[i].reset();
                columnReaders[i].readToVector(rows, writable[i]);
                columnAt[i] += rows;
            }
        } catch (IOException | RuntimeException e) {
            throw Errors.corruptFile(file.path(), "cannot decode its Parquet pages", e);
        }
        position += rows;
    }

    @Override
    public void skip(long rows) {
        position += rows;
    }

    /** Fetches the row group holding {@code position} if needed and finds its block there. */
    private void enterBlock() {
        if (position >= rowGroupStarts[rowGroupStarts.length - 1]) {
            throw Errors.corruptFile(file.path(), "it ends before its recorded row count");
        }
        if (rowGroup < 0 || position >= rowGroupStarts[rowGroup + 1]) {
            int group = rowGroup < 0 ? 0 : rowGroup;
            while (position >= rowGroupStarts[group + 1]) {
                group++;
            }
            fetch(group, true);
        }
        long start = rowGroupStarts[rowGroup];
        if (rowsFetched == null) {
            blockEnd = rowGroupStarts[rowGroup + 1];
            return;
        }
        for (RowRanges.Range run : rowsFetched.getRanges()) {
            if (run.from <= position - start && position - start <= run.to) {
                blockEnd = start + run.to + 1;
                return;
            }
        }
        fetch(rowGroup, false); // outside the selection: read the row group whole
        blockEnd = rowGroupStarts[rowGroup + 1];
    }

    /** Fetches row group {@code group}, skipping the pages without a selected row if allowed. */
    private void fetch(int group, boolean skipPages) {
        rowGroup = group;
        long rows = rowGroupStarts[group + 1] - rowGroupStarts[group];
        try {
            rowsFetched = skipPages ? rowsToFetch(group, rows) : null;
            if (rowsFetched == null) {
                pages = null;
                PageReadStore store = reader.readRowGroup(group);
                for (int i = 0; i < columnReaders.length; i++) {
                    columnReaders[i] = columnReader(i, store);
                    columnAt[i] = 0;
                }
                return;
            }
            PageReadStore store = reader.readFilteredRowGroup(group, rowsFetched);
            pages = new SelectedPages[columnReaders.length];
            for (int i = 0; i < columnReaders.length; i++) {
                ColumnDescriptor column = requested.getColumns().get(i);
                pages[i] =
                        new SelectedPages(
                                store.getPageReader(column),
                                reader.getColumnIndexStore(group)
                                        .getOffsetIndex(ColumnPath.get(column.getPath())),
                                rowsFetched,
                                rows);
                columnReaders[i] = columnReader(i, pages[i].asStore(rows));
                columnAt[i] = pages[i].nextPageFirstRow();
            }
        } catch (IOException e) {
            throw Errors.io("read a row group of", file.path(), e);
        }
    }

    /**
     * The rows of row group {@code group} whose pages to fetch: those of the pages every column has
     * overlapping the selection; null to fetch the row group whole (no selection, nested columns,
     * no offset index, or every page needed).
     */
    @Nullable
    private RowRanges rowsToFetch(int group, long rows) {
        if (selection == null || !pagesSkippable) {
            return null;
        }
        List<RowRange> selected =
                new RowRange(rowGroupStarts[group], rowGroupStarts[group + 1] - 1)
                        .intersect(selection);
        if (selected.isEmpty()) {
            return null;
        }
        ColumnIndexStore indexes = reader.getColumnIndexStore(group);
        RowRanges fetched = null;
        for (ColumnDescriptor column : requested.getColumns()) {
            OffsetIndex offsets;
            try {
                offsets = indexes.getOffsetIndex(ColumnPath.get(column.getPath()));
            } catch (ColumnIndexStore.MissingOffsetIndexException e) {
                return null;
            }
            if (offsets == null) {
                return null;
            }
            RowRanges own =
                    RowRanges.create(
                            rows,
                            pagesHolding(selected, rowGroupStarts[group], offsets, rows),
                            offsets);
            fetched = fetched == null ? own : RowRanges.intersection(fetched, own);
        }
        return fetched == null || fetched.rowCount() == rows ? null : fetched;
    }

    /** The pages of {@code offsets} holding a position of {@code selected}, in order. */
    private static PrimitiveIterator.OfInt pagesHolding(
            List<RowRange> selected, long rowGroupStart, OffsetIndex offsets, long rows) {
        List<Integer> out = new ArrayList<>();
        int range = 0;
        for (int p = 0; p < offsets.getPageCount() && range < selected.size(); p++) {
            long first = rowGroupStart + offsets.getFirstRowIndex(p);
            long last = rowGroupStart + offsets.getLastRowIndex(p, rows);
            while (range < selected.size() && selected.get(range).last() < first) {
                range++;
            }
            if (range < selected.size() && selected.get(range).first() <= last) {
                out.add(p);
            }
        }
        return out.stream().mapToInt(Integer::intValue).iterator();
    }

    /**
     * Brings column {@code i}'s reader to row-group position {@code row}: reads on and discards
     * when it gets there without a gap in its pages, else starts a new reader at the page holding
     * it.
     */
    @SuppressWarnings("unchecked")
    private void moveColumn(int i, long row) throws IOException {
        if (columnAt[i] == row) {
            return;
        }
        if (pages != null && !pages[i].reachable(columnAt[i], row)) {
            long rows = rowGroupStarts[rowGroup + 1] - rowGroupStarts[rowGroup];
            columnAt[i] = pages[i].dropBefore(row);
            columnReaders[i] = columnReader(i, pages[i].asStore(rows));
        }
        while (columnAt[i] < row) {
            int n = (int) Math.min(batchSize, row - columnAt[i]);
            writable[i].reset();
            columnReaders[i].readToVector(n, writable[i]);
            columnAt[i] += n;
        }
    }

    @SuppressWarnings("rawtypes")
    private ColumnReader columnReader(int i, PageReadStore store) throws IOException {
        if (int64Timestamps[i]) {
            ColumnDescriptor column =
                    requested.getColumnDescription(
                            new String[] {requested.getFields().get(i).getName()});
            return new LongColumnReader(column, store.getPageReader(column));
        }
        return ParquetSplitReaderUtil.createColumnReader(
                true,
                types[i],
                requested.getType(i),
                requested.getColumns(),
                store,
                fields.get(i),
                0);
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            throw Errors.io("close", file.path(), e);
        }
    }

    private void closeQuietly() {
        try {
            reader.close();
        } catch (IOException | RuntimeException ignored) {
            // already failing
        }
    }
}
