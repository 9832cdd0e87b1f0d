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

import io.dovetail.flink.sink.DovetailSink;
import io.dovetail.flink.sink.OverwriteScope;
import io.dovetail.flink.sink.SinkOptions;
import io.dovetail.table.error.Errors;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code INSERT INTO} and {@code INSERT OVERWRITE} of a Dovetail table: full rows go through {@link
 * DovetailSink}'s writers to its one committer. Only inserts are accepted; updates and deletes of
 * existing rows are row-level DML.
 */
final class DovetailTableSink implements DynamicTableSink, SupportsOverwrite, SupportsPartitioning {

    private final TablePaths table;
    private final TableSchema schema;
    private final Map<String, String> options;
    private boolean overwrite;
    private Map<String, String> staticPartition = Map.of();

    DovetailTableSink(TablePaths table, TableSchema schema, Map<String, String> options) {
        this.table = table;
        this.schema = schema;
        this.options = options;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        Configuration config = Configuration.fromMap(options);
        DovetailSink sink =
                DovetailSink.forRows(table, schema, options)
                        .parallelism(config.getOptional(SinkOptions.PARALLELISM).orElse(null))
                        .maxOpenPartitions(config.get(SinkOptions.MAX_OPEN_PARTITIONS))
                        .overwrite(overwrite ? OverwriteScope.of(staticPartition, options) : null)
                        .boundedInput(context.isBounded());
        return (DataStreamSinkProvider)
                (providerContext, rows) ->
                        sink.uids(name -> providerContext.generateUid(name).orElse(null))
                                .build(rows);
    }

    @Override
    public void applyOverwrite(boolean overwrite) {
        this.overwrite = overwrite;
    }

    @Override
    public void applyStaticPartition(Map<String, String> partition) {
        for (String key : partition.keySet()) {
            if (!schema.partitionKeys().contains(key)) {
                throw Errors.invalidArgument(
                        "'" + key + "' is not a partition key of " + schema.partitionKeys() + ".");
            }
        }
        this.staticPartition = new LinkedHashMap<>(partition);
    }

    @Override
    public boolean requiresPartitionGrouping(boolean supportsGrouping) {
        return false; // writers keep one file per open partition, bounded in number
    }

    @Override
    public DynamicTableSink copy() {
        DovetailTableSink copy = new DovetailTableSink(table, schema, options);
        copy.overwrite = overwrite;
        copy.staticPartition = staticPartition;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "Dovetail";
    }
}
