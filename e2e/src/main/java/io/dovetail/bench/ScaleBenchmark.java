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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.dovetail.bench.SqlBenchmark.DOVETAIL;
import static io.dovetail.bench.SqlBenchmark.PAIMON;

/**
 * {@code dovetail-bench scale [--rows N] [--heap-mb H] [--managed-mb M] [--timeout-s T]
 * [--compact-rows C]}: a 100% backfill of a 200-character caption at N, 4N and 16N rows by
 * Dovetail's merge (SQL join), Dovetail's {@code UPDATE} and Paimon 1.4.2's {@code
 * data_evolution_merge_into}, each run in a JVM of its own ({@link ScaleRun}) with the same {@code
 * -XmxH} and M MB of managed memory, so a run that dies of {@code OutOfMemoryError} (or outlives T
 * seconds) is reported as not finished and the others go on. Then the compaction figures of {@code
 * dovetail-bench compact} on C rows.
 *
 * <p>Summary: per write path the wall time per row at each size and {@code cost_growth_16x} =
 * time(16N) / (16 x time(N)) (target at most 1.15); {@code speedup_vs_paimon_16n} (Paimon's merge
 * time / Dovetail's at 16N; target at least 3) when Paimon finished, and which Paimon runs did not
 * finish.
 */
final class ScaleBenchmark {

    private static final String BENCH = "scale";
    private static final List<Integer> MULTIPLES = List.of(1, 4, 16);
    private static final List<String[]> PATHS =
            List.of(
                    new String[] {DOVETAIL, "merge"},
                    new String[] {DOVETAIL, "update"},
                    new String[] {PAIMON, "merge"});

    private ScaleBenchmark() {}

    static void run(BenchArgs args) throws Exception {
        int n = args.intValue("rows", 1_000_000);
        int heapMb = args.intValue("heap-mb", 1024);
        int managedMb = args.intValue("managed-mb", 256);
        int timeoutS = args.intValue("timeout-s", 3600);
        int compactRows = args.intValue("compact-rows", 20_000);
        Path root = Files.createTempDirectory("dovetail-bench-scale");
        Map<String, JsonNode> results = new LinkedHashMap<>();
        List<String> notFinished = new ArrayList<>();
        try {
            for (int multiple : MULTIPLES) {
                for (String[] path : PATHS) {
                    String key = key(path, multiple);
                    Path dir = Files.createDirectories(root.resolve(key));
                    JsonNode result =
                            child(path, n * multiple, heapMb, managedMb, timeoutS, dir, key);
                    if (result != null) {
                        results.put(key, result);
                    } else {
                        notFinished.add(key);
                    }
                    BenchSupport.deleteRecursively(dir);
                }
            }
        } finally {
            BenchSupport.deleteRecursively(root);
        }
        summary(n, heapMb, managedMb, results, notFinished);
        CompactionBenchmark.run(
                new BenchArgs(
                        List.of("--rows", String.valueOf(compactRows)),
                        List.of("rows", "image-kb", "versions", "repeats")));
    }

    private static String key(String[] path, int multiple) {
        return path[0] + "-" + path[1] + "-" + multiple + "n";
    }

    /**
     * Runs one backfill in a child JVM and prints its result line; the result, or null (and a line
     * saying why) if it did not finish.
     */
    private static JsonNode child(
            String[] path, int rows, int heapMb, int managedMb, int timeoutS, Path dir, String key)
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        File out = dir.resolve("stdout").toFile();
        File err = dir.resolve("stderr").toFile();
        Process process =
                new ProcessBuilder(
                                java,
                                "-Xmx" + heapMb + "m",
                                "-XX:+UseParallelGC",
                                "-XX:+ExitOnOutOfMemoryError",
                                "-cp",
                                System.getProperty("java.class.path"),
                                ScaleRun.class.getName(),
                                path[0],
                                path[1],
                                String.valueOf(rows),
                                String.valueOf(managedMb),
                                dir.toString())
                        .redirectOutput(out)
                        .redirectError(err)
                        .start();
        long start = System.nanoTime();
        boolean exited = process.waitFor(timeoutS, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly().waitFor();
        }
        long elapsed = System.nanoTime() - start;
        ObjectMapper json = new ObjectMapper();
        for (String line : Files.readAllLines(out.toPath(), StandardCharsets.UTF_8)) {
            if (line.startsWith("{\"bench\":\"" + BENCH + "\"")) {
                JsonNode result = json.readTree(line);
                System.out.println(line);
                if (!result.get("result_correct").asBoolean() && path[0].equals(DOVETAIL)) {
                    throw new ResultMismatch(key + " wrote wrong captions");
                }
                return result;
            }
        }
        String reason =
                !exited
                        ? "timed out after " + timeoutS + " s"
                        : failure(out.toPath(), err.toPath(), process.exitValue());
        boolean loaded =
                Files.readAllLines(out.toPath(), StandardCharsets.UTF_8).stream()
                        .anyMatch(l -> l.startsWith(ScaleRun.LOADED));
        new Measurement(BENCH, "backfill")
                .put("engine", path[0])
                .put("path", path[1])
                .put("rows", rows)
                .put("finished", false)
                .put("reason", reason)
                .put("during", loaded ? "backfill" : "load")
                .put("jvm_s", elapsed / 1e9)
                .print();
        if (path[0].equals(DOVETAIL)) {
            throw new ResultMismatch(key + " did not finish: " + reason);
        }
        return null;
    }

    /**
     * Why a child JVM ended without a result: its out-of-memory error (exit code 3 of {@code
     * -XX:+ExitOnOutOfMemoryError}) or its last error line.
     */
    private static String failure(Path stdout, Path stderr, int exitCode) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(stdout, StandardCharsets.UTF_8));
        lines.addAll(Files.readAllLines(stderr, StandardCharsets.UTF_8));
        for (String line : lines) {
            if (line.contains("OutOfMemoryError")) {
                return "OutOfMemoryError (exit " + exitCode + "): " + line.trim();
            }
        }
        if (exitCode == 3) {
            return "OutOfMemoryError (exit 3 of -XX:+ExitOnOutOfMemoryError)";
        }
        String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1).trim();
        return "exit " + exitCode + ": " + last;
    }

    private static void summary(
            int n,
            int heapMb,
            int managedMb,
            Map<String, JsonNode> results,
            List<String> notFinished) {
        Measurement summary =
                new Measurement(BENCH, "summary")
                        .put("rows_n", n)
                        .put("heap_mb", heapMb)
                        .put("managed_mb", managedMb)
                        .put("parallelism", ScaleRun.PARALLELISM);
        for (String[] path : PATHS) {
            String name = path[0] + "_" + path[1];
            for (int multiple : MULTIPLES) {
                JsonNode r = results.get(key(path, multiple));
                if (r != null) {
                    String size = multiple + "n";
                    summary.put("ns_per_row_" + name + "_" + size, r.get("ns_per_row").asDouble())
                            .put(
                                    "peak_heap_mb_" + name + "_" + size,
                                    r.get("peak_heap_bytes").asLong() / 1048576.0)
                            .put(
                                    "spill_peak_mb_" + name + "_" + size,
                                    r.get("spill_peak_bytes").asLong() / 1048576.0);
                }
            }
            JsonNode small = results.get(key(path, 1));
            JsonNode large = results.get(key(path, 16));
            if (small != null && large != null) {
                summary.put(
                        "cost_growth_16x_" + name,
                        large.get("wall_ms").asDouble() / (16 * small.get("wall_ms").asDouble()));
            }
        }
        JsonNode dovetail = results.get(key(PATHS.get(0), 16));
        JsonNode paimon = results.get(key(PATHS.get(2), 16));
        summary.put("paimon_finished_16n", paimon != null);
        if (paimon != null) {
            summary.put(
                    "speedup_vs_paimon_16n",
                    paimon.get("wall_ms").asDouble() / dovetail.get("wall_ms").asDouble());
        }
        summary.put("not_finished", String.join(",", notFinished))
                .put(
                        "targets",
                        "cost_growth_16x <= 1.15, speedup_vs_paimon_16n >= 3, heap < new values"
                                + " at 16N")
                .print();
    }
}
