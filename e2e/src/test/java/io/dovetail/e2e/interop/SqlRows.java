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

import io.dovetail.table.testing.RenderedReads;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/** Flink SQL query results rendered like Paimon's rows ({@link RenderedReads#render}), sorted. */
final class SqlRows {

    private SqlRows() {}

    static List<String> rendered(TableEnvironment sql, String query) {
        TableResult result = sql.executeSql(query);
        Function<Row, String> renderer = renderer(result);
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(row -> out.add(renderer.apply(row)));
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** Renders the rows of {@code result} like Paimon's rows (the row kind left out). */
    static Function<Row, String> renderer(TableResult result) {
        DataType type = result.getResolvedSchema().toPhysicalRowDataType();
        @SuppressWarnings("unchecked")
        DataStructureConverter<Object, Object> converter =
                (DataStructureConverter<Object, Object>) DataStructureConverters.getConverter(type);
        converter.open(SqlRows.class.getClassLoader());
        RowType rowType = (RowType) type.getLogicalType();
        return row -> RenderedReads.render(rowType, (RowData) converter.toInternal(row));
    }
}
