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

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.util.List;

/**
 * {@code CALL <catalog>.sys.data_evolution_merge(target => 'db.t', source => 'db.s' | 'SELECT ..',
 * merge_condition => 't.id = s.id', matched_update_set => 'caption = s.caption' | '*', ...)}:
 * updates, deletes and inserts rows of a data-evolution table from a source in one atomic commit
 * ({@link MergeJob}). Matched rows for which {@code matched_delete_condition} holds are deleted,
 * other matched rows get {@code matched_update_set}; source rows without a match are inserted with
 * {@code not_matched_insert_values}; target rows without a match for which {@code
 * not_matched_by_source_delete_condition} holds are deleted. A target row matched by two source
 * rows fails the merge; {@code on_stale_row_id} ('error' or 'skip') decides about source row ids of
 * a self-merge that are in no live range.
 */
public final class MergeProcedure implements Procedure {

    static final String NAME = "data_evolution_merge";

    private final MergeJob job;

    MergeProcedure(CatalogTables tables) {
        this.job = new MergeJob(tables);
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "target", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "source", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "target_alias",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(
                        name = "source_alias",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "merge_condition", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "matched_update_set",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(
                        name = "matched_delete_condition",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(
                        name = "not_matched_insert_values",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(
                        name = "not_matched_by_source_delete_condition",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(
                        name = "on_stale_row_id",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "parallelism", type = @DataTypeHint("INT"), isOptional = true)
            },
            output = @DataTypeHint(MergeContract.RESULT_TYPE))
    public Row[] call(
            ProcedureContext context,
            String target,
            String source,
            String targetAlias,
            String sourceAlias,
            String mergeCondition,
            String matchedUpdateSet,
            String matchedDeleteCondition,
            String notMatchedInsertValues,
            String notMatchedBySourceDeleteCondition,
            String onStaleRowId,
            Integer parallelism)
            throws Exception {
        MergeSpec spec =
                new MergeSpec(
                        target,
                        source,
                        List.of(),
                        targetAlias,
                        sourceAlias,
                        mergeCondition,
                        matchedUpdateSet,
                        matchedDeleteCondition,
                        notMatchedInsertValues,
                        notMatchedBySourceDeleteCondition,
                        StaleRowIds.parse(onStaleRowId),
                        parallelism);
        return new Row[] {job.run(context.getExecutionEnvironment(), spec)};
    }
}
