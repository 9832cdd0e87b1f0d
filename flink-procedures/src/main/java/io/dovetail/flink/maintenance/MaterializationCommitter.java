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

import io.dovetail.table.TableLoader;
import io.dovetail.table.maintenance.CompactionTaskCodec;
import io.dovetail.table.maintenance.DeletionVectorMaterialization;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Row;

import java.util.ArrayList;
import java.util.List;

/**
 * The one committer of a materialization job (parallelism 1): collects every group's rewritten
 * files and, at the end of input, commits them in the groups' row order as one COMPACT snapshot
 * through {@link DeletionVectorMaterialization#commit}, then emits the job's result row ({@link
 * MaterializationJob#OUTPUT}).
 */
final class MaterializationCommitter extends AbstractStreamOperator<Row>
        implements OneInputStreamOperator<Tuple3<Integer, Long, byte[][]>, Row>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final String commitUser;
    private final MaintenancePlanBytes plan;

    private transient DeletionVectorMaterialization.Rewritten[] rewritten;

    MaterializationCommitter(TablePaths table, String commitUser, MaintenancePlanBytes plan) {
        this.table = TableLoader.of(table);
        this.commitUser = commitUser;
        this.plan = plan;
    }

    @Override
    public void open() throws Exception {
        super.open();
        rewritten = new DeletionVectorMaterialization.Rewritten[plan.taskCount()];
    }

    @Override
    public void processElement(StreamRecord<Tuple3<Integer, Long, byte[][]>> element) {
        Tuple3<Integer, Long, byte[][]> group = element.getValue();
        List<ManifestEntry> files = new ArrayList<>();
        for (byte[] file : group.f2) {
            files.add(CompactionTaskCodec.entryFromBytes(file));
        }
        rewritten[group.f0] = new DeletionVectorMaterialization.Rewritten(files, group.f1);
    }

    @Override
    public void endInput() {
        List<DeletionVectorMaterialization.Rewritten> done = new ArrayList<>();
        for (DeletionVectorMaterialization.Rewritten group : rewritten) {
            if (group != null) {
                done.add(group);
            }
        }
        DeletionVectorMaterialization.Result result =
                new DeletionVectorMaterialization(table.open())
                        .commit(
                                commitUser,
                                MaterializationJob.COMMIT_IDENTIFIER,
                                plan.plan(DeletionVectorMaterialization.Plan::new),
                                done);
        output.collect(new StreamRecord<>(MaterializationJob.row(result)));
    }
}
