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

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.types.Row;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static io.dovetail.bench.SqlBenchmark.DOVETAIL;
import static io.dovetail.bench.SqlBenchmark.PAIMON;

/**
 * One measurement of {@code dovetail-bench scale}, run by {@link ScaleBenchmark} in a JVM of its
 * own ({@code java ... ScaleRun ENGINE PATH ROWS MANAGED_MB DIR}): a table {@code (id BIGINT,
 * caption STRING)} of ROWS rows with NULL captions, then a 100% backfill of a 200-character caption
 * ({@link BenchFunctions.Caption}) by PATH: {@code merge} from a source table keyed by id
 * (Dovetail's {@code data_evolution_merge} through its SQL join, or Paimon 1.4.2's {@code
 * data_evolution_merge_into}), or Dovetail's {@code UPDATE}. The embedded cluster has MANAGED_MB of
 * managed memory and its temporary directories under DIR. Prints one JSON line: the wall time of
 * the backfill alone; the peak heap of this JVM during it (the sum of the heap memory pools' peak
 * usage: an upper bound, as the pools peak at different times, garbage included); the peak bytes on
 * disk in Flink's spill files ({@code flink-io-*}: sorts and joins) and in its batch shuffle files
 * ({@code flink-netty-shuffle-*}), sampled every 100 ms; the GC time; and the check of the result
 * (every row's caption equals the expected one, and the sum of their hashes).
 */
public final class ScaleRun {

    static final int PARALLELISM = 2;

    /** The line printed once the tables are loaded, before the backfill starts. */
    static final String LOADED = "loaded ";

    private static final String BENCH = "scale";

    private ScaleRun() {}

    public static void main(String[] args) throws Exception {
        String engine = args[0];
        String path = args[1];
        int rows = Integer.parseInt(args[2]);
        int managedMb = Integer.parseInt(args[3]);
        Path dir = Path.of(args[4]);
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Configuration cluster = new Configuration();
        cluster.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.ofMebiBytes(managedMb));
        cluster.set(CoreOptions.TMP_DIRS, tmp.toString());
        try (BenchSqlSession sql = new BenchSqlSession(PARALLELISM, cluster)) {
            sql.set("table.dml-sync", "true");
            // the shuffled join under which Paimon's result is right, for both engines
            sql.set("table.optimizer.join.broadcast-threshold", "-1");
            sql.set("table.exec.disabled-operators", "NestedLoopJoin,BroadcastHashJoin");
            // the bounded-memory path at every size (a 1,000,000-row source would be broadcast)
            sql.set("dovetail.merge.broadcast-join.max-source-size", "0");
            sql.function("bench_caption", BenchFunctions.Caption.class);
            sql.function("bench_hash", BenchFunctions.Hash.class);
            Path warehouse = dir.resolve("warehouse");
            sql.execute(
                    engine.equals(PAIMON)
                            ? SqlBenchmark.paimonCatalog(warehouse)
                            : SqlBenchmark.catalog(DOVETAIL, DOVETAIL, warehouse));
            sql.execute(SqlBenchmark.idGenerator(rows));
            String target = table(sql, engine, "target");
            sql.execute(
                    "INSERT INTO " + target + " SELECT id, CAST(NULL AS STRING) FROM generated");
            String statement;
            if (path.equals("merge")) {
                String source = table(sql, engine, "src");
                sql.execute(
                        "INSERT INTO " + source + " SELECT id, bench_caption(id) FROM generated");
                statement = merge(engine);
            } else {
                statement = "UPDATE " + target + " SET caption = bench_caption(id)";
            }
            System.out.println(LOADED + rows + " rows");
            measure(sql, statement, rows, tmp)
                    .put("engine", engine)
                    .put("path", path)
                    .put("managed_mb", managedMb)
                    .put("heap_max_bytes", Runtime.getRuntime().maxMemory())
                    .put("result_correct", check(sql, target, rows))
                    .print();
        }
        System.exit(0);
    }

    private static String table(BenchSqlSession sql, String engine, String name) {
        String table = engine + ".`default`." + name;
        sql.execute(
                "CREATE TABLE "
                        + table
                        + " (id BIGINT, caption STRING) WITH ("
                        + SqlBenchmark.tableOptions()
                        + ")");
        return table;
    }

    private static String merge(String engine) {
        if (engine.equals(PAIMON)) {
            return "CALL paimon.sys.data_evolution_merge_into('default.target', '', '',"
                    + " 'default.src', 'target.id = src.id', 'caption = src.caption', "
                    + PARALLELISM
                    + ")";
        }
        return "CALL dovetail.sys.data_evolution_merge(target => 'default.target', source =>"
                + " 'default.src', merge_condition => 't.id = s.id', matched_update_set =>"
                + " 'caption = s.caption', parallelism => "
                + PARALLELISM
                + ")";
    }

    /** Runs {@code statement}, measuring its wall time, heap, spill and GC. */
    private static Measurement measure(BenchSqlSession sql, String statement, int rows, Path tmp)
            throws Exception {
        List<MemoryPoolMXBean> heap =
                ManagementFactory.getMemoryPoolMXBeans().stream()
                        .filter(p -> p.getType() == MemoryType.HEAP)
                        .toList();
        System.gc();
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        long gcBefore = gcMillis();
        DiskSampler spill = new DiskSampler(tmp);
        spill.start();
        long start = System.nanoTime();
        sql.execute(statement);
        long elapsed = System.nanoTime() - start;
        spill.finish();
        long peakHeap = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        return new Measurement(BENCH, "backfill")
                .timing(rows, elapsed)
                .put("ns_per_row", (double) elapsed / rows)
                .put("peak_heap_bytes", peakHeap)
                .put("spill_peak_bytes", spill.ioPeak())
                .put("shuffle_peak_bytes", spill.shufflePeak())
                .put("gc_ms", gcMillis() - gcBefore);
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime)
                .sum();
    }

    /**
     * Whether every one of the {@code rows} rows holds its expected caption: the count of rows
     * whose caption equals {@code bench_caption(id)}, and the sum of the captions' hashes against
     * the sum computed here.
     */
    private static boolean check(BenchSqlSession sql, String target, int rows) {
        Row actual =
                sql.row(
                        "SELECT COUNT(*), SUM(CASE WHEN caption = bench_caption(id) THEN 1 ELSE 0"
                                + " END), SUM(bench_hash(caption)) FROM "
                                + target);
        long hashes = 0;
        for (long id = 0; id < rows; id++) {
            hashes += BenchFunctions.Hash.of(BenchFunctions.Caption.of(id));
        }
        Row expected = Row.of((long) rows, rows, hashes);
        boolean correct =
                ((Number) actual.getField(0)).longValue() == rows
                        && ((Number) actual.getField(1)).longValue() == rows
                        && ((Number) actual.getField(2)).longValue() == hashes;
        if (!correct) {
            System.err.println("wrong result: " + actual + ", expected " + expected);
        }
        return correct;
    }

    /** The largest size seen of the subdirectories of a directory, by name prefix. */
    private static final class DiskSampler extends Thread {
        private final Path dir;
        private volatile boolean running = true;
        private long ioPeak;
        private long shufflePeak;

        DiskSampler(Path dir) {
            super("scale-disk-sampler");
            this.dir = dir;
            setDaemon(true);
        }

        @Override
        public void run() {
            while (running) {
                sample();
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private synchronized void sample() {
            ioPeak = Math.max(ioPeak, bytes("flink-io-"));
            shufflePeak = Math.max(shufflePeak, bytes("flink-netty-shuffle-"));
        }

        private long bytes(String prefix) {
            long total = 0;
            try (Stream<Path> subdirs = Files.list(dir)) {
                for (Path sub : subdirs.toList()) {
                    if (sub.getFileName().toString().startsWith(prefix)) {
                        total += BenchSupport.directoryBytes(sub);
                    }
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                // a file deleted while walked: the next sample counts again
            }
            return total;
        }

        void finish() throws InterruptedException {
            running = false;
            join();
            sample();
        }

        synchronized long ioPeak() {
            return ioPeak;
        }

        synchronized long shufflePeak() {
            return shufflePeak;
        }
    }
}
