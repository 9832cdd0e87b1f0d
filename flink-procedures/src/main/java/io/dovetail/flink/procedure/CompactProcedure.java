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
import io.dovetail.flink.maintenance.CompactionJob;
import io.dovetail.table.TableStore;
import io.dovetail.table.maintenance.CompactionConfig;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.util.HashMap;
import java.util.Map;

/**
 * {@code CALL <catalog>.sys.compact(`table` => 'db.t', partitions => 'dt=a;dt=b' | where => "dt >
 * 'a'", options => 'k=v,..', parallelism => n, compact_strategy => 'minor' | 'full')}:
 * data-evolution compaction (semantics §8.1) of the selected partitions (all when neither is given)
 * as a distributed Flink batch job ({@link CompactionJob}: planned here, one rewriter task per task
 * at parallelism {@code min(tasks, parallelism)}, the environment's parallelism by default, one
 * committer). By default ({@code 'minor'}) it is column-selective: in each row-range group of at
 * least {@code compaction.min.file-num} files it rewrites only the columns more than one file holds
 * ({@link CompactionConfig.Rewrite#COLUMNS}); {@code 'full'} (Paimon's name) rewrites every column
 * and merges adjacent groups, packed by {@code target-file-size} and {@code
 * source.split.open-file-cost}. The table's options may be overridden by {@code options}. It
 * commits one COMPACT snapshot, or nothing when no task qualifies, and returns what it did.
 */
public final class CompactProcedure implements Procedure {

    static final String NAME = "compact";

    private final CatalogTables tables;

    CompactProcedure(CatalogTables tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "partitions",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "options", type = @DataTypeHint("STRING"), isOptional = true),
                @ArgumentHint(name = "where", type = @DataTypeHint("STRING"), isOptional = true),
                @ArgumentHint(name = "parallelism", type = @DataTypeHint("INT"), isOptional = true),
                @ArgumentHint(
                        name = "compact_strategy",
                        type = @DataTypeHint("STRING"),
                        isOptional = true)
            },
            output = @DataTypeHint(CompactionJob.OUTPUT))
    public Row[] call(
            ProcedureContext context,
            String table,
            String partitions,
            String options,
            String where,
            Integer parallelism,
            String compactStrategy)
            throws Exception {
        TableStore store = tables.open(table);
        Map<String, String> tableOptions = new HashMap<>(store.latestSchema().options());
        tableOptions.putAll(ProcedureArguments.keyValues("options", options));
        StreamExecutionEnvironment env = context.getExecutionEnvironment();
        CompactionJob job =
                new CompactionJob(
                        store,
                        PartitionSelection.of(env, store, partitions, where),
                        CompactionConfig.fromOptions(tableOptions)
                                .withRewrite(rewrite(compactStrategy)),
                        ProcedureArguments.positive(
                                "parallelism", parallelism, env.getParallelism()));
        return new Row[] {job.run(env)};
    }

    /** {@code 'minor'} (or none): column-selective; {@code 'full'}: every column. */
    static CompactionConfig.Rewrite rewrite(String compactStrategy) {
        if (compactStrategy == null || compactStrategy.trim().equalsIgnoreCase("minor")) {
            return CompactionConfig.Rewrite.COLUMNS;
        }
        if (compactStrategy.trim().equalsIgnoreCase("full")) {
            return CompactionConfig.Rewrite.FULL;
        }
        throw new ValidationException(
                "compact_strategy must be 'minor' (rewrite only the columns several files of a"
                        + " row-range group hold, the default) or 'full' (rewrite every column and"
                        + " merge adjacent groups), got '"
                        + compactStrategy
                        + "'.");
    }
}
