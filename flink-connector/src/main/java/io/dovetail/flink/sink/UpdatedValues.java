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
package io.dovetail.flink.sink;

import io.dovetail.table.TableStore;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.List;

/**
 * The new values of the updated columns inside an input row of a row-level writer (they start at
 * field {@code offset}), copied out of the row so it can be buffered.
 */
final class UpdatedValues {

    private final RowData.FieldGetter[] getters;
    private final RowDataSerializer copier;

    UpdatedValues(TableStore store, List<String> columns, int offset) {
        LogicalType[] types =
                columns.stream()
                        .map(
                                c ->
                                        FlinkTypes.toFlink(
                                                store.latestSchema().field(c).orElseThrow().type()))
                        .toArray(LogicalType[]::new);
        getters = new RowData.FieldGetter[types.length];
        for (int i = 0; i < types.length; i++) {
            getters[i] = RowData.createFieldGetter(types[i], offset + i);
        }
        copier = new RowDataSerializer(types);
    }

    /** A copy of the updated columns' values in {@code row}, in the order of the columns. */
    RowData copyOf(RowData row) {
        GenericRowData values = new GenericRowData(getters.length);
        for (int i = 0; i < getters.length; i++) {
            values.setField(i, getters[i].getFieldOrNull(row));
        }
        return copier.copy(values);
    }
}
