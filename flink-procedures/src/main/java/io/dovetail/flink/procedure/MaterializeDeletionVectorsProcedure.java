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
import io.dovetail.flink.maintenance.MaterializationJob;
import io.dovetail.table.TableStore;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.materialize_deletion_vectors(`table` => 'db.t', confirm => true,
 * partitions => 'dt=a;dt=b' | where => "dt > 'a'", parallelism => n)}: rewrites every row-range
 * group with a deletion vector into its surviving rows, which get NEW row ids (semantics §8.4), as
 * one COMPACT snapshot, and reports the groups rewritten and the rows kept and removed. Because row
 * ids change, it refuses to run without {@code confirm => true}. It runs as a distributed batch job
 * ({@link MaterializationJob}: one rewriter task per group, one committer).
 */
public final class MaterializeDeletionVectorsProcedure implements Procedure {

    static final String NAME = "materialize_deletion_vectors";

    private final CatalogTables tables;

    MaterializeDeletionVectorsProcedure(CatalogTables tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "partitions",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "where", type = @DataTypeHint("STRING"), isOptional = true),
                @ArgumentHint(name = "confirm", type = @DataTypeHint("BOOLEAN"), isOptional = true),
                @ArgumentHint(name = "parallelism", type = @DataTypeHint("INT"), isOptional = true)
            },
            output = @DataTypeHint(MaterializationJob.OUTPUT))
    public Row[] call(
            ProcedureContext context,
            String table,
            String partitions,
            String where,
            Boolean confirm,
            Integer parallelism)
            throws Exception {
        if (!Boolean.TRUE.equals(confirm)) {
            throw new ValidationException(
                    "materialize_deletion_vectors gives the surviving rows of every group with"
                            + " deleted rows NEW row ids, so _ROW_IDs seen before no longer"
                            + " identify them; pass confirm => true to run it.");
        }
        TableStore store = tables.open(table);
        StreamExecutionEnvironment env = context.getExecutionEnvironment();
        MaterializationJob job =
                new MaterializationJob(
                        store,
                        PartitionSelection.of(env, store, partitions, where),
                        ProcedureArguments.positive(
                                "parallelism", parallelism, env.getParallelism()));
        return new Row[] {job.run(env)};
    }
}
