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

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A maintenance plan (a compaction's bins, a materialization's groups) as a job's operators carry
 * it: the pinned snapshot and schema ids and each task's bytes, in the plan's (row) order; a task's
 * index in it names the task in the job.
 */
final class MaintenancePlanBytes implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Builds a plan from its pinned snapshot, schema and tasks: a plan record's constructor. */
    @FunctionalInterface
    interface Factory<P> {
        P of(long snapshotId, long schemaId, List<CompactionTask> tasks);
    }

    private final long snapshotId;
    private final long schemaId;
    private final ArrayList<byte[]> tasks = new ArrayList<>();

    MaintenancePlanBytes(long snapshotId, long schemaId, List<CompactionTask> tasks) {
        this.snapshotId = snapshotId;
        this.schemaId = schemaId;
        tasks.forEach(t -> this.tasks.add(CompactionTaskCodec.toBytes(t)));
    }

    /** The snapshot the plan read, which the job pins. */
    long snapshotId() {
        return snapshotId;
    }

    int taskCount() {
        return tasks.size();
    }

    <P> P plan(Factory<P> factory) {
        List<CompactionTask> planned = new ArrayList<>();
        tasks.forEach(t -> planned.add(CompactionTaskCodec.taskFromBytes(t)));
        return factory.of(snapshotId, schemaId, planned);
    }
}
