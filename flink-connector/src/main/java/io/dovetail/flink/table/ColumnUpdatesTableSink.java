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
package io.dovetail.flink.table;

import io.dovetail.flink.dml.RowLevelSink;
import io.dovetail.flink.sink.SinkOptions;
import io.dovetail.flink.system.SystemTableName;
import io.dovetail.table.error.Errors;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.SystemFields;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The sink of {@code INSERT INTO t$column_updates (_ROW_ID, c1, c2) SELECT ...}: a stream (or
 * batch) of column updates of {@code t} by {@code _ROW_ID} ({@link
 * RowLevelSink#forStreamingColumnUpdates}). The updated columns are exactly those of the INSERT's
 * column list besides {@code _ROW_ID}; a column list is required, so that no column is overwritten
 * with NULL by accident. {@code t$column_updates} has {@code _ROW_ID} and every column of {@code
 * t}.
 */
final class ColumnUpdatesTableSink implements DynamicTableSink {

    private final TablePaths table;
    private final RowType rowType;
    private final Map<String, String> options;

    ColumnUpdatesTableSink(TablePaths table, RowType rowType, Map<String, String> options) {
        this.table = table;
        this.rowType = rowType;
        this.options = Map.copyOf(options);
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        int[] positions = positions(context);
        List<String> columns = new ArrayList<>();
        List<LogicalType> types = new ArrayList<>();
        for (int position : positions) {
            columns.add(rowType.getFieldNames().get(position));
            types.add(rowType.getTypeAt(position));
        }
        RowType updates = RowType.of(types.toArray(LogicalType[]::new));
        Configuration config = Configuration.fromMap(options);
        RowLevelSink sink =
                RowLevelSink.forStreamingColumnUpdates(table, columns.subList(1, columns.size()))
                        .parallelism(config.getOptional(SinkOptions.PARALLELISM).orElse(null))
                        .bufferBytes(config.get(SinkOptions.COLUMN_UPDATES_BUFFER_SIZE).getBytes())
                        .boundedInput(context.isBounded());
        return (DataStreamSinkProvider)
                (providerContext, rows) ->
                        sink.uids(DovetailTableSink.uids(providerContext))
                                .build(
                                        rows.map(new Project(positions, rowType))
                                                .name("Dovetail column updates: _ROW_ID first")
                                                .returns(InternalTypeInfo.of(updates))
                                                // chained: no rebalance may reorder a row's updates
                                                .setParallelism(rows.getParallelism()));
    }

    /** The positions of {@code _ROW_ID} and then of the updated columns, from the column list. */
    private int[] positions(Context context) {
        String name =
                table.root().getName() + SystemTableName.SEPARATOR + SystemTableName.COLUMN_UPDATES;
        int[][] target =
                context.getTargetColumns()
                        .orElseThrow(
                                () ->
                                        Errors.invalidArgument(
                                                "INSERT INTO "
                                                        + name
                                                        + " needs a column list naming _ROW_ID and"
                                                        + " the columns to update, e.g. INSERT"
                                                        + " INTO "
                                                        + name
                                                        + " (_ROW_ID, c) SELECT ..."));
        int rowId = rowType.getFieldIndex(SystemFields.ROW_ID.name());
        List<Integer> positions = new ArrayList<>();
        positions.add(rowId);
        for (int[] path : target) {
            if (path[0] != rowId) {
                positions.add(path[0]);
            }
        }
        boolean rowIdListed = positions.size() == target.length;
        if (!rowIdListed || positions.size() == 1) {
            throw Errors.invalidArgument(
                    "The column list of INSERT INTO "
                            + name
                            + " must name _ROW_ID and at least one column to update; got "
                            + positions.stream().map(rowType.getFieldNames()::get).toList()
                            + ".");
        }
        return positions.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Picks {@code _ROW_ID} and the updated columns out of a full row of the sink. */
    private static final class Project implements MapFunction<RowData, RowData> {
        private static final long serialVersionUID = 1L;
        private final int[] positions;
        private final RowData.FieldGetter[] getters;

        Project(int[] positions, RowType type) {
            this.positions = positions;
            this.getters = new RowData.FieldGetter[positions.length];
            for (int i = 0; i < positions.length; i++) {
                getters[i] = RowData.createFieldGetter(type.getTypeAt(positions[i]), positions[i]);
            }
        }

        @Override
        public RowData map(RowData row) {
            GenericRowData out = new GenericRowData(positions.length);
            for (int i = 0; i < positions.length; i++) {
                out.setField(i, getters[i].getFieldOrNull(row));
            }
            return out;
        }
    }

    @Override
    public DynamicTableSink copy() {
        return new ColumnUpdatesTableSink(table, rowType, options);
    }

    @Override
    public String asSummaryString() {
        return "Dovetail column updates";
    }
}
