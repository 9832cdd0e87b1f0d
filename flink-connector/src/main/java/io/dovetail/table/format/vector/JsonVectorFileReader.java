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

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads VECTOR columns of a JSON vector-store file (one object per line, a member per column by
 * name), streaming: each object is parsed straight into a {@link VectorBatch}; members of other
 * columns are skipped. An element may be a JSON number, boolean or a string holding one; a missing
 * member or {@code null} is a NULL vector. A line that is not such an object, or a vector of the
 * wrong length or with a NULL element, is reported as a corrupt file, naming it.
 */
final class JsonVectorFileReader implements VectorFileReader {

    private static final JsonFactory JSON = new JsonFactory();

    private final Path path;
    private final List<DataField> columns;
    private final Map<String, Integer> byName = new HashMap<>();
    private final VectorBatch batch;
    private final JsonParser parser;
    private final boolean[] seen;

    JsonVectorFileReader(Path path, List<DataField> columns, int batchSize) {
        this.path = path;
        this.columns = columns;
        this.batch = new VectorBatch(columns, batchSize);
        this.seen = new boolean[columns.size()];
        for (int c = 0; c < columns.size(); c++) {
            byName.put(columns.get(c).name(), c);
        }
        InputStream in = FileIO.open(path, "the vector-store file list of a snapshot");
        try {
            this.parser = JSON.createParser(JsonVectorFiles.decompressed(path.getName(), in));
        } catch (IOException | RuntimeException e) {
            try {
                in.close();
            } catch (IOException ignored) {
                // reported below
            }
            throw e instanceof RuntimeException r ? r : Errors.io("open", path, e);
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
            next(r);
        }
    }

    @Override
    public void skip(long rows) {
        for (long r = 0; r < rows; r++) {
            next(-1);
        }
    }

    /** Parses the next object into batch row {@code row} (-1: discard). */
    private void next(int row) {
        try {
            JsonToken token = parser.nextToken();
            if (token == null) {
                throw Errors.corruptFile(path, "it has fewer rows than its metadata records");
            }
            if (token != JsonToken.START_OBJECT) {
                throw Errors.corruptFile(path, "a row is " + token + ", not a JSON object");
            }
            Arrays.fill(seen, false);
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                Integer column = byName.get(parser.currentName());
                parser.nextToken();
                if (column == null) {
                    parser.skipChildren();
                } else {
                    seen[column] = true;
                    readVector(column, row);
                }
            }
            for (int c = 0; c < seen.length; c++) {
                if (!seen[c] && row >= 0) {
                    batch.setNull(c, row);
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw Errors.corruptFile(
                    path, "cannot parse the JSON data (" + e.getMessage() + ")", e);
        }
    }

    private void readVector(int column, int row) throws IOException {
        if (parser.currentToken() == JsonToken.VALUE_NULL) {
            if (row >= 0) {
                batch.setNull(column, row);
            }
            return;
        }
        if (parser.currentToken() != JsonToken.START_ARRAY) {
            throw corrupt(column, "is " + parser.currentToken() + ", not an array");
        }
        int dimension = batch.dimension(column);
        int base = Math.max(row, 0) * dimension;
        TypeRoot element = ((VectorType) columns.get(column).type()).element().root();
        AbstractHeapVector target = batch.elements(column);
        int count = 0;
        for (JsonToken token = parser.nextToken();
                token != JsonToken.END_ARRAY;
                token = parser.nextToken()) {
            if (token == JsonToken.VALUE_NULL) {
                throw corrupt(column, "has a NULL element");
            }
            if (count == dimension) {
                throw corrupt(column, "has more than " + dimension + " elements");
            }
            set(target, element, base + count, token);
            count++;
        }
        if (count != dimension) {
            throw corrupt(column, "has " + count + " elements, not " + dimension);
        }
    }

    private void set(AbstractHeapVector target, TypeRoot element, int index, JsonToken token)
            throws IOException {
        boolean text = token == JsonToken.VALUE_STRING;
        switch (element) {
            case BOOLEAN:
                ((HeapBooleanVector) target).vector[index] =
                        text ? Boolean.parseBoolean(parser.getText()) : parser.getBooleanValue();
                break;
            case TINYINT:
                ((HeapByteVector) target).vector[index] =
                        text ? Byte.parseByte(parser.getText()) : parser.getByteValue();
                break;
            case SMALLINT:
                ((HeapShortVector) target).vector[index] =
                        text ? Short.parseShort(parser.getText()) : parser.getShortValue();
                break;
            case INT:
                ((HeapIntVector) target).vector[index] =
                        text ? Integer.parseInt(parser.getText()) : parser.getIntValue();
                break;
            case BIGINT:
                ((HeapLongVector) target).vector[index] =
                        text ? Long.parseLong(parser.getText()) : parser.getLongValue();
                break;
            case FLOAT:
                ((HeapFloatVector) target).vector[index] =
                        text ? Float.parseFloat(parser.getText()) : parser.getFloatValue();
                break;
            default:
                ((HeapDoubleVector) target).vector[index] =
                        text ? Double.parseDouble(parser.getText()) : parser.getDoubleValue();
        }
    }

    private RuntimeException corrupt(int column, String problem) {
        return Errors.corruptFile(
                path, "a vector of '" + columns.get(column).name() + "' " + problem);
    }

    @Override
    public void close() {
        try {
            parser.close();
        } catch (IOException e) {
            throw Errors.io("close", path, e);
        }
    }
}
