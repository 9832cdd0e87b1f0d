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
import io.dovetail.table.maintenance.GlobalIndexBuild;

import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

import java.util.UUID;

/**
 * {@code CALL <catalog>.sys.drop_global_index(`table` => 'db.t', index_column => 'k', index_type =>
 * 'btree', partitions => 'dt=a;dt=b', dry_run => true)}: Paimon's procedure and arguments: drops
 * the live global index files of that column and type in the selected partitions (all by default)
 * in one snapshot, in the calling process; {@code dry_run} only counts them. The files stay on disk
 * until the snapshots that reference them expire.
 */
public final class DropGlobalIndexProcedure implements Procedure {

    static final String NAME = "drop_global_index";

    private final CatalogTables tables;

    DropGlobalIndexProcedure(CatalogTables tables) {
        this.tables = tables;
    }

    @ProcedureHint(
            argument = {
                @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "index_column", type = @DataTypeHint("STRING")),
                @ArgumentHint(name = "index_type", type = @DataTypeHint("STRING")),
                @ArgumentHint(
                        name = "partitions",
                        type = @DataTypeHint("STRING"),
                        isOptional = true),
                @ArgumentHint(name = "dry_run", type = @DataTypeHint("BOOLEAN"), isOptional = true)
            },
            output = @DataTypeHint("ROW<index_files BIGINT, dropped BOOLEAN>"))
    public Row[] call(
            ProcedureContext context,
            String table,
            String indexColumn,
            String indexType,
            String partitions,
            Boolean dryRun) {
        TableStore store = tables.open(table);
        boolean dry = dryRun != null && dryRun;
        int files =
                GlobalIndexBuild.drop(
                                store,
                                indexColumn,
                                indexType,
                                PartitionSelection.of(
                                        context.getExecutionEnvironment(), store, partitions, null),
                                dry,
                                "dovetail-drop-global-index-" + UUID.randomUUID())
                        .size();
        return new Row[] {Row.of((long) files, !dry && files > 0)};
    }
}
