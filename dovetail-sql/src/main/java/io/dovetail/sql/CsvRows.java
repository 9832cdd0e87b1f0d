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
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.utils.print.RowDataToStringConverter;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Rows as CSV for scripts to diff: a header line with the column names, then one line per row
 * (lines end with LF). Values of character-string columns are always quoted, other fields only when
 * RFC 4180 needs it (a comma, a double quote, CR or LF); double quotes are doubled. NULL is {@code
 * \N} unquoted, so it never reads as a string. Values are Flink's {@code CAST(... AS STRING)} text,
 * as the table format shows them.
 */
final class CsvRows {

    static final String NULL = "\\N";

    private final List<String> header = new ArrayList<>();
    private final RowDataToStringConverter converter;
    private final boolean changelog;
    private final boolean[] strings;

    CsvRows(ResolvedSchema schema, RowDataToStringConverter converter, boolean changelog) {
        this.converter = converter;
        this.changelog = changelog;
        if (changelog) {
            header.add("op");
        }
        header.addAll(schema.getColumnNames());
        strings = new boolean[header.size()];
        int offset = changelog ? 1 : 0;
        for (int i = 0; i < schema.getColumnCount(); i++) {
            strings[offset + i] =
                    schema.getColumnDataTypes()
                            .get(i)
                            .getLogicalType()
                            .is(LogicalTypeFamily.CHARACTER_STRING);
        }
    }

    void print(Iterator<RowData> rows, PrintWriter out) {
        out.println(line(header, new boolean[header.size()]));
        while (rows.hasNext()) {
            RowData row = rows.next();
            String[] values = converter.convert(row);
            List<String> fields = new ArrayList<>(values.length + 1);
            if (changelog) {
                fields.add(row.getRowKind().shortString());
            }
            for (int i = 0; i < values.length; i++) {
                fields.add(row.isNullAt(i) ? null : values[i]);
            }
            out.println(line(fields, strings));
            out.flush();
        }
    }

    private static String line(List<String> fields, boolean[] alwaysQuoted) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            String field = fields.get(i);
            line.append(i == 0 ? "" : ",")
                    .append(field == null ? NULL : quoted(field, alwaysQuoted[i]));
        }
        return line.toString();
    }

    private static String quoted(String field, boolean always) {
        boolean needsQuotes =
                always
                        || field.equals(NULL)
                        || field.indexOf(',') >= 0
                        || field.indexOf('"') >= 0
                        || field.indexOf('\n') >= 0
                        || field.indexOf('\r') >= 0;
        return needsQuotes ? '"' + field.replace("\"", "\"\"") + '"' : field;
    }
}
