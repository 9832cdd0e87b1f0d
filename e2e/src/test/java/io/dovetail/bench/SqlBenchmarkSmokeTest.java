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
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@code dovetail-bench sql}, {@code merge}, {@code blob} and {@code scale} on tiny sizes so
 * they cannot rot.
 */
class SqlBenchmarkSmokeTest {

    @Test
    void measuresEveryPhaseOfBothEnginesAndSummarizes() throws Exception {
        List<JsonNode> lines =
                run(
                        () ->
                                SqlBenchmark.run(
                                        new BenchArgs(
                                                List.of(
                                                        "--rows",
                                                        "2000",
                                                        "--cols",
                                                        "4",
                                                        "--repeats",
                                                        "1"),
                                                List.of("rows", "cols", "repeats"))));
        List<String> measured =
                lines.stream()
                        .filter(l -> l.has("wall_ms"))
                        .map(l -> l.get("phase").asText() + "/" + l.get("engine").asText())
                        .distinct()
                        .toList();
        assertThat(measured)
                .containsExactlyInAnyOrder(
                        "insert/dovetail",
                        "insert/paimon",
                        "read/dovetail",
                        "read/paimon",
                        "read/flink-parquet",
                        "update/dovetail",
                        "delete/dovetail");
        JsonNode summary = lines.get(lines.size() - 1);
        assertThat(summary.get("phase").asText()).isEqualTo("summary");
        assertThat(summary.get("rows").asLong()).isEqualTo(2000);
        for (String ratio :
                List.of(
                        "speedup_vs_paimon_insert",
                        "speedup_vs_paimon_read",
                        "ratio_vs_flink_parquet_read",
                        "median_update_ms_1pct",
                        "median_update_ms_100pct",
                        "median_delete_ms_1pct")) {
            assertThat(summary.get(ratio).asDouble()).as(ratio).isPositive();
        }
    }

    @Test
    void measuresMergesOfBothEnginesTheSelfMergeAndTheWidthSweep() throws Exception {
        List<JsonNode> lines =
                run(
                        () ->
                                MergeBenchmark.run(
                                        new BenchArgs(
                                                List.of(
                                                        "--rows",
                                                        "3000",
                                                        "--cols",
                                                        "4",
                                                        "--repeats",
                                                        "1",
                                                        "--sweep-rows",
                                                        "1000"),
                                                List.of("rows", "cols", "repeats", "sweep-rows"))));
        List<String> measured =
                lines.stream()
                        .filter(l -> l.has("wall_ms"))
                        .map(l -> l.get("phase").asText() + "/" + l.get("engine").asText())
                        .distinct()
                        .toList();
        assertThat(measured)
                .containsExactlyInAnyOrder(
                        "merge-1pct/dovetail",
                        "merge-1pct/paimon",
                        "merge-100pct/dovetail",
                        "merge-100pct/paimon",
                        "self-merge-1pct/dovetail",
                        "sweep-2/dovetail",
                        "sweep-20/dovetail",
                        "sweep-100/dovetail");
        JsonNode summary = lines.get(lines.size() - 1);
        assertThat(summary.get("phase").asText()).isEqualTo("summary");
        for (String ratio :
                List.of("speedup_vs_paimon_100", "speedup_vs_paimon_1", "merge_width_growth")) {
            assertThat(summary.get(ratio).asDouble()).as(ratio).isPositive();
        }
    }

    @Test
    void measuresTheBlobTableOfBothEnginesWithoutReadingOrWritingBlobsNeedlessly()
            throws Exception {
        List<JsonNode> lines =
                run(
                        () ->
                                BlobBenchmark.run(
                                        new BenchArgs(
                                                List.of(
                                                        "--rows",
                                                        "300",
                                                        "--blob-kb",
                                                        "8",
                                                        "--dim",
                                                        "16",
                                                        "--repeats",
                                                        "1"),
                                                List.of("rows", "blob-kb", "dim", "repeats"))));
        List<String> measured =
                lines.stream()
                        .filter(l -> l.has("wall_ms"))
                        .map(l -> l.get("phase").asText() + "/" + l.get("engine").asText())
                        .distinct()
                        .toList();
        assertThat(measured)
                .contains(
                        "insert/dovetail",
                        "insert/paimon",
                        "scan-without-blob/dovetail",
                        "scan-without-blob/paimon",
                        "caption-backfill/dovetail",
                        "full-read/dovetail",
                        "full-read/paimon");
        JsonNode summary = lines.get(lines.size() - 1);
        assertThat(summary.get("phase").asText()).isEqualTo("summary");
        assertThat(summary.get("speedup_vs_paimon_insert").asDouble()).isPositive();
        assertThat(summary.get("speedup_vs_paimon_scan_without_blob").asDouble()).isPositive();
        assertThat(summary.get("blob_bytes_read_without_blob").asLong()).isZero();
        assertThat(summary.get("blob_bytes_written_by_caption_backfill").asLong()).isZero();
    }

    @Test
    void backfillsEverySizeByEveryPathInChildJvmsAndChecksTheCaptions() throws Exception {
        List<JsonNode> lines =
                run(
                        () ->
                                ScaleBenchmark.run(
                                        new BenchArgs(
                                                List.of(
                                                        "--rows",
                                                        "1000",
                                                        "--heap-mb",
                                                        "512",
                                                        "--managed-mb",
                                                        "64",
                                                        "--compact-rows",
                                                        "400"),
                                                List.of(
                                                        "rows",
                                                        "heap-mb",
                                                        "managed-mb",
                                                        "timeout-s",
                                                        "compact-rows"))));
        List<String> measured =
                lines.stream()
                        .filter(l -> l.get("bench").asText().equals("scale") && l.has("wall_ms"))
                        .map(
                                l ->
                                        l.get("engine").asText()
                                                + "/"
                                                + l.get("path").asText()
                                                + "/"
                                                + l.get("rows").asLong())
                        .toList();
        assertThat(measured)
                .containsExactly(
                        "dovetail/merge/1000",
                        "dovetail/update/1000",
                        "paimon/merge/1000",
                        "dovetail/merge/4000",
                        "dovetail/update/4000",
                        "paimon/merge/4000",
                        "dovetail/merge/16000",
                        "dovetail/update/16000",
                        "paimon/merge/16000");
        for (JsonNode run : lines.stream().filter(l -> l.has("peak_heap_bytes")).toList()) {
            assertThat(run.get("result_correct").asBoolean()).as(run.toString()).isTrue();
            assertThat(run.get("peak_heap_bytes").asLong()).isPositive();
        }
        JsonNode summary =
                lines.stream()
                        .filter(l -> l.get("phase").asText().equals("summary"))
                        .findFirst()
                        .orElseThrow();
        assertThat(summary.get("bench").asText()).isEqualTo("scale");
        for (String ratio :
                List.of(
                        "cost_growth_16x_dovetail_merge",
                        "cost_growth_16x_dovetail_update",
                        "cost_growth_16x_paimon_merge",
                        "speedup_vs_paimon_16n")) {
            assertThat(summary.get(ratio).asDouble()).as(ratio).isPositive();
        }
        assertThat(summary.get("paimon_finished_16n").asBoolean()).isTrue();
        assertThat(lines.get(lines.size() - 1).get("bench").asText()).isEqualTo("compact");
    }

    /** Runs a benchmark, its standard output parsed as JSON lines. */
    private static List<JsonNode> run(Benchmark benchmark) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            benchmark.run();
        } finally {
            System.setOut(stdout);
        }
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            lines.add(json.readTree(line));
        }
        return lines;
    }

    private interface Benchmark {
        void run() throws Exception;
    }
}
