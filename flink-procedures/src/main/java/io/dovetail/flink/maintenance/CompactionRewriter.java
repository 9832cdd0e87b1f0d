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
import io.dovetail.table.maintenance.CompactionTask;
import io.dovetail.table.maintenance.CompactionTaskCodec;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.maintenance.RangeRewriter;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;

import java.util.List;

/**
 * One rewriter subtask of a compaction job: plans the read of the plan's tasks on the pinned
 * snapshot once, when it opens ({@link RangeRewriter#of}), then turns each task whose index it
 * receives into its compacted file, and emits the task index, its own subtask index and the
 * compacted file's entry.
 */
final class CompactionRewriter extends RichMapFunction<Integer, Tuple3<Integer, Integer, byte[]>> {

    private static final long serialVersionUID = 1L;

    /** The type of what a rewriter emits: task index, subtask index, compacted file's entry. */
    static final TypeInformation<Tuple3<Integer, Integer, byte[]>> OUTPUT =
            Types.TUPLE(Types.INT, Types.INT, Types.PRIMITIVE_ARRAY(Types.BYTE));

    private final TableLoader table;
    private final MaintenancePlanBytes plan;

    private transient List<CompactionTask> tasks;
    private transient RangeRewriter rewriter;

    CompactionRewriter(TablePaths table, MaintenancePlanBytes plan) {
        this.table = TableLoader.of(table);
        this.plan = plan;
    }

    @Override
    public void open(OpenContext context) {
        DataEvolutionCompaction.Plan planned = plan.plan(DataEvolutionCompaction.Plan::new);
        tasks = planned.tasks();
        rewriter = RangeRewriter.of(table.open(), planned);
    }

    @Override
    public Tuple3<Integer, Integer, byte[]> map(Integer task) {
        byte[] compacted = CompactionTaskCodec.toBytes(rewriter.rewrite(tasks.get(task)));
        return Tuple3.of(
                task, getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), compacted);
    }
}
