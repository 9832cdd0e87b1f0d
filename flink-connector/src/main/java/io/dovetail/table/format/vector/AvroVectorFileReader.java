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
package io.dovetail.table.format.vector;

import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.TypeRoot;
import io.dovetail.table.types.VectorType;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.AbstractHeapVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapBooleanVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapByteVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapDoubleVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapFloatVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapShortVector;

import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads VECTOR columns of an Avro vector-store file block by block, decoding each record with the
 * writer schema stored in the file: the asked-for columns (by name) straight into a {@link
 * VectorBatch}, other fields skipped. The datum may be a record or {@code ["null", record]}; a
 * VECTOR may be an {@code array} or {@code ["null", array]}, its elements {@code T} or {@code
 * ["null", T]} (NULL elements are corrupt). Any mismatch or a vector of the wrong length is
 * reported as a corrupt file, naming it.
 */
final class AvroVectorFileReader implements VectorFileReader {

    private final Path path;
    private final List<DataField> columns;
    private final VectorBatch batch;
    private final DataFileReader<Void> reader;
    private final RecordReader records;

    AvroVectorFileReader(Path path, long length, List<DataField> columns, int batchSize) {
        this.path = path;
        this.columns = columns;
        this.batch = new VectorBatch(columns, batchSize);
        this.records = new RecordReader();
        try {
            this.reader =
                    new DataFileReader<>(
                            new FlinkSeekableInput(
                                    FileIO.open(path, "the vector-store file list of a snapshot"),
                                    length),
                            records);
        } catch (IOException | AvroRuntimeException e) {
            throw Errors.corruptFile(path, "not a readable Avro file (" + e + ")", e);
        }
    }

    @Override
    public ColumnVector vector(int column) {
        return batch.vector(column);
    }

    @Override
    public void read(int rows) {
        batch.reset();
        for (int r = 0; r < rows; r++) {
            records.row = r;
            next();
        }
    }

    @Override
    public void skip(long rows) {
        records.row = -1;
        for (long r = 0; r < rows; r++) {
            next();
        }
    }

    private void next() {
        try {
            if (!reader.hasNext()) {
                throw Errors.corruptFile(path, "it has fewer rows than its metadata records");
            }
            reader.next(null);
        } catch (IOException | AvroRuntimeException e) {
            throw Errors.corruptFile(path, "cannot decode the Avro data (" + e + ")", e);
        }
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            throw Errors.io("close", path, e);
        }
    }

    /** Decodes one record of the writer schema into the batch row {@code row} (-1: discard). */
    private final class RecordReader implements DatumReader<Void> {

        private final List<Step> steps = new ArrayList<>();
        private boolean nullableRecord;
        private int row;

        @Override
        public void setSchema(Schema schema) {
            Schema record = schema;
            nullableRecord = isNullable(schema);
            if (nullableRecord) {
                record = schema.getTypes().get(1);
            }
            if (record.getType() != Schema.Type.RECORD) {
                throw corrupt("its records are " + schema + ", not records");
            }
            boolean[] found = new boolean[columns.size()];
            for (Schema.Field field : record.getFields()) {
                int column = columnNamed(field.name());
                if (column < 0) {
                    steps.add(in -> GenericDatumReader.skip(field.schema(), in));
                } else {
                    found[column] = true;
                    steps.add(vectorStep(column, field.schema()));
                }
            }
            for (int c = 0; c < found.length; c++) {
                if (!found[c]) {
                    throw corrupt("it has no field '" + columns.get(c).name() + "'");
                }
            }
        }

        @Override
        public Void read(Void reuse, Decoder in) throws IOException {
            if (nullableRecord && in.readIndex() == 0) {
                throw corrupt("a record is NULL");
            }
            for (Step step : steps) {
                step.read(in);
            }
            return null;
        }

        private int columnNamed(String name) {
            for (int c = 0; c < columns.size(); c++) {
                if (columns.get(c).name().equals(name)) {
                    return c;
                }
            }
            return -1;
        }

        private Step vectorStep(int column, Schema schema) {
            boolean nullable = isNullable(schema);
            Schema array = nullable ? schema.getTypes().get(1) : schema;
            if (array.getType() != Schema.Type.ARRAY) {
                throw corrupt("field '" + columns.get(column).name() + "' is " + schema);
            }
            Schema items = array.getElementType();
            boolean nullableItems = isNullable(items);
            Element element =
                    element(
                            ((VectorType) columns.get(column).type()).element().root(),
                            nullableItems ? items.getTypes().get(1) : items,
                            batch.elements(column));
            int dimension = batch.dimension(column);
            return in -> {
                if (nullable && in.readIndex() == 0) {
                    if (row >= 0) {
                        batch.setNull(column, row);
                    }
                    return;
                }
                int base = Math.max(row, 0) * dimension;
                int count = 0;
                for (long n = in.readArrayStart(); n > 0; n = in.arrayNext()) {
                    for (long i = 0; i < n; i++, count++) {
                        if (nullableItems && in.readIndex() == 0) {
                            throw corrupt(
                                    "a vector of '"
                                            + columns.get(column).name()
                                            + "' has a NULL element");
                        }
                        if (count >= dimension) {
                            throw corrupt(
                                    "a vector of '"
                                            + columns.get(column).name()
                                            + "' has more than "
                                            + dimension
                                            + " elements");
                        }
                        element.read(in, base + count);
                    }
                }
                if (count != dimension) {
                    throw corrupt(
                            "a vector of '"
                                    + columns.get(column).name()
                                    + "' has "
                                    + count
                                    + " elements, not "
                                    + dimension);
                }
            };
        }

        private Element element(TypeRoot root, Schema stored, AbstractHeapVector target) {
            Schema.Type type = stored.getType();
            switch (root) {
                case BOOLEAN:
                    expect(type, Schema.Type.BOOLEAN);
                    return (in, i) -> ((HeapBooleanVector) target).vector[i] = in.readBoolean();
                case TINYINT:
                    expect(type, Schema.Type.INT);
                    return (in, i) -> ((HeapByteVector) target).vector[i] = (byte) in.readInt();
                case SMALLINT:
                    expect(type, Schema.Type.INT);
                    return (in, i) -> ((HeapShortVector) target).vector[i] = (short) in.readInt();
                case INT:
                    expect(type, Schema.Type.INT);
                    return (in, i) -> ((HeapIntVector) target).vector[i] = in.readInt();
                case BIGINT:
                    expect(type, Schema.Type.LONG);
                    return (in, i) -> ((HeapLongVector) target).vector[i] = in.readLong();
                case FLOAT:
                    expect(type, Schema.Type.FLOAT);
                    return (in, i) -> ((HeapFloatVector) target).vector[i] = in.readFloat();
                default:
                    expect(type, Schema.Type.DOUBLE);
                    return (in, i) -> ((HeapDoubleVector) target).vector[i] = in.readDouble();
            }
        }

        private void expect(Schema.Type actual, Schema.Type expected) {
            if (actual != expected) {
                throw corrupt("vector elements are " + actual + ", expected " + expected);
            }
        }

        private RuntimeException corrupt(String problem) {
            return Errors.corruptFile(path, problem);
        }
    }

    private static boolean isNullable(Schema schema) {
        return schema.getType() == Schema.Type.UNION
                && schema.getTypes().size() == 2
                && schema.getTypes().get(0).getType() == Schema.Type.NULL;
    }

    /** Decodes one field of a record. */
    private interface Step {
        void read(Decoder in) throws IOException;
    }

    /** Decodes one element into position {@code index} of the element vector. */
    private interface Element {
        void read(Decoder in, int index) throws IOException;
    }
}
