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

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * A query of one table through one engine's catalog ({@code <engine>.`default`}) in a session
 * holding both, rows rendered as {@code +I[v1, v2]} (bytes as hex, arrays element by element) and
 * sorted, so both engines' reads compare with one assertion.
 */
final class EngineReads {

    private EngineReads() {}

    /**
     * {@code SELECT <projection> FROM <table>} through {@code engine}; a projection ending in
     * {@code --} is the whole rest of the query, its {@code FROM} clause naming the table.
     */
    static List<String> read(TableEnvironment sql, String engine, String table, String projection)
            throws Exception {
        String query =
                projection.endsWith("--")
                        ? "SELECT "
                                + projection
                                        .replace("--", "")
                                        .replace(" FROM `", " FROM " + engine + ".`default`.`")
                                        .replace(
                                                " FROM " + table,
                                                " FROM " + engine + ".`default`." + table)
                        : "SELECT " + projection + " FROM " + engine + ".`default`." + table;
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
            while (it.hasNext()) {
                Row row = it.next();
                List<String> fields = new ArrayList<>();
                for (int i = 0; i < row.getArity(); i++) {
                    fields.add(render(row.getField(i)));
                }
                rows.add(row.getKind().shortString() + "[" + String.join(", ", fields) + "]");
            }
        }
        rows.sort(null);
        return rows;
    }

    private static String render(Object value) {
        if (value instanceof byte[] bytes) {
            return HexFormat.of().formatHex(bytes);
        }
        if (value instanceof Object[] array) {
            return Arrays.toString(array);
        }
        return String.valueOf(value);
    }
}
