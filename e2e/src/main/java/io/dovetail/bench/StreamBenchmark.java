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
package io.dovetail.bench;

import io.dovetail.sql.EmbeddedCluster;
import io.dovetail.sql.EmbeddedExecutorFactory;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code stream}: a streaming read ({@code scan.mode = full}: the latest snapshot in full, then
 * following the table) of a table of {@code --rows} rows appended in {@code --snapshots} commits
 * (one row-range group each), at parallelism 1 and 2 in turn, in one JVM on one embedded cluster of
 * two slots. Each run is timed from the job's submission until every row reached the sink (the sum
 * of the ids is checked), then the job is cancelled.
 *
 * <p>Summary: {@code streaming_read_speedup_p2}, the median time at parallelism 1 over the median
 * at parallelism 2 (target at least 1.6 on two cores).
 */
final class StreamBenchmark {

    private static final String BENCH = "stream";
    private static final String P1 = "p1";
    private static final String P2 = "p2";

    /** Rows and the sum of their ids that reached the sink in the running job (one JVM). */
    private static final LongAdder ROWS = new LongAdder();

    private static final LongAdder ID_SUM = new LongAdder();

    /** When the first row reached the sink ({@link System#nanoTime}), 0 before. */
    private static final AtomicLong FIRST_ROW = new AtomicLong();

    /** Rows per sink subtask (one per reader: the sink is chained to the read). */
    private static final LongAdder[] ROWS_BY_READER = {new LongAdder(), new LongAdder()};

    private StreamBenchmark() {}

    static void run(BenchArgs args) throws Exception {
        int rows = args.intValue("rows", 2_000_000);
        int cols = args.intValue("cols", 20);
        int snapshots = args.intValue("snapshots", 20);
        int repeats = args.intValue("repeats", 3);
        int perSnapshot = rows / snapshots;
        long total = (long) perSnapshot * snapshots;
        long idSum = (long) snapshots * perSnapshot * (perSnapshot - 1L) / 2;
        Path root = Files.createTempDirectory("dovetail-bench-stream");
        try {
            BenchTable table = BenchTable.create(root.resolve("default.db").resolve("t"), cols);
            for (int s = 0; s < snapshots; s++) {
                table.append(perSnapshot);
            }
            Timings timings = new Timings();
            for (int round = 0; round <= repeats; round++) {
                // parallelism 2 first: the first job starts the embedded cluster with its slots
                for (String variant : SqlBenchmark.inTurn(round, P2, P1)) {
                    int parallelism = variant.equals(P1) ? 1 : 2;
                    long cpuBefore = processCpuNanos();
                    long start = System.nanoTime();
                    long firstRowNanos = read(root, parallelism, total, idSum);
                    long elapsed = System.nanoTime() - start;
                    long cpu = processCpuNanos() - cpuBefore;
                    boolean warmUp = round == 0;
                    if (!warmUp) {
                        timings.add(BENCH, variant, elapsed);
                    }
                    new Measurement(BENCH, "read")
                            .put("parallelism", parallelism)
                            .put("round", round)
                            .put("warmup", warmUp)
                            .put("cols", cols)
                            .put("snapshots", snapshots)
                            .put("ms_to_first_row", (firstRowNanos - start) / 1e6)
                            .put("cpu_ms", cpu / 1e6)
                            .put("rows_reader_0", ROWS_BY_READER[0].sum())
                            .put("rows_reader_1", ROWS_BY_READER[1].sum())
                            .timing(total, elapsed)
                            .print();
                }
            }
            double p1 = timings.medianMs(BENCH, P1);
            double p2 = timings.medianMs(BENCH, P2);
            new Measurement(BENCH, "summary")
                    .put("rows", total)
                    .put("cols", cols)
                    .put("snapshots", snapshots)
                    .put("repeats", repeats)
                    .put("median_ms_p1", p1)
                    .put("median_ms_p2", p2)
                    .put("streaming_read_speedup_p2", p1 / p2)
                    .put("target", "streaming_read_speedup_p2 >= 1.6")
                    .print();
        } finally {
            EmbeddedCluster.shutdown();
            BenchSupport.deleteRecursively(root);
        }
    }

    /**
     * Runs the streaming read at {@code parallelism} until {@code rows} rows arrived, checks the
     * sum of their ids, cancels it; returns when the first row arrived ({@link System#nanoTime}).
     */
    private static long read(Path warehouse, int parallelism, long rows, long idSum)
            throws Exception {
        Configuration config = new Configuration();
        config.set(DeploymentOptions.TARGET, EmbeddedExecutorFactory.TARGET);
        config.set(DeploymentOptions.ATTACHED, true);
        config.set(CoreOptions.DEFAULT_PARALLELISM, 2); // the cluster's slots
        config.set(PipelineOptions.OBJECT_REUSE, true); // no copy between chained operators
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(config);
        env.setParallelism(parallelism);
        StreamTableEnvironment sql = StreamTableEnvironment.create(env);
        sql.getConfig().set("parallelism.default", String.valueOf(parallelism));
        sql.executeSql(SqlBenchmark.catalog("dovetail", "dovetail", warehouse));
        Table scan =
                sql.sqlQuery(
                        "SELECT * FROM dovetail.`default`.t /*+ OPTIONS('scan.mode' = 'full') */");
        DataType internal =
                scan.getResolvedSchema().toPhysicalRowDataType().bridgedTo(RowData.class);
        DataStream<RowData> read = sql.toDataStream(scan, internal);
        read.sinkTo(new CountingSink()).name("count");
        ROWS.reset();
        ID_SUM.reset();
        ROWS_BY_READER[0].reset();
        ROWS_BY_READER[1].reset();
        FIRST_ROW.set(0);
        JobClient job = env.executeAsync("dovetail-bench stream p" + parallelism);
        try {
            for (int polls = 0; ROWS.sum() < rows; polls++) {
                if (polls % 100 == 0 && job.getJobStatus().get().isGloballyTerminalState()) {
                    throw new IllegalStateException(
                            "the streaming read ended: " + job.getJobStatus().get());
                }
                Thread.sleep(2); // job status only every 100 polls: it is an RPC
            }
        } finally {
            job.cancel().get(60, TimeUnit.SECONDS);
        }
        if (ROWS.sum() != rows || ID_SUM.sum() != idSum) {
            throw new ResultMismatch(
                    ROWS.sum()
                            + " rows with id sum "
                            + ID_SUM.sum()
                            + ", expected "
                            + rows
                            + " with "
                            + idSum);
        }
        return FIRST_ROW.get();
    }

    /** The CPU time this JVM has used, all threads. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Counts the rows (and adds up their ids) into the static counters. */
    private static final class CountingSink implements Sink<RowData> {

        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<RowData> createWriter(WriterInitContext context) {
            LongAdder mine = ROWS_BY_READER[context.getTaskInfo().getIndexOfThisSubtask()];
            return new SinkWriter<>() {
                private boolean first = true;

                @Override
                public void write(RowData row, Context context) {
                    if (first) {
                        FIRST_ROW.compareAndSet(0, System.nanoTime());
                        first = false;
                    }
                    ID_SUM.add(row.getLong(0));
                    ROWS.increment();
                    mine.increment();
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
