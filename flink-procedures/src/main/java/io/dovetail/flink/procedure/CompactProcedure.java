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
import io.dovetail.table.TableStore;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.schema.TableSchema;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * {@code CALL <catalog>.sys.compact(`table` => 'db.t', partitions => 'dt=a;dt=b', options =>
 * 'k=v,..')}: data-evolution compaction ({@link DataEvolutionCompaction}, semantics §8.1) of the
 * selected partitions (all when absent), packed by the table's {@code target-file-size}, {@code
 * source.split.open-file-cost} and {@code compaction.min.file-num} as overridden by {@code
 * options}. It runs in the calling process (the SQL client or gateway session), not yet as a
 * distributed Flink job, and commits one COMPACT snapshot, or nothing when no task qualifies.
 */
public final class CompactProcedure implements Procedure {

    static final String NAME = "compact";

    /** Paimon's identifier for a one-off batch commit; each call has its own commit user. */
    private static final long COMMIT_IDENTIFIER = Long.MAX_VALUE;

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
                @ArgumentHint(name = "options", type = @DataTypeHint("STRING"), isOptional = true)
            },
            output =
                    @DataTypeHint(
                            "ROW<files_written BIGINT, files_rewritten BIGINT, bytes_rewritten"
                                    + " BIGINT, bytes_written BIGINT, snapshot_id BIGINT>"))
    public Row[] call(ProcedureContext context, String table, String partitions, String options) {
        TableStore store = tables.open(table);
        TableSchema schema = store.latestSchema();
        Map<String, String> tableOptions = new HashMap<>(schema.options());
        tableOptions.putAll(ProcedureArguments.keyValues("options", options));
        DataEvolutionCompaction.Result result =
                new DataEvolutionCompaction(store)
                        .compact(
                                "dovetail-compact-" + UUID.randomUUID(),
                                COMMIT_IDENTIFIER,
                                PartitionPaths.of(schema)
                                        .matchingAny(ProcedureArguments.partitions(partitions)),
                                CompactionConfig.fromOptions(tableOptions));
        return new Row[] {
            Row.of(
                    (long) result.tasks(),
                    (long) result.filesRewritten(),
                    result.bytesRewritten(),
                    result.bytesWritten(),
                    result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null)
        };
    }
}
