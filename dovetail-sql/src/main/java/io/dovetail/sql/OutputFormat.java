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

import org.apache.flink.table.utils.print.PrintStyle;

import java.io.PrintWriter;
import java.util.Locale;

/** How query results are printed: {@code --format table|csv|json}. */
enum OutputFormat {
    /** Flink's tableau style; in streaming mode with an {@code op} column, row by row. */
    TABLE {
        @Override
        void print(StatementResult result, boolean changelog, PrintWriter out) {
            PrintStyle style =
                    changelog
                            ? PrintStyle.tableauWithTypeInferredColumnWidths(
                                    result.schema(),
                                    result.converter(),
                                    PrintStyle.DEFAULT_MAX_COLUMN_WIDTH,
                                    false,
                                    true)
                            : PrintStyle.tableauWithDataInferredColumnWidths(
                                    result.schema(),
                                    result.converter(),
                                    PrintStyle.DEFAULT_MAX_COLUMN_WIDTH,
                                    false,
                                    false);
            style.print(result, out);
        }
    },
    /** {@link CsvRows}: a header line, then one line per row. */
    CSV {
        @Override
        void print(StatementResult result, boolean changelog, PrintWriter out) {
            new CsvRows(result.schema(), result.converter(), changelog).print(result, out);
        }
    },
    /** {@link JsonRows}: one JSON object per line and row. */
    JSON {
        @Override
        void print(StatementResult result, boolean changelog, PrintWriter out) {
            new JsonRows(result.schema(), result.converter(), changelog).print(result, out);
        }
    };

    /**
     * Prints every row of {@code result}; with {@code changelog} (streaming mode) each row carries
     * its kind ({@code +I}, {@code -U}, {@code +U}, {@code -D}) first, in a column {@code op}.
     */
    abstract void print(StatementResult result, boolean changelog, PrintWriter out);

    /** Whether status lines of DDL and DML go to stdout (else stderr, keeping stdout data only). */
    boolean statusOnStdout() {
        return this == TABLE;
    }

    static OutputFormat parse(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new SqlScriptException(
                    "Unknown --format '" + name + "': use table, csv or json.");
        }
    }
}
