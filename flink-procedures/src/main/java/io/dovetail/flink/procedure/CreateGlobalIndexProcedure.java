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
package io.dovetail.flink.procedure;

import io.dovetail.flink.catalog.CatalogTables;
import io.dovetail.flink.maintenance.GlobalIndexJob;
import io.dovetail.table.TableStore;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.create_global_index(`table` => 'db.t', index_column => 'k', index_type
 * => 'btree', partitions => 'dt=a;dt=b', options => 'k=v,..', parallelism => n)}: Apache Paimon
 * 1.4.2's procedure and arguments (and Dovetail's {@code parallelism}): builds B-tree ({@code
 * 'btree'}) or bitmap ({@code 'bitmap'}) index files of the column for the rows of the selected
 * partitions (all by default) that no index of that type and column covers yet, as a distributed
 * Flink batch job ({@link GlobalIndexJob}), in the format Paimon reads; {@code options} override
 * table options such as {@code btree-index.records-per-range} and {@code
 * global-index.row-count-per-shard}. Returns what it did.
 */
public final class CreateGlobalIndexProcedure implements Procedure {

    static final String NAME = "create_global_index";

    private final CatalogTables tables;

    CreateGlobalIndexProcedure(CatalogTables tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "index_column", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "index_type", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "partitions",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "options", type = @DataTypeHint("STRING"), isOptional = true),
                @ArgumentHint(name = "parallelism", type = @DataTypeHint("INT"), isOptional = true)
            },
            output = @DataTypeHint(GlobalIndexJob.OUTPUT))
    public Row[] call(
            ProcedureContext context,
            String table,
            String indexColumn,
            String indexType,
            String partitions,
            String options,
            Integer parallelism)
            throws Exception {
        TableStore store = tables.open(table);
        StreamExecutionEnvironment env = context.getExecutionEnvironment();
        GlobalIndexJob job =
                new GlobalIndexJob(
                        store,
                        indexColumn,
                        indexType,
                        PartitionSelection.of(env, store, partitions, null),
                        ProcedureArguments.keyValues("options", options),
                        ProcedureArguments.positive(
                                "parallelism", parallelism, env.getParallelism()));
        return new Row[] {job.run(env)};
    }
}
