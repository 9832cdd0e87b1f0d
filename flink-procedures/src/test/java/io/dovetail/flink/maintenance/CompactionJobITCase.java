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

import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.testing.EvolvingTable;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The topology of a compaction job: one rewriter per bin up to the parallelism, one committer. */
class CompactionJobITCase {

    @TempDir java.nio.file.Path dir;

    @Test
    void rewritersRunAtMinOfBinsAndParallelismAndOneCommitterCommits() {
        EvolvingTable table = new EvolvingTable(dir.resolve("t"), true, Map.of());
        for (int i = 0; i < 15; i++) {
            table.append(i < 5 ? "a" : i < 10 ? "b" : "c", i * 10L, 10);
        }
        CompactionConfig config =
                CompactionConfig.fromOptions(Map.of()).withRewrite(CompactionConfig.Rewrite.FULL);
        DataEvolutionCompaction.Plan plan =
                new DataEvolutionCompaction(table.store).plan(p -> true, config).orElseThrow();
        assertThat(plan.tasks()).hasSize(3); // one bin per partition

        assertThat(parallelisms(new CompactionJob(table.store, p -> true, config, 2), plan))
                .containsExactly("tasks:1", "rewriter:2", "committer:1");
        assertThat(parallelisms(new CompactionJob(table.store, p -> true, config, 8), plan))
                .containsExactly("tasks:1", "rewriter:3", "committer:1");
    }

    private static List<String> parallelisms(CompactionJob job, DataEvolutionCompaction.Plan plan) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        job.build(env, plan).print();
        return env.getStreamGraph().getStreamNodes().stream()
                .sorted(Comparator.comparingInt(StreamNode::getId))
                .filter(n -> n.getOperatorName().contains("Dovetail compaction"))
                .map(
                        n ->
                                n.getOperatorName()
                                                .replaceAll(".*Dovetail compaction (\\w+):.*", "$1")
                                        + ":"
                                        + n.getParallelism())
                .toList();
    }
}
