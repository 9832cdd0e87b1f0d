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
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.formats.parquet.ParquetInputFile;
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

import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import java.io.IOException;
import java.util.List;

/**
 * Reads some columns of one Parquet data file with flink-parquet's vectorized column readers; its
 * blocks are the row groups. Skipped row groups are not read; inside a row group, skipped rows are
 * decoded and discarded (the column readers cannot skip values).
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
    private long rowsLeftInRowGroup;
    private int nextRowGroup;

    ParquetColumnsReader(GroupFile file, int batchSize) {
        this.file = file;
        this.batchSize = batchSize;
        List<DataField> columns = file.columns();
        try {
            this.reader =
                    ParquetFileReader.open(
                            new ParquetInputFile(
                                    FileIO.open(file.path(), "a data file"),
                                    file.meta().fileSize()),
                            ParquetReadOptions.builder().build());
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
        while (rowsLeftInRowGroup == 0) {
            nextRowGroup();
        }
        return rowsLeftInRowGroup;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void read(int rows) {
        try {
            for (int i = 0; i < writable.length; i++) {
                writable[i].reset();
                columnReaders[i].readToVector(rows, writable[i]);
            }
        } catch (IOException | RuntimeException e) {
            throw Errors.corruptFile(file.path(), "cannot decode its Parquet pages", e);
        }
        rowsLeftInRowGroup -= rows;
    }

    @Override
    public void skip(long rows) {
        while (rows > 0) {
            if (rowsLeftInRowGroup == 0
                    && reader.getRowGroups().get(nextRowGroup).getRowCount() <= rows) {
                rows -= reader.getRowGroups().get(nextRowGroup++).getRowCount();
                if (!reader.skipNextRowGroup()) {
                    throw Errors.corruptFile(file.path(), "it ends before its recorded row count");
                }
                continue;
            }
            int discarded = (int) Math.min(Math.min(rows, batchSize), rowsLeftInBlock());
            read(discarded);
            rows -= discarded;
        }
    }

    private void nextRowGroup() {
        try {
            nextRowGroup++;
            PageReadStore pages = reader.readNextRowGroup();
            if (pages == null) {
                throw Errors.corruptFile(file.path(), "it ends before its recorded row count");
            }
            for (int i = 0; i < columnReaders.length; i++) {
                if (int64Timestamps[i]) {
                    ColumnDescriptor column =
                            requested.getColumnDescription(
                                    new String[] {requested.getFields().get(i).getName()});
                    columnReaders[i] = new LongColumnReader(column, pages.getPageReader(column));
                    continue;
                }
                columnReaders[i] =
                        ParquetSplitReaderUtil.createColumnReader(
                                true,
                                types[i],
                                requested.getType(i),
                                requested.getColumns(),
                                pages,
                                fields.get(i),
                                0);
            }
            rowsLeftInRowGroup = pages.getRowCount();
        } catch (IOException e) {
            throw Errors.io("read a row group of", file.path(), e);
        }
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
