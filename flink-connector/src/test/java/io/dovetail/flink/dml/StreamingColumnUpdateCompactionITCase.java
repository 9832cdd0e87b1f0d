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
package io.dovetail.flink.dml;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.RowGroups;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.TestCompaction;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A streaming column update lives with compaction: two writers stream updates of the caption of
 * 2,000 rows (eight groups of 250 rows; about 900 updates a second, each row updated every two
 * seconds or so) for {@value #DEFAULT_SECONDS} seconds, or the number of seconds in system property
 * {@value #SECONDS_PROPERTY} (a soak: {@code -Ddovetail.compaction-soak.seconds=300}),
 * checkpointing every 200 ms, while another thread compacts the table every 600 ms: merging the two
 * neighbouring groups with the fewest rows (each time two groups the writers share out
 * differently), and once one group is left splitting it into eight again. The job runs without
 * restarts (any failure fails the test: no commit may conflict), commits each checkpoint once, and
 * leaves each row exactly its last update.
 */
class StreamingColumnUpdateCompactionITCase {

    static final String SECONDS_PROPERTY = "dovetail.compaction-soak.seconds";
    static final int DEFAULT_SECONDS = 12;
    private static final int ROWS = 2_000;
    private static final int GROUPS = 8;
    private static final long SECONDS = Long.getLong(SECONDS_PROPERTY, DEFAULT_SECONDS);
    private static final long UPDATES = SECONDS * 900;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir java.nio.file.Path dir;

    @Test
    void compactionsWhileUpdatesStreamNeitherConflictNorLoseUpdates() {
        assertTimeoutPreemptively(Duration.ofSeconds(3 * SECONDS + 120), this::streamAndCompact);
    }

    private void streamAndCompact() throws Exception {
        TablePaths table = new TablePaths(new Path(dir.toUri()));
        TableStore store = TableStore.at(table);
        CaptionTables.create(store, ROWS, GROUPS, null);
        long before = store.snapshots().latestId().orElseThrow();

        Configuration config = new Configuration();
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(2);
        RowType type = RowType.of(new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH));
        RowLevelSink.forStreamingColumnUpdates(table, List.of("caption"))
                .boundedInput(true)
                .build(
                        env.fromSequence(0, UPDATES - 1)
                                .setParallelism(1) // one ordered stream of updates
                                .map(new SlowUpdates())
                                .setParallelism(1)
                                .returns(InternalTypeInfo.of(type)));
        Compactor compactor = new Compactor(store);
        Thread compactions = new Thread(compactor, "compactor");
        compactions.start();
        try {
            env.execute("streaming column updates and compactions");
        } finally {
            compactor.stop.set(true);
            compactions.join();
        }

        assertThat(compactor.merges).as("compactions merged groups").isGreaterThanOrEqualTo(3);
        assertThat(compactor.splits).as("compactions split a group").isGreaterThanOrEqualTo(1);
        assertThat(compactor.committed)
                .as("compactions committed while the updates streamed")
                .isGreaterThanOrEqualTo(6);
        Map<Long, String> model = new HashMap<>();
        for (long i = 0; i < UPDATES; i++) {
            model.put(i % ROWS, caption(i)); // the last update of each row wins
        }
        assertThat(CaptionTables.captions(store)).isEqualTo(model);
        Set<Long> identifiers = new HashSet<>();
        int compactionsSeen = 0;
        for (long id = before + 1; id <= store.snapshots().latestId().orElseThrow(); id++) {
            Snapshot snapshot = store.snapshots().snapshot(id);
            if (snapshot.commitKind() == CommitKind.COMPACT) {
                compactionsSeen++;
                continue;
            }
            assertThat(identifiers.add(snapshot.commitIdentifier()))
                    .as("checkpoint %s committed once", snapshot.commitIdentifier())
                    .isTrue();
        }
        assertThat(compactionsSeen).isEqualTo(compactor.committed);
        assertThat(identifiers).as("updates spanned many checkpoints").hasSizeGreaterThan(10);
        System.out.printf(
                "%d s of input: %d updates of %d rows, %d checkpoints committed, %d compactions"
                        + " committed (%d merges, %d splits), %d compactions lost to a commit of"
                        + " the job and planned again, 0 job failures; %d rows checked%n",
                SECONDS,
                UPDATES,
                ROWS,
                identifiers.size(),
                compactor.committed,
                compactor.merges,
                compactor.splits,
                compactor.lost,
                model.size());
    }

    private static String caption(long update) {
        return "row " + update % ROWS + " v" + update / ROWS;
    }

    /** Update {@code n} of row {@code n % ROWS}, about one per millisecond. */
    static final class SlowUpdates implements MapFunction<Long, RowData> {
        @Override
        public RowData map(Long n) throws InterruptedException {
            Thread.sleep(1);
            return GenericRowData.of(n % ROWS, StringData.fromString(caption(n)));
        }
    }

    /**
     * Every 600 ms: merges the two neighbouring groups with the fewest rows, or once one group is
     * left, splits it into {@link #GROUPS}; a compaction that loses to a commit of the job is
     * planned again.
     */
    private static final class Compactor implements Runnable {

        final AtomicBoolean stop = new AtomicBoolean();
        private final TableStore store;
        int committed;
        int merges;
        int splits;
        int lost;

        Compactor(TableStore store) {
            this.store = store;
        }

        @Override
        public void run() {
            while (!stop.get()) {
                try {
                    Thread.sleep(600);
                    Snapshot latest = store.latestSnapshot().orElseThrow();
                    List<RowRange> ranges =
                            RowGroups.rangesOfLiveFiles(store.files(latest).liveFiles());
                    RowRange[] outputs =
                            ranges.size() > 1 ? new RowRange[] {fewestRows(ranges)} : split(ranges);
                    new TableCommit(store)
                            .commit(
                                    TestCompaction.rewrite(
                                            store, "compactor-" + committed, latest, outputs));
                    committed++;
                    merges += ranges.size() > 1 ? 1 : 0;
                    splits += ranges.size() > 1 ? 0 : 1;
                } catch (DovetailException e) {
                    lost++; // lost to a commit of the job: plan again on the next round
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** The two neighbouring ranges with the fewest rows, merged. */
        private static RowRange fewestRows(List<RowRange> ranges) {
            RowRange output = null;
            for (int i = 0; i + 1 < ranges.size(); i++) {
                RowRange merged = new RowRange(ranges.get(i).first(), ranges.get(i + 1).last());
                if (output == null || merged.count() < output.count()) {
                    output = merged;
                }
            }
            return output;
        }

        /** The one range, split into {@link #GROUPS} ranges. */
        private static RowRange[] split(List<RowRange> ranges) {
            RowRange all = ranges.get(0);
            long size = all.count() / GROUPS;
            RowRange[] outputs = new RowRange[GROUPS];
            for (int i = 0; i < GROUPS; i++) {
                long first = all.first() + i * size;
                outputs[i] = new RowRange(first, i == GROUPS - 1 ? all.last() : first + size - 1);
            }
            return outputs;
        }
    }
}
