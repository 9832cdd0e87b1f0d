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
package io.dovetail.sql;

import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.utils.print.RowDataToStringConverter;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;

/**
 * Rows as JSON Lines: one object per row and line, keyed by column name in column order. BOOLEAN
 * and the numeric types are JSON booleans and numbers (NaN and infinities strings), NULL is {@code
 * null}, every other type the string Flink's {@code CAST(... AS STRING)} gives (as the table format
 * shows it).
 */
final class JsonRows {

    private static final JsonFactory JSON = new JsonFactory();

    private final List<String> names;
    private final List<LogicalType> types;
    private final RowDataToStringConverter converter;
    private final boolean changelog;

    JsonRows(ResolvedSchema schema, RowDataToStringConverter converter, boolean changelog) {
        this.names = schema.getColumnNames();
        this.types = schema.getColumnDataTypes().stream().map(t -> t.getLogicalType()).toList();
        this.converter = converter;
        this.changelog = changelog;
    }

    void print(Iterator<RowData> rows, PrintWriter out) {
        while (rows.hasNext()) {
            out.println(object(rows.next()));
            out.flush();
        }
    }

    private String object(RowData row) {
        StringWriter text = new StringWriter();
        String[] values = converter.convert(row);
        try (JsonGenerator json = JSON.createGenerator(text)) {
            json.writeStartObject();
            if (changelog) {
                json.writeStringField("op", row.getRowKind().shortString());
            }
            for (int i = 0; i < names.size(); i++) {
                json.writeFieldName(names.get(i));
                writeValue(json, types.get(i), row.isNullAt(i) ? null : values[i]);
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    private static void writeValue(JsonGenerator json, LogicalType type, String value)
            throws IOException {
        if (value == null) {
            json.writeNull();
        } else if (type.is(LogicalTypeRoot.BOOLEAN)) {
            json.writeBoolean(Boolean.parseBoolean(value));
        } else if (type.is(LogicalTypeFamily.NUMERIC) && isFinite(value)) {
            json.writeNumber(value);
        } else {
            json.writeString(value);
        }
    }

    private static boolean isFinite(String number) {
        return !number.equals("NaN") && !number.endsWith("Infinity");
    }
}
