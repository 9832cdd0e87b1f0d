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
package io.dovetail.e2e.hdfs;

import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Flink SQL results as the HDFS tests compare them: rows, a procedure's named row, row ids. */
final class SqlResults {

    private SqlResults() {}

    /** Every row of {@code result}. */
    static List<Row> rows(TableResult result) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    /** The one row of a procedure's result, by column name. */
    static Map<String, Object> namedRow(TableResult result) throws Exception {
        List<String> columns = result.getResolvedSchema().getColumnNames();
        List<Row> rows = rows(result);
        assertThat(rows).hasSize(1);
        Map<String, Object> named = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            named.put(columns.get(i), rows.get(0).getField(i));
        }
        return named;
    }

    /** The rows without their last field ({@code _ROW_ID}), rendered by Flink and sorted. */
    static List<String> values(List<Row> rows) {
        List<String> values = new ArrayList<>();
        for (Row row : rows) {
            values.add(
                    Row.project(row, IntStream.range(0, row.getArity() - 1).toArray()).toString());
        }
        values.sort(null);
        return values;
    }

    /** {@code _ROW_ID} (the last field) by {@code id} (the first, a BIGINT). */
    static Map<Long, Object> rowIds(List<Row> rows) {
        Map<Long, Object> ids = new TreeMap<>();
        rows.forEach(row -> ids.put((Long) row.getField(0), row.getField(row.getArity() - 1)));
        return ids;
    }
}
