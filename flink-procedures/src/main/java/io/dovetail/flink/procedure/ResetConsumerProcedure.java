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
import io.dovetail.table.snapshot.Consumers;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.util.OptionalLong;

/**
 * {@code CALL <catalog>.sys.reset_consumer(`table` => 'db.t', consumer_id => 'id'[,
 * next_snapshot_id => n])} (Paimon's arguments): sets where the streaming read with that {@code
 * consumer-id} goes on when it starts without state (snapshot {@code n}'s changes next), or without
 * {@code next_snapshot_id} removes the consumer so it no longer holds snapshots. Returns the
 * consumer's previous and new next snapshot (NULL: none).
 */
public final class ResetConsumerProcedure implements Procedure {

    static final String NAME = "reset_consumer";

    private final CatalogTables tables;

    ResetConsumerProcedure(CatalogTables tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "consumer_id", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "next_snapshot_id",
                        type = @DataTypeHint("BIGINT"),
                        isOptional = true)
            },
            output =
                    @DataTypeHint(
                            "ROW<consumer_id STRING, previous_next_snapshot_id BIGINT,"
                                    + " next_snapshot_id BIGINT>"))
    public Row[] call(
            ProcedureContext context, String table, String consumerId, Long nextSnapshotId) {
        if (consumerId == null || consumerId.isBlank()) {
            throw new ValidationException("reset_consumer needs a consumer_id.");
        }
        TableStore store = tables.open(table);
        Consumers consumers = new Consumers(store.paths());
        String id = consumerId.trim();
        OptionalLong previous;
        if (nextSnapshotId == null) {
            previous = consumers.position(id);
            if (previous.isEmpty()) {
                throw new ValidationException(
                        "Table " + table + " has no consumer '" + id + "' to remove.");
            }
            consumers.remove(id);
        } else {
            previous = consumers.reset(id, nextSnapshotId, store.snapshots());
        }
        return new Row[] {
            Row.of(id, previous.isPresent() ? previous.getAsLong() : null, nextSnapshotId)
        };
    }
}
