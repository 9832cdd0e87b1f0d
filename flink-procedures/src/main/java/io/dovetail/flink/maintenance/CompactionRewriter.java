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

import io.dovetail.table.TableStore;
import io.dovetail.table.maintenance.CompactionTask;
import io.dovetail.table.maintenance.CompactionTaskCodec;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.maintenance.RangeRewriter;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.core.fs.Path;

import java.util.List;

/**
 * One rewriter subtask of a compaction job: turns each task it receives (its index and bytes) into
 * its compacted file through the core {@link RangeRewriter}, and emits the task index, its own
 * subtask index and the compacted file's entry.
 */
final class CompactionRewriter
        extends RichMapFunction<Tuple2<Integer, byte[]>, Tuple3<Integer, Integer, byte[]>> {

    private static final long serialVersionUID = 1L;

    private final String table;
    private final long snapshotId;
    private final long schemaId;

    private transient TableStore store;

    CompactionRewriter(TablePaths table, DataEvolutionCompaction.Plan plan) {
        this.table = table.root().toString();
        this.snapshotId = plan.snapshotId();
        this.schemaId = plan.schemaId();
    }

    @Override
    public void open(OpenContext context) {
        store = TableStore.open(new TablePaths(new Path(table)));
    }

    @Override
    public Tuple3<Integer, Integer, byte[]> map(Tuple2<Integer, byte[]> indexedTask) {
        CompactionTask task = CompactionTaskCodec.taskFromBytes(indexedTask.f1);
        DataEvolutionCompaction.Plan plan =
                new DataEvolutionCompaction.Plan(snapshotId, schemaId, List.of(task));
        byte[] compacted =
                CompactionTaskCodec.toBytes(
                        RangeRewriter.of(store, plan, plan.tasks()).rewrite(task));
        return Tuple3.of(
                indexedTask.f0,
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                compacted);
    }
}
