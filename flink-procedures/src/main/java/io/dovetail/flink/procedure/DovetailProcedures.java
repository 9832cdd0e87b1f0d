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
import io.dovetail.flink.catalog.ProcedureProvider;

import org.apache.flink.table.procedures.Procedure;

import java.util.Map;

/**
 * Dovetail's procedures, by name: {@code expire_snapshots}, {@code compact}, {@code rollback_to},
 * {@code reset_consumer}, {@code clear_consumers}, {@code materialize_deletion_vectors}, {@code
 * data_evolution_merge}, Paimon's {@code data_evolution_merge_into}, {@code create_global_index},
 * {@code drop_global_index} and {@code remove_orphan_files}. Register a new procedure here (one
 * entry per name); it parses its arguments and calls a job builder of the connector.
 */
public final class DovetailProcedures implements ProcedureProvider {

    @Override
    public Map<String, Procedure> procedures(CatalogTables tables) {
        return Map.ofEntries(
                Map.entry(ExpireSnapshotsProcedure.NAME, new ExpireSnapshotsProcedure(tables)),
                Map.entry(CompactProcedure.NAME, new CompactProcedure(tables)),
                Map.entry(RollbackToProcedure.NAME, new RollbackToProcedure(tables)),
                Map.entry(ResetConsumerProcedure.NAME, new ResetConsumerProcedure(tables)),
                Map.entry(ClearConsumersProcedure.NAME, new ClearConsumersProcedure(tables)),
                Map.entry(MergeProcedure.NAME, new MergeProcedure(tables)),
                Map.entry(MergeIntoProcedure.NAME, new MergeIntoProcedure(tables)),
                Map.entry(
                        MaterializeDeletionVectorsProcedure.NAME,
                        new MaterializeDeletionVectorsProcedure(tables)),
                Map.entry(CreateGlobalIndexProcedure.NAME, new CreateGlobalIndexProcedure(tables)),
                Map.entry(DropGlobalIndexProcedure.NAME, new DropGlobalIndexProcedure(tables)),
                Map.entry(RemoveOrphanFilesProcedure.NAME, new RemoveOrphanFilesProcedure(tables)));
    }
}
