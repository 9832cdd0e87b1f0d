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
import io.dovetail.flink.dml.StaleRowIds;
import io.dovetail.flink.merge.MergeContract;
import io.dovetail.flink.merge.MergeJob;
import io.dovetail.flink.merge.MergeSpec;
import io.dovetail.flink.sql.SqlFragments;
import io.dovetail.flink.sql.TableName;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.util.List;

/**
 * {@code CALL <catalog>.sys.data_evolution_merge_into(target_table, target_alias, source_sqls,
 * source_table, merge_condition, matched_update_set, sink_parallelism)}: Apache Paimon's merge
 * procedure, with Paimon's argument names and meaning (matched updates only; the target is named in
 * the condition by {@code target_alias} or else its table name, the source by its table name;
 * {@code source_sqls} are {@code ;}-separated statements run first, e.g. temporary views), run by
 * Dovetail's merge job ({@link MergeJob}): a target row matched twice is an error instead of an
 * arbitrary pick, and the result does not depend on the join strategy.
 */
public final class MergeIntoProcedure implements Procedure {

    static final String NAME = "data_evolution_merge_into";

    private final MergeJob job;

    MergeIntoProcedure(CatalogTables tables) {
        this.job = new MergeJob(tables);
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "target_table", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "target_alias",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(
                        name = "source_sqls",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "source_table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "merge_condition", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "matched_update_set", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "sink_parallelism",
                        type = @DataTypeHint("INT"),
                        isOptional = true)
            },
            output = @DataTypeHint(MergeContract.RESULT_TYPE))
    public Row[] call(
            ProcedureContext context,
            String targetTable,
            String targetAlias,
            String sourceSqls,
            String sourceTable,
            String mergeCondition,
            String matchedUpdateSet,
            Integer sinkParallelism)
            throws Exception {
        if (matchedUpdateSet == null || matchedUpdateSet.isBlank()) {
            throw new ValidationException("matched_update_set is required.");
        }
        String target = targetTable == null ? "" : targetTable.trim();
        String source = sourceTable == null ? "" : sourceTable.trim();
        String alias =
                targetAlias == null || targetAlias.isBlank()
                        ? lastPart("target_table", target)
                        : targetAlias.trim();
        MergeSpec spec =
                new MergeSpec(
                        target,
                        source,
                        statements(sourceSqls),
                        alias,
                        lastPart("source_table", source),
                        mergeCondition,
                        matchedUpdateSet,
                        null,
                        null,
                        null,
                        StaleRowIds.SKIP, // Paimon drops row ids outside the table
                        sinkParallelism);
        return new Row[] {job.run(context.getExecutionEnvironment(), spec)};
    }

    /** The table of a table name (Paimon's default alias), blank for a blank one. */
    private static String lastPart(String argument, String name) {
        return name.isBlank() ? "" : TableName.parse(argument, name).table();
    }

    private static List<String> statements(String sourceSqls) {
        return sourceSqls == null ? List.of() : SqlFragments.statements("source_sqls", sourceSqls);
    }
}
