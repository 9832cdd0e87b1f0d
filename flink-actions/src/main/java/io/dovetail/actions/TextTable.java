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
package io.dovetail.actions;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Rows of text printed as left-aligned columns, two spaces apart. */
final class TextTable {

    private final List<String[]> rows = new ArrayList<>();

    TextTable(String... headers) {
        rows.add(headers);
    }

    TextTable add(Object... cells) {
        if (cells.length != rows.get(0).length) {
            throw new IllegalArgumentException(
                    "Expected " + rows.get(0).length + " cells, got " + cells.length);
        }
        String[] row = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            row[i] = cells[i] == null ? "-" : cells[i].toString();
        }
        rows.add(row);
        return this;
    }

    /** Prints the header and the rows, each line starting with {@code indent}. */
    void print(PrintStream out, String indent) {
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder(indent);
            for (int i = 0; i < row.length; i++) {
                line.append(row[i]);
                if (i < row.length - 1) {
                    line.append(" ".repeat(widths[i] - row[i].length() + 2));
                }
            }
            out.println(line);
        }
    }
}
