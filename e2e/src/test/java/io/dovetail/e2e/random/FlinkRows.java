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
package io.dovetail.e2e.random;

import org.apache.flink.types.Row;

import java.util.ArrayList;
import java.util.List;

/** Flink rows rendered like the model's: fields joined by {@code " | "}, rows as {@code {...}}. */
final class FlinkRows {

    private FlinkRows() {}

    static String render(Row row) {
        List<String> fields = new ArrayList<>();
        for (int i = 0; i < row.getArity(); i++) {
            fields.add(value(row.getField(i)));
        }
        return String.join(" | ", fields);
    }

    static List<String> render(List<Row> rows) {
        List<String> out = new ArrayList<>();
        for (Row row : rows) {
            out.add(render(row));
        }
        out.sort(null);
        return out;
    }

    private static String value(Object value) {
        if (value instanceof Row nested) {
            List<String> fields = new ArrayList<>();
            for (int i = 0; i < nested.getArity(); i++) {
                fields.add(value(nested.getField(i)));
            }
            return "{" + String.join(", ", fields) + "}";
        }
        return String.valueOf(value);
    }
}
