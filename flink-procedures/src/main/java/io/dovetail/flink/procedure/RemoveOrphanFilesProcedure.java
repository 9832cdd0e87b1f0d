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
import io.dovetail.table.maintenance.OrphanFiles;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.time.Duration;
import java.time.ZoneId;

/**
 * {@code CALL <catalog>.sys.remove_orphan_files(`table` => 'db.t', older_than => 'yyyy-MM-dd
 * HH:mm:ss', dry_run => true)}: Paimon's procedure: deletes the files of the table's data, manifest
 * and index directories that no snapshot or tag references and that were last modified before
 * {@code older_than} (read in the JVM's time zone; default one day ago, Paimon's), in the calling
 * process ({@link OrphanFiles}); {@code dry_run} only lists them.
 */
public final class RemoveOrphanFilesProcedure implements Procedure {

    static final String NAME = "remove_orphan_files";

    private static final Duration DEFAULT_AGE = Duration.ofDays(1);

    private final CatalogTables tables;

    RemoveOrphanFilesProcedure(CatalogTables tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "older_than",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "dry_run", type = @DataTypeHint("BOOLEAN"), isOptional = true)
            },
            output =
                    @DataTypeHint("ROW<orphan_files BIGINT, orphan_bytes BIGINT, deleted BOOLEAN>"))
    public Row[] call(ProcedureContext context, String table, String olderThan, Boolean dryRun) {
        long before =
                olderThan == null
                        ? System.currentTimeMillis() - DEFAULT_AGE.toMillis()
                        : ProcedureArguments.timestampMillis(
                                "older_than", olderThan, ZoneId.systemDefault());
        boolean dry = dryRun != null && dryRun;
        OrphanFiles.Result result = new OrphanFiles(tables.open(table)).remove(before, dry);
        return new Row[] {Row.of((long) result.files().size(), result.bytes(), !dry)};
    }
}
