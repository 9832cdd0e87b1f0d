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

import java.util.Arrays;
import java.util.List;

/**
 * Entry point of {@code bin/dovetail-bench}: {@code write [--rows N] [--cols M]} or {@code read
 * [--rows N] [--cols M] [--versions K] [--point-lookups L]} or {@code sql [--rows N] [--cols M]
 * [--repeats R]}, {@code compact [--rows N] [--image-kb K] [--versions V] [--repeats R]} or {@code
 * stream [--rows N] [--cols M] [--snapshots K] [--repeats R]} or {@code scale [--rows N] [--heap-mb
 * H] [--managed-mb M] [--timeout-s T] [--compact-rows C]} (one child JVM per run). Each benchmark
 * builds what it needs in a temporary warehouse, measures the variants side by side in one JVM,
 * prints one JSON object per measurement and a summary with the ratios.
 */
public final class DovetailBench {

    private DovetailBench() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            usage();
            return;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        switch (args[0]) {
            case "write":
                WriteBenchmark.run(new BenchArgs(rest, List.of("rows", "cols", "repeats")));
                break;
            case "read":
                ReadBenchmark.run(
                        new BenchArgs(
                                rest,
                                List.of("rows", "cols", "versions", "repeats", "point-lookups")));
                break;
            case "sql":
                try {
                    SqlBenchmark.run(new BenchArgs(rest, List.of("rows", "cols", "repeats")));
                } catch (ResultMismatch e) {
                    System.err.println("error: the engines disagree: " + e.getMessage());
                    System.exit(1);
                }
                break;
            case "merge":
                try {
                    MergeBenchmark.run(
                            new BenchArgs(rest, List.of("rows", "cols", "repeats", "sweep-rows")));
                } catch (ResultMismatch e) {
                    System.err.println("error: wrong merge result: " + e.getMessage());
                    System.exit(1);
                }
                break;
            case "blob":
                try {
                    BlobBenchmark.run(
                            new BenchArgs(rest, List.of("rows", "blob-kb", "dim", "repeats")));
                } catch (ResultMismatch e) {
                    System.err.println("error: wrong result: " + e.getMessage());
                    System.exit(1);
                }
                break;
            case "compact":
                try {
                    CompactionBenchmark.run(
                            new BenchArgs(
                                    rest, List.of("rows", "image-kb", "versions", "repeats")));
                } catch (ResultMismatch e) {
                    System.err.println("error: wrong result: " + e.getMessage());
                    System.exit(1);
                }
                break;
            case "scale":
                try {
                    ScaleBenchmark.run(
                            new BenchArgs(
                                    rest,
                                    List.of(
                                            "rows",
                                            "heap-mb",
                                            "managed-mb",
                                            "timeout-s",
                                            "compact-rows")));
                } catch (ResultMismatch e) {
                    System.err.println("error: wrong or unfinished backfill: " + e.getMessage());
                    System.exit(1);
                }
                break;
            case "lookup":
                LookupBenchmark.run(new BenchArgs(rest, List.of("rows", "lookups", "full-scans")));
                break;
            case "stream":
                try {
                    StreamBenchmark.run(
                            new BenchArgs(rest, List.of("rows", "cols", "snapshots", "repeats")));
                } catch (ResultMismatch e) {
                    System.err.println("error: wrong streaming read: " + e.getMessage());
                    System.exit(1);
                }
                break;
            default:
                usage();
                System.exit(2);
        }
    }

    private static void usage() {
        System.err.println(
                "usage: dovetail-bench write [--rows N] [--cols M] [--repeats R]\n"
                        + "       dovetail-bench read [--rows N] [--cols M] [--versions K]"
                        + " [--repeats R] [--point-lookups L]\n"
                        + "       dovetail-bench sql [--rows N] [--cols M] [--repeats R]\n"
                        + "       dovetail-bench merge [--rows N] [--cols M] [--repeats R]"
                        + " [--sweep-rows S]\n"
                        + "       dovetail-bench blob [--rows N] [--blob-kb K] [--dim D]"
                        + " [--repeats R]\n"
                        + "       dovetail-bench compact [--rows N] [--image-kb K] [--versions V]"
                        + " [--repeats R]\n"
                        + "       dovetail-bench scale [--rows N] [--heap-mb H] [--managed-mb M]"
                        + " [--timeout-s T] [--compact-rows C]\n"
                        + "       dovetail-bench lookup [--rows N] [--lookups L]"
                        + " [--full-scans F]\n"
                        + "       dovetail-bench stream [--rows N] [--cols M] [--snapshots K]"
                        + " [--repeats R]");
    }
}
