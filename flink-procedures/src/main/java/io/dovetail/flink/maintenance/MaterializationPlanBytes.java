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
package io.dovetail.flink.maintenance;

import io.dovetail.table.maintenance.CompactionTask;
import io.dovetail.table.maintenance.CompactionTaskCodec;
import io.dovetail.table.maintenance.DeletionVectorMaterialization;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A materialization plan as the job's operators carry it: the pinned snapshot and schema ids and
 * each group's bytes, in the plan's (row) order; a group's index in it names the group in the job.
 */
final class MaterializationPlanBytes implements Serializable {

    private static final long serialVersionUID = 1L;

    private final long snapshotId;
    private final long schemaId;
    private final ArrayList<byte[]> groups = new ArrayList<>();

    MaterializationPlanBytes(DeletionVectorMaterialization.Plan plan) {
        this.snapshotId = plan.snapshotId();
        this.schemaId = plan.schemaId();
        plan.groups().forEach(g -> groups.add(CompactionTaskCodec.toBytes(g)));
    }

    int groupCount() {
        return groups.size();
    }

    DeletionVectorMaterialization.Plan plan() {
        List<CompactionTask> planned = new ArrayList<>();
        groups.forEach(g -> planned.add(CompactionTaskCodec.taskFromBytes(g)));
        return new DeletionVectorMaterialization.Plan(snapshotId, schemaId, planned);
    }
}
