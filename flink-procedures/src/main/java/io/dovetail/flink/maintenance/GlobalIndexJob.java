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

import io.dovetail.flink.memory.TupleSort;
import io.dovetail.table.TableStore;
import io.dovetail.table.error.Errors;
import io.dovetail.table.maintenance.GlobalIndexBuild;
import io.dovetail.table.snapshot.SnapshotPins;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * {@code create_global_index} as a distributed Flink batch job: B-tree or bitmap index files of one
 * column of the selected partitions, in Apache Paimon 1.4.2's format, for the rows no index of that
 * type and column covers yet. Planning runs where the job is built, on the latest snapshot, which
 * is pinned while the job runs; each run of a partition's contiguous row ids (B-tree: at most
 * records-per-range × 1.2 of them; bitmap: at most row-count-per-shard) is one task ({@link
 * GlobalIndexBuild#plan}); only the writer's file format depends on the type:
 *
 * <pre>
 *   [runs × 1] ──rebalance──▶ [scanner × n] ──by run──▶ [sort × n] ──forward──▶ [writer × n] ──global──▶ [committer × 1] ──▶ result row
 *                              (run, key, row id) of     spilling sort by        files of one run,        one snapshot adding
 *                              the run's rows            run, key, row id        rolled at records-       every file
 *                              at the snapshot           on managed memory       per-range × 1.2
 * </pre>
 *
 * with {@code n = min(runs, parallelism)}. A B-tree writer holds no more than one sorted key's row
 * ids and one index block; a bitmap writer holds the bitmaps of one run. The commit fails, leaving
 * the table as it was, if a column update changed the column of indexed rows since the snapshot; a
 * failed job leaves written index files unreferenced ({@code remove_orphan_files} deletes them).
 */
public final class GlobalIndexJob {

    /** The result row: what the job did; {@code snapshot_id} is null when every row was indexed. */
    public static final String OUTPUT =
            "ROW<runs BIGINT, index_files BIGINT, indexed_rows BIGINT, snapshot_id BIGINT>";

    static final TypeInformation<Row> RESULT_TYPE =
            Types.ROW(Types.LONG, Types.LONG, Types.LONG, Types.LONG);

    /** A written file: (run, file name, file size, row count, index meta). */
    static final TypeInformation<Row> FILE =
            Types.ROW(
                    Types.INT,
                    Types.STRING,
                    Types.LONG,
                    Types.LONG,
                    Types.PRIMITIVE_ARRAY(Types.BYTE));

    private final TableStore store;
    private final String column;
    private final String indexType;
    private final Predicate<RowData> partitions;
    private final Map<String, String> options;
    private final int parallelism;

    public GlobalIndexJob(
            TableStore store,
            String column,
            String indexType,
            Predicate<RowData> partitions,
            Map<String, String> options,
            int parallelism) {
        if (parallelism < 1) {
            throw Errors.invalidArgument(
                    "An index build needs a parallelism of at least 1, got " + parallelism + ".");
        }
        this.store = store;
        this.column = column;
        this.indexType = indexType;
        this.partitions = partitions;
        this.options = Map.copyOf(options);
        this.parallelism = parallelism;
    }

    /** Plans, and unless every row is indexed runs the job in {@code env}; returns its result. */
    public Row run(StreamExecutionEnvironment env) throws Exception {
        Optional<GlobalIndexBuild.Plan> plan =
                GlobalIndexBuild.plan(store, column, indexType, partitions, options);
        if (plan.isEmpty()) {
            return Row.of(0L, 0L, 0L, null);
        }
        DataStream<Row> result = build(env, plan.get());
        try (SnapshotPins.Pin pin =
                        new SnapshotPins(store.paths())
                                .pinBase(
                                        plan.get().snapshotId(),
                                        store.latestSchema().options(),
                                        "the index build of " + store.paths().root().getName());
                CloseableIterator<Row> rows =
                        result.executeAndCollect(
                                "Dovetail create_global_index " + store.paths().root().getName())) {
            return rows.next();
        }
    }

    private DataStream<Row> build(StreamExecutionEnvironment env, GlobalIndexBuild.Plan plan) {
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        String name = store.paths().root().getName();
        int runs = plan.runs().size();
        int n = Math.min(runs, parallelism);
        List<Integer> tasks = IntStream.range(0, runs).boxed().toList();
        DataStream<IndexedRow> byRun =
                env.fromData(tasks, Types.INT)
                        .name("Dovetail index runs: " + name)
                        .setParallelism(1)
                        .rebalance()
                        .flatMap(new GlobalIndexScanner(store.paths(), plan))
                        .returns(IndexedRow.TYPE)
                        .name("Dovetail index scan: " + name)
                        .setParallelism(n)
                        .partitionCustom(new ByRun(), new RunOf());
        return TupleSort.sort(byRun, "Dovetail index sort: " + name, n, 0, 1, 2, 3)
                .transform(
                        "Dovetail index writer: " + name,
                        FILE,
                        new GlobalIndexFileWriter(store.paths(), plan))
                .setParallelism(n)
                .global()
                .transform(
                        "Dovetail index committer: " + name,
                        RESULT_TYPE,
                        new GlobalIndexCommitter(
                                store.paths(),
                                "dovetail-create-global-index-" + UUID.randomUUID(),
                                plan))
                .setParallelism(1)
                .setMaxParallelism(1);
    }

    /** Routes a run's rows to one writer. */
    private static final class ByRun implements Partitioner<Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public int partition(Integer run, int writers) {
            return run % writers;
        }
    }

    private static final class RunOf implements KeySelector<IndexedRow, Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public Integer getKey(IndexedRow row) {
            return row.run();
        }
    }
}
