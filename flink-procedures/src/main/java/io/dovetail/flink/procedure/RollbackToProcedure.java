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
import io.dovetail.table.maintenance.SnapshotRollback;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.rollback_to(`table` => 'db.t', snapshot_id => n | tag => 'name')}
 * (Paimon's arguments): rolls the table back to an older snapshot, in the calling process, and
 * never moves {@code nextRowId} back, so row ids are never reused ({@link SnapshotRollback}: the
 * newer snapshots go as in Paimon, then a snapshot with the old content and the latest {@code
 * nextRowId} is committed). Writers must not run meanwhile.
 */
public final class RollbackToProcedure implements Procedure {

    static final String NAME = "rollback_to";

    private final CatalogTables tables;

    RollbackToProcedure(CatalogTables tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "tag", type = @DataTypeHint("STRING"), isOptional = true),
                @ArgumentHint(
                        name = "snapshot_id",
                        type = @DataTypeHint("BIGINT"),
                        isOptional = true)
            },
            output =
                    @DataTypeHint(
                            "ROW<previous_snapshot_id BIGINT, current_snapshot_id BIGINT,"
                                    + " rolled_back_to BIGINT, next_row_id BIGINT,"
                                    + " deleted_snapshots BIGINT, deleted_tags BIGINT,"
                                    + " deleted_data_files BIGINT, deleted_metadata_files"
                                    + " BIGINT>"))
    public Row[] call(ProcedureContext context, String table, String tag, Long snapshotId) {
        boolean byTag = tag != null && !tag.isBlank();
        if (byTag == (snapshotId != null)) {
            throw new ValidationException(
                    "rollback_to needs exactly one of snapshot_id and tag, got "
                            + (byTag ? "both" : "neither")
                            + ".");
        }
        SnapshotRollback rollback = new SnapshotRollback(tables.open(table));
        SnapshotRollback.Result result =
                byTag ? rollback.toTag(tag.trim()) : rollback.toSnapshot(snapshotId);
        return new Row[] {
            Row.of(
                    result.previousLatest(),
                    result.snapshotId(),
                    result.rolledBackTo(),
                    result.nextRowId(),
                    (long) result.deletedSnapshots(),
                    (long) result.deletedTags(),
                    (long) result.deletedDataFiles(),
                    (long) result.deletedMetadataFiles())
        };
    }
}
