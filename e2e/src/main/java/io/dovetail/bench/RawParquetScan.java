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
package io.dovetail.bench;

import io.dovetail.table.fs.FileIO;

import org.apache.flink.core.fs.Path;
import org.apache.flink.formats.parquet.ParquetInputFile;
import org.apache.flink.formats.parquet.vector.ParquetSplitReaderUtil;
import org.apache.flink.formats.parquet.vector.reader.ColumnReader;
import org.apache.flink.formats.parquet.vector.type.ParquetField;
import org.apache.flink.table.data.columnar.vector.writable.WritableColumnVector;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

/**
 * The baseline of the read benchmark: some columns of one Parquet file decoded with flink-parquet's
 * vectorized column readers straight into column vectors, batch by batch, with nothing else done.
 */
final class RawParquetScan {

    /**
     * {@code ParquetFileReader.open(InputFile, ParquetReadOptions)}, looked up at run time: its
     * overloads mention Hadoop classes that are only on this module's test classpath.
     */
    private static final MethodHandle OPEN = openHandle();

    private RawParquetScan() {}

    private static MethodHandle openHandle() {
        try {
            return MethodHandles.publicLookup()
                    .findStatic(
                            ParquetFileReader.class,
                            "open",
                            MethodType.methodType(
                                    ParquetFileReader.class,
                                    InputFile.class,
                                    ParquetReadOptions.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("parquet-mr lacks ParquetFileReader.open", e);
        }
    }

    private static ParquetFileReader open(InputFile file) throws IOException {
        try {
            return (ParquetFileReader) OPEN.invoke(file, ParquetReadOptions.builder().build());
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Decodes {@code columns} (of {@code types}) of {@code file} into {@code sums}. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static void scan(
            Path file,
            long fileSize,
            List<String> columns,
            List<LogicalType> types,
            int batchSize,
            ColumnChecksums sums)
            throws IOException {
        try (ParquetFileReader reader =
                open(new ParquetInputFile(FileIO.open(file, "benchmark"), fileSize))) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            Type[] parquetTypes = columns.stream().map(schema::getType).toArray(Type[]::new);
            MessageType requested = Types.buildMessage().addFields(parquetTypes).named("raw");
            reader.setRequestedSchema(requested);
            RowType rowType =
                    RowType.of(types.toArray(LogicalType[]::new), columns.toArray(String[]::new));
            List<ParquetField> fields =
                    ParquetSplitReaderUtil.buildFieldsList(
                            rowType.getFields(),
                            rowType.getFieldNames(),
                            new ColumnIOFactory().getColumnIO(requested));
            int n = columns.size();
            WritableColumnVector[] vectors = new WritableColumnVector[n];
            for (int c = 0; c < n; c++) {
                vectors[c] =
                        ParquetSplitReaderUtil.createWritableColumnVector(
                                batchSize,
                                types.get(c),
                                parquetTypes[c],
                                requested.getColumns(),
                                0);
            }
            ColumnReader[] readers = new ColumnReader[n];
            for (PageReadStore pages = reader.readNextRowGroup();
                    pages != null;
                    pages = reader.readNextRowGroup()) {
                for (int c = 0; c < n; c++) {
                    readers[c] =
                            ParquetSplitReaderUtil.createColumnReader(
                                    true,
                                    types.get(c),
                                    requested.getType(c),
                                    requested.getColumns(),
                                    pages,
                                    fields.get(c),
                                    0);
                }
                for (long left = pages.getRowCount(); left > 0; ) {
                    int rows = (int) Math.min(batchSize, left);
                    for (int c = 0; c < n; c++) {
                        vectors[c].reset();
                        readers[c].readToVector(rows, vectors[c]);
                        sums.addDense(columns.get(c), types.get(c), vectors[c], rows);
                    }
                    left -= rows;
                }
            }
        }
    }
}
