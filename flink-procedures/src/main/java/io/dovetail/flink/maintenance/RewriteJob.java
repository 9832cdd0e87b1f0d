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
import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.snapshot.SnapshotPins;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * The one job of Dovetail's maintenance rewrites (compaction, deletion-vector materialization), a
 * Flink batch job; what it rewrites and commits is the {@link Rewrite}'s. Planning runs where the
 * job is built (the client, or the JobManager for an application) and pins the plan's snapshot
 * while the job runs; the plan travels with the operators ({@link MaintenancePlanBytes}), the tasks
 * as their indexes:
 *
 * <pre>
 *   [tasks × 1] ──rebalance──▶ [rewriter × min(tasks, p)] ──global──▶ [committer × 1] ──▶ result row
 *    the planned tasks'         opens the plan's read on the pinned     one COMPACT snapshot of
 *    indexes                    snapshot once, then rewrites each task  every task's payload
 *                               it gets into a payload (its files)      (Rewrite#commit)
 * </pre>
 *
 * The commit checks every snapshot committed after the pinned one, so a concurrent change of a
 * rewritten range fails the job and leaves the table as it was. A job that fails after some
 * rewriters finished leaves their files unreferenced in the table directory (there is no
 * orphan-file cleanup yet); a failed commit deletes what it wrote. The job holds no state: its
 * operators have no uids.
 */
final class RewriteJob<P> {

    /** Paimon's identifier for a one-off batch commit; each job has its own commit user. */
    static final long COMMIT_IDENTIFIER = CommitRequest.BATCH_IDENTIFIER;

    /** Task index, rewriter subtask index, payload. */
    private static final TypeInformation<Tuple3<Integer, Integer, byte[]>> REWRITTEN =
            Types.TUPLE(Types.INT, Types.INT, Types.PRIMITIVE_ARRAY(Types.BYTE));

    private static final TypeInformation<Row> RESULT =
            Types.ROW(Types.LONG, Types.LONG, Types.LONG, Types.LONG, Types.LONG, Types.LONG);

    private final TableStore store;
    private final Rewrite<P> rewrite;
    private final String what;

    /** The job of {@code rewrite} on {@code store}, named {@code what} ("compaction"). */
    RewriteJob(TableStore store, Rewrite<P> rewrite, String what) {
        this.store = store;
        this.rewrite = rewrite;
        this.what = what;
    }

    /**
     * Runs {@code plan} in {@code env} with the snapshot it read pinned; returns the result row.
     */
    Row run(StreamExecutionEnvironment env, MaintenancePlanBytes plan, int parallelism)
            throws Exception {
        DataStream<Row> result = build(env, plan, parallelism);
        String table = store.paths().root().getName();
        try (SnapshotPins.Pin pin =
                        new SnapshotPins(store.paths())
                                .pinBase(
                                        plan.snapshotId(),
                                        store.latestSchema().options(),
                                        "the " + what + " of " + table);
                CloseableIterator<Row> rows =
                        result.executeAndCollect("Dovetail " + what + " of " + table)) {
            return rows.next();
        }
    }

    /**
     * Adds the job of {@code plan} to {@code env} (in batch mode); its one output is the result.
     */
    DataStream<Row> build(
            StreamExecutionEnvironment env, MaintenancePlanBytes plan, int parallelism) {
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        String table = store.paths().root().getName();
        List<Integer> tasks = IntStream.range(0, plan.taskCount()).boxed().toList();
        return env.fromData(tasks, Types.INT)
                .name("Dovetail " + what + " tasks: " + table)
                .setParallelism(1)
                .rebalance()
                .map(new Rewriter<>(store.paths(), rewrite, plan))
                .returns(REWRITTEN)
                .name("Dovetail " + what + " rewriter: " + table)
                .setParallelism(Math.min(plan.taskCount(), parallelism))
                .global()
                .transform(
                        "Dovetail " + what + " committer: " + table,
                        RESULT,
                        new Committer<>(
                                store.paths(),
                                rewrite,
                                "dovetail-" + what + "-" + UUID.randomUUID(),
                                plan))
                .setParallelism(1)
                .setMaxParallelism(1);
    }

    /** A rewriter subtask: emits each task it gets with its own index and the task's payload. */
    private static final class Rewriter<P>
            extends RichMapFunction<Integer, Tuple3<Integer, Integer, byte[]>> {

        private static final long serialVersionUID = 1L;

        private final TableLoader table;
        private final Rewrite<P> rewrite;
        private final MaintenancePlanBytes plan;

        private transient Rewrite.TaskRewriter tasks;

        Rewriter(TablePaths table, Rewrite<P> rewrite, MaintenancePlanBytes plan) {
            this.table = TableLoader.of(table);
            this.rewrite = rewrite;
            this.plan = plan;
        }

        @Override
        public void open(OpenContext context) {
            tasks =
                    rewrite.open(
                            table.open(), rewrite.plan(plan), getRuntimeContext().getMetricGroup());
        }

        @Override
        public Tuple3<Integer, Integer, byte[]> map(Integer task) {
            return Tuple3.of(
                    task,
                    getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                    tasks.rewrite(task));
        }
    }

    /**
     * The one committer (parallelism 1): collects every task's payload and, at the end of input,
     * commits them as one snapshot, then emits the result row.
     */
    private static final class Committer<P> extends AbstractStreamOperator<Row>
            implements OneInputStreamOperator<Tuple3<Integer, Integer, byte[]>, Row>,
                    BoundedOneInput {

        private static final long serialVersionUID = 1L;

        private final TableLoader table;
        private final Rewrite<P> rewrite;
        private final String commitUser;
        private final MaintenancePlanBytes plan;

        private transient byte[][] payloads;
        private transient Set<Integer> rewriters;

        Committer(
                TablePaths table,
                Rewrite<P> rewrite,
                String commitUser,
                MaintenancePlanBytes plan) {
            this.table = TableLoader.of(table);
            this.rewrite = rewrite;
            this.commitUser = commitUser;
            this.plan = plan;
        }

        @Override
        public void open() throws Exception {
            super.open();
            payloads = new byte[plan.taskCount()][];
            rewriters = new HashSet<>();
        }

        @Override
        public void processElement(StreamRecord<Tuple3<Integer, Integer, byte[]>> element) {
            Tuple3<Integer, Integer, byte[]> rewritten = element.getValue();
            payloads[rewritten.f0] = rewritten.f2;
            rewriters.add(rewritten.f1);
        }

        @Override
        public void endInput() {
            Row result =
                    rewrite.commit(
                            table.open(),
                            commitUser,
                            rewrite.plan(plan),
                            Arrays.asList(payloads),
                            rewriters.size());
            output.collect(new StreamRecord<>(result));
        }
    }
}
