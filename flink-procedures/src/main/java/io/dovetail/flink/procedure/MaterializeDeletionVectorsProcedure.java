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
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.maintenance.DeletionVectorMaterialization;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.util.UUID;

/**
 * {@code CALL <catalog>.sys.materialize_deletion_vectors(`table` => 'db.t', confirm => true,
 * partitions => 'dt=a;dt=b' | where => "dt > 'a'")}: rewrites every row-range group with a deletion
 * vector into its surviving rows, which get NEW row ids ({@link DeletionVectorMaterialization},
 * semantics §8.4), as one COMPACT snapshot, and reports the groups rewritten and the rows kept and
 * removed. Because row ids change, it refuses to run without {@code confirm => true}. It runs in
 * the calling process: groups are read and written one after another (unlike {@code compact}, no
 * distributed job yet).
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
                @ArgumentHint(name = "confirm", type = @DataTypeHint("BOOLEAN"), isOptional = true)
            },
            output =
                    @DataTypeHint(
                            "ROW<groups_rewritten BIGINT, rows_kept BIGINT, rows_removed BIGINT,"
                                    + " files_written BIGINT, files_removed BIGINT, snapshot_id"
                                    + " BIGINT>"))
    public Row[] call(
            ProcedureContext context,
            String table,
            String partitions,
            String where,
            Boolean confirm) {
        if (!Boolean.TRUE.equals(confirm)) {
            throw new ValidationException(
                    "materialize_deletion_vectors gives the surviving rows of every group with"
                            + " deleted rows NEW row ids, so _ROW_IDs seen before no longer"
                            + " identify them; pass confirm => true to run it.");
        }
        TableStore store = tables.open(table);
        DeletionVectorMaterialization.Result result =
                new DeletionVectorMaterialization(store)
                        .materialize(
                                "dovetail-materialize-" + UUID.randomUUID(),
                                CommitRequest.BATCH_IDENTIFIER,
                                PartitionSelection.of(
                                        context.getExecutionEnvironment(),
                                        store,
                                        partitions,
                                        where));
        return new Row[] {
            Row.of(
                    (long) result.groupsRewritten(),
                    result.rowsKept(),
                    result.rowsRemoved(),
                    (long) result.filesWritten(),
                    (long) result.filesRemoved(),
                    result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null)
        };
    }
}
