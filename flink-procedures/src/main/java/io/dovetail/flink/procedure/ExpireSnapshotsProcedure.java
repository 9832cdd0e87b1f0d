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
import io.dovetail.table.maintenance.ExpireConfig;
import io.dovetail.table.maintenance.SnapshotExpiry;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.time.Duration;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code CALL <catalog>.sys.expire_snapshots(`table` => 'db.t', retain_max => .., retain_min => ..,
 * older_than => 'yyyy-MM-dd HH:mm:ss', max_deletes => .., options => 'k=v,..')}: expires old
 * snapshots and deletes the files only they referenced ({@link SnapshotExpiry}), in the calling
 * process. Arguments left out come from the table's {@code snapshot.*} options (overridden by
 * {@code options}); {@code older_than}, read in the JVM's time zone as Paimon does, replaces {@code
 * snapshot.time-retained}; {@code max_deletes} caps the snapshots expired.
 */
public final class ExpireSnapshotsProcedure implements Procedure {

    static final String NAME = "expire_snapshots";

    private final CatalogTables tables;

    ExpireSnapshotsProcedure(CatalogTables tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "retain_max", type = @DataTypeHint("INT"), isOptional = true),
                @ArgumentHint(name = "retain_min", type = @DataTypeHint("INT"), isOptional = true),
                @ArgumentHint(
                        name = "older_than",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "max_deletes", type = @DataTypeHint("INT"), isOptional = true),
                @ArgumentHint(name = "options", type = @DataTypeHint("STRING"), isOptional = true)
            },
            output =
                    @DataTypeHint(
                            "ROW<expired_snapshots BIGINT, earliest_snapshot BIGINT,"
                                    + " deleted_data_files BIGINT, deleted_metadata_files BIGINT>"))
    public Row[] call(
            ProcedureContext context,
            String table,
            Integer retainMax,
            Integer retainMin,
            String olderThan,
            Integer maxDeletes,
            String options) {
        TableStore store = tables.open(table);
        Map<String, String> tableOptions = new HashMap<>(store.latestSchema().options());
        tableOptions.putAll(ProcedureArguments.keyValues("options", options));
        ExpireConfig config = config(ExpireConfig.fromOptions(tableOptions), retainMax, retainMin);
        config =
                config.withMaxExpires(
                        ProcedureArguments.positive(
                                "max_deletes", maxDeletes, config.maxExpires()));
        long now = System.currentTimeMillis();
        if (olderThan != null) {
            config = config.withTimeRetained(Duration.ZERO);
            now =
                    ProcedureArguments.timestampMillis(
                            "older_than", olderThan, ZoneId.systemDefault());
        }
        SnapshotExpiry.Result result = new SnapshotExpiry(store).expire(config, now);
        return new Row[] {
            Row.of(
                    (long) result.expiredSnapshots(),
                    result.earliestSnapshot(),
                    (long) result.deletedDataFiles(),
                    (long) result.deletedMetadataFiles())
        };
    }

    /** The table's bounds with the given ones applied; a conflict names where each came from. */
    private static ExpireConfig config(ExpireConfig table, Integer retainMax, Integer retainMin) {
        int min = ProcedureArguments.positive("retain_min", retainMin, table.retainMin());
        int max = ProcedureArguments.positive("retain_max", retainMax, table.retainMax());
        if (max < min) {
            throw new ValidationException(
                    "retain_max ("
                            + max
                            + (retainMax == null ? ", the table's snapshot.num-retained.max" : "")
                            + ") must be at least retain_min ("
                            + min
                            + (retainMin == null ? ", the table's snapshot.num-retained.min" : "")
                            + ").");
        }
        return new ExpireConfig(
                min, max, table.timeRetained(), table.maxExpires(), table.consumerLifetime());
    }
}
