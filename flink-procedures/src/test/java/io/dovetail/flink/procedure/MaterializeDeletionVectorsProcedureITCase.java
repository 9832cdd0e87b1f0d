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
package io.dovetail.flink.procedure;

import io.dovetail.table.snapshot.CommitKind;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code CALL dt.sys.materialize_deletion_vectors(...)}: survivors rewritten with new row ids, the
 * jobs run on one MiniCluster whose metrics are kept in memory.
 */
class MaterializeDeletionVectorsProcedureITCase {

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir java.nio.file.Path warehouse;

    private ProcedureSession session;

    /**
     * a: groups [0,9] (rows 2 and 5 deleted, name of 3 updated), [10,19]; b: [20,29] (all gone).
     */
    @BeforeEach
    void writeTable() {
        session = new ProcedureSession(warehouse, Map.of());
        session.table.append("a", 0, 10);
        session.table.append("a", 10, 10);
        session.table.append("b", 20, 10);
        session.table.update("name", Map.of(3L, "three"));
        session.table.delete(2, 5, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29);
    }

    @Test
    void survivorsGetNewRowIdsInTheirOldOrder(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        Set<JobID> before = jobs(cluster);
        Row result = materialize("confirm => true, parallelism => 2");

        Set<JobID> job = jobs(cluster);
        job.removeAll(before);
        assertThat(job).hasSize(1);
        assertThat(rewriterCounts(job.iterator().next(), "groupsRewritten")) // one group each
                .containsExactlyInAnyOrder(1L, 1L);
        assertThat(rewriterCounts(job.iterator().next(), "rowsKept"))
                .containsExactlyInAnyOrder(8L, 0L);

        assertThat(result.getField("groups_rewritten")).isEqualTo(2L);
        assertThat(result.getField("rows_kept")).isEqualTo(8L);
        assertThat(result.getField("rows_removed")).isEqualTo(12L);
        assertThat(result.getField("files_written")).isEqualTo(1L);
        assertThat(result.getField("files_removed")).isEqualTo(3L); // 2 in [0,9], 1 in [20,29]
        assertThat(session.table.latest().commitKind()).isEqualTo(CommitKind.COMPACT);
        assertThat(session.table.latest().nextRowId()).isEqualTo(38L);
        assertThat(session.table.vectors()).isEmpty();
        assertThat(
                        session.read(
                                session.table
                                        .latest())) // survivors 0, 1, 3, ... get 30, 31, 32, ...
                .containsExactlyInAnyOrder(
                        "id=10, name=name-10, score=100, dt=a, _ROW_ID=10",
                        "id=11, name=name-11, score=110, dt=a, _ROW_ID=11",
                        "id=12, name=name-12, score=120, dt=a, _ROW_ID=12",
                        "id=13, name=name-13, score=130, dt=a, _ROW_ID=13",
                        "id=14, name=name-14, score=140, dt=a, _ROW_ID=14",
                        "id=15, name=name-15, score=150, dt=a, _ROW_ID=15",
                        "id=16, name=name-16, score=160, dt=a, _ROW_ID=16",
                        "id=17, name=name-17, score=170, dt=a, _ROW_ID=17",
                        "id=18, name=name-18, score=180, dt=a, _ROW_ID=18",
                        "id=19, name=name-19, score=190, dt=a, _ROW_ID=19",
                        "id=0, name=name-0, score=0, dt=a, _ROW_ID=30",
                        "id=1, name=name-1, score=10, dt=a, _ROW_ID=31",
                        "id=3, name=three, score=30, dt=a, _ROW_ID=32",
                        "id=4, name=name-4, score=40, dt=a, _ROW_ID=33",
                        "id=6, name=name-6, score=60, dt=a, _ROW_ID=34",
                        "id=7, name=name-7, score=70, dt=a, _ROW_ID=35",
                        "id=8, name=name-8, score=80, dt=a, _ROW_ID=36",
                        "id=9, name=name-9, score=90, dt=a, _ROW_ID=37");
        session.table.store.files(session.table.latest()).verifyLiveFiles();

        Row nothing = materialize("confirm => true");
        assertThat(nothing.getField("groups_rewritten")).isEqualTo(0L);
        assertThat(nothing.getField("snapshot_id")).isNull();
    }

    @Test
    void partitionsSelectTheGroups() {
        Row result = materialize("confirm => true, partitions => 'dt=b'");

        assertThat(result.getField("groups_rewritten")).isEqualTo(1L);
        assertThat(result.getField("rows_kept")).isEqualTo(0L);
        assertThat(result.getField("files_written")).isEqualTo(0L);
        assertThat(session.table.vectors()).hasSize(1); // a's vector stays
        assertThat(session.read(session.table.latest())).hasSize(18);
    }

    @Test
    void refusesWithoutConfirmation() {
        long snapshots = session.table.latest().id();
        assertThatThrownBy(() -> materialize("partitions => 'dt=a'"))
                .hasStackTraceContaining("pass confirm => true to run it");
        assertThatThrownBy(() -> materialize("confirm => false"))
                .hasStackTraceContaining("NEW row ids");
        assertThatThrownBy(() -> materialize("confirm => true, parallelism => 0"))
                .hasStackTraceContaining("parallelism must be at least 1, got 0");
        assertThat(session.table.latest().id()).isEqualTo(snapshots);
    }

    private static Set<JobID> jobs(MiniCluster cluster) throws Exception {
        return cluster.listJobs().get().stream()
                .map(JobStatusMessage::getJobId)
                .collect(Collectors.toSet());
    }

    /** The counter {@code name} of each rewriter subtask of {@code job}, as it reported it. */
    private static List<Long> rewriterCounts(JobID job, String name) {
        return METRICS.findOperatorMetricGroups(job, "materialization rewriter").stream()
                .map(group -> ((Counter) METRICS.getMetricsByGroup(group).get(name)).getCount())
                .toList();
    }

    private Row materialize(String arguments) {
        List<Row> rows =
                session.call(
                        "CALL dt.sys.materialize_deletion_vectors(`table` => 'db.t', "
                                + arguments
                                + ")");
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }
}
