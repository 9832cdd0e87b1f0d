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
import io.dovetail.table.maintenance.DeletionVectorMaterialization;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.metrics.Counter;

import java.util.List;

/**
 * One rewriter subtask of a materialization job: plans the read of the plan's groups on the pinned
 * snapshot once, when it opens ({@link DeletionVectorMaterialization#rewriter}), then writes the
 * surviving rows of each group whose index it receives, counts the groups and rows done (the job's
 * progress), and emits the group index, rows kept and the written files' entries.
 */
final class MaterializationRewriter
        extends RichMapFunction<Integer, Tuple3<Integer, Long, byte[][]>> {

    private static final long serialVersionUID = 1L;

    /** Group index, rows kept, the written files' entries. */
    static final TypeInformation<Tuple3<Integer, Long, byte[][]>> OUTPUT =
            Types.TUPLE(
                    Types.INT, Types.LONG, Types.OBJECT_ARRAY(Types.PRIMITIVE_ARRAY(Types.BYTE)));

    private final TableLoader table;
    private final MaintenancePlanBytes plan;

    private transient List<CompactionTask> groups;
    private transient DeletionVectorMaterialization.Rewriter rewriter;
    private transient Counter groupsRewritten;
    private transient Counter rowsKept;

    MaterializationRewriter(TablePaths table, MaintenancePlanBytes plan) {
        this.table = TableLoader.of(table);
        this.plan = plan;
    }

    @Override
    public void open(OpenContext context) {
        DeletionVectorMaterialization.Plan planned =
                plan.plan(DeletionVectorMaterialization.Plan::new);
        groups = planned.groups();
        rewriter = new DeletionVectorMaterialization(table.open()).rewriter(planned);
        groupsRewritten = getRuntimeContext().getMetricGroup().counter("groupsRewritten");
        rowsKept = getRuntimeContext().getMetricGroup().counter("rowsKept");
    }

    @Override
    public Tuple3<Integer, Long, byte[][]> map(Integer group) {
        DeletionVectorMaterialization.Rewritten rewritten = rewriter.rewrite(groups.get(group));
        byte[][] files =
                rewritten.files().stream().map(CompactionTaskCodec::toBytes).toArray(byte[][]::new);
        groupsRewritten.inc();
        rowsKept.inc(rewritten.rowsKept());
        return Tuple3.of(group, rewritten.rowsKept(), files);
    }
}
