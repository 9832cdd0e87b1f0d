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
import io.dovetail.table.snapshot.Consumers;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import javax.annotation.Nullable;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code CALL <catalog>.sys.clear_consumers(`table` => 'db.t'[, including_consumers => 'regex'][,
 * excluding_consumers => 'regex'])} (Paimon's arguments): removes the streaming consumers whose id
 * matches {@code including_consumers} (all without it) and not {@code excluding_consumers}, so they
 * no longer hold snapshots; running jobs' pins are kept. One row per removed consumer.
 */
public final class ClearConsumersProcedure implements Procedure {

    static final String NAME = "clear_consumers";

    private final CatalogTables tables;

    ClearConsumersProcedure(CatalogTables tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "including_consumers",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(
                        name = "excluding_consumers",
                        type = @DataTypeHint("STRING"),
                        isOptional = true)
            },
            output = @DataTypeHint("ROW<consumer_id STRING, next_snapshot_id BIGINT>"))
    public Row[] call(
            ProcedureContext context,
            String table,
            String includingConsumers,
            String excludingConsumers) {
        Pattern including = pattern("including_consumers", includingConsumers);
        Pattern excluding = pattern("excluding_consumers", excludingConsumers);
        return new Consumers(tables.open(table).paths())
                .clear(including, excluding).entrySet().stream()
                        .map(consumer -> Row.of(consumer.getKey(), consumer.getValue()))
                        .toArray(Row[]::new);
    }

    @Nullable
    private static Pattern pattern(String argument, @Nullable String regex) {
        if (regex == null || regex.isBlank()) {
            return null;
        }
        try {
            return Pattern.compile(regex.trim());
        } catch (PatternSyntaxException e) {
            throw new ValidationException(
                    argument + " must be a Java regular expression: " + e.getMessage());
        }
    }
}
