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

import io.dovetail.table.fs.FileIO;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.TypeRoot;
import io.dovetail.table.types.VectorType;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.util.List;

/**
 * Writes a vector-store file in JSON as Apache Paimon 1.4.2 does: one object per line ({@code
 * \n}-terminated, no spaces) with one member per VECTOR column by name, a vector as an array of
 * strings holding each element's Java {@code toString} ({@code ["0.5","1.0E-7"]}), a NULL vector as
 * {@code null}; UTF-8, uncompressed.
 */
final class JsonVectorFileWriter implements VectorFileWriter {

    private static final JsonFactory JSON = new JsonFactory();

    private final List<DataField> columns;
    private final CountingOutputStream out;
    private final JsonGenerator json;
    private long count;

    JsonVectorFileWriter(Path path, List<DataField> columns) throws IOException {
        this.columns = columns;
        this.out = new CountingOutputStream(FileIO.createNew(path));
        this.json = JSON.createGenerator(out, JsonEncoding.UTF8);
        json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
        json.setRootValueSeparator(null);
    }

    @Override
    public void write(RowData row) throws IOException {
        VectorValues.check(columns, row); // before a byte of it is written
        json.writeStartObject();
        for (int i = 0; i < columns.size(); i++) {
            DataField column = columns.get(i);
            VectorType type = (VectorType) column.type();
            json.writeFieldName(column.name());
            if (row.isNullAt(i)) {
                json.writeNull();
                continue;
            }
            ArrayData value = row.getArray(i);
            json.writeStartArray();
            for (int j = 0; j < value.size(); j++) {
                json.writeString(element(value, j, type.element().root()));
            }
            json.writeEndArray();
        }
        json.writeEndObject();
        json.writeRaw('\n');
        count++;
    }

    /** An element as Paimon writes it: a JSON string of Java's {@code toString} of the value. */
    private static String element(ArrayData value, int j, TypeRoot root) {
        switch (root) {
            case BOOLEAN:
                return Boolean.toString(value.getBoolean(j));
            case TINYINT:
                return Byte.toString(value.getByte(j));
            case SMALLINT:
                return Short.toString(value.getShort(j));
            case INT:
                return Integer.toString(value.getInt(j));
            case BIGINT:
                return Long.toString(value.getLong(j));
            case FLOAT:
                return Float.toString(value.getFloat(j));
            default:
                return Double.toString(value.getDouble(j));
        }
    }

    @Override
    public long count() {
        return count;
    }

    @Override
    public long length() {
        return out.count() + json.getOutputBuffered();
    }

    @Override
    public long finish() throws IOException {
        json.close();
        out.close();
        return out.count();
    }

    @Override
    public void close() {
        try {
            json.close();
            out.close();
        } catch (IOException | RuntimeException ignored) {
            // abandoned: the caller deletes the file
        }
    }
}
