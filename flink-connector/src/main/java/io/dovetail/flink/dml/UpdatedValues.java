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
package io.dovetail.flink.dml;

import io.dovetail.table.TableStore;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The new values of the updated columns inside an input row of a row-level writer (they start at
 * field {@code offset}), as a binary row of their own.
 */
public final class UpdatedValues {

    private final ProjectedRowData projection;
    private final RowDataSerializer serializer;
    private final RowData.FieldGetter[] getters;

    public UpdatedValues(TableStore store, List<String> columns, int offset) {
        LogicalType[] types =
                columns.stream()
                        .map(
                                c ->
                                        FlinkTypes.toFlink(
                                                store.latestSchema().field(c).orElseThrow().type()))
                        .toArray(LogicalType[]::new);
        projection =
                ProjectedRowData.from(IntStream.range(offset, offset + types.length).toArray());
        serializer = new RowDataSerializer(types);
        getters = new RowData.FieldGetter[types.length];
        for (int i = 0; i < types.length; i++) {
            getters[i] = RowData.createFieldGetter(types[i], i);
        }
    }

    /**
     * The updated columns' values in {@code row}, in the order of the columns; the returned row is
     * reused by the next call.
     */
    public BinaryRowData of(RowData row) {
        return serializer.toBinaryRow(projection.replaceRow(row));
    }

    /** The values of a copy, for messages. */
    public String describe(RowData values) {
        Object[] fields = new Object[getters.length];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = getters[i].getFieldOrNull(values);
        }
        return Arrays.toString(fields);
    }
}
