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
package io.dovetail.table.snapshot;

import io.dovetail.table.fs.Writers;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Writers racing through the commit loop lose no commit and overwrite no snapshot. */
class SnapshotCommitRaceTest {

    private static final int WRITERS = 8;
    private static final int COMMITS_PER_WRITER = 50;

    @TempDir java.nio.file.Path root;

    @Test
    void racingWritersCommitEverySnapshotExactlyOnce() throws Exception {
        TablePaths table = new TablePaths(new Path(root.toString()));
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> lostRaces = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            String user = "writer-" + w;
            // Each writer has its own manager, as separate jobs would.
            SnapshotManager manager = new SnapshotManager(table);
            lostRaces.add(
                    pool.submit(
                            () -> {
                                start.await();
                                return commitAll(manager, user);
                            }));
        }
        start.countDown();
        int retries = 0;
        for (Future<Integer> result : lostRaces) {
            retries += result.get();
        }
        pool.shutdown();

        SnapshotManager reader = new SnapshotManager(table);
        int total = WRITERS * COMMITS_PER_WRITER;
        assertThat(reader.listIds()).containsExactly(LongStream.rangeClosed(1, total).toArray());
        assertThat(reader.latestId()).hasValue(total);
        Map<String, Set<Long>> identifiersByUser = new HashMap<>();
        for (long id = 1; id <= total; id++) {
            Snapshot s = reader.snapshot(id);
            assertThat(s.nextRowId()).as("snapshot %d builds on its predecessor", id).isEqualTo(id);
            assertThat(
                            identifiersByUser
                                    .computeIfAbsent(s.commitUser(), u -> new TreeSet<>())
                                    .add(s.commitIdentifier()))
                    .as("%s/%d committed twice", s.commitUser(), s.commitIdentifier())
                    .isTrue();
        }
        assertThat(identifiersByUser).hasSize(WRITERS);
        Set<Long> expected = new TreeSet<>();
        LongStream.range(0, COMMITS_PER_WRITER).forEach(expected::add);
        identifiersByUser.values().forEach(ids -> assertThat(ids).isEqualTo(expected));
        try (Stream<java.nio.file.Path> files = Files.list(root.resolve("snapshot"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("no temporary files remain")
                    .allMatch(name -> name.startsWith("snapshot-") || name.equals("LATEST"));
        }
        assertThat(retries).as("the writers actually raced").isPositive();
    }

    /** The caller's commit loop: read latest, build N = latest + 1 on top of it, try, retry. */
    private static int commitAll(SnapshotManager manager, String user) {
        int lost = 0;
        for (long identifier = 0; identifier < COMMITS_PER_WRITER; identifier++) {
            while (true) {
                Snapshot base = manager.latest().orElse(null);
                long id = base == null ? 1 : base.id() + 1;
                long nextRowId = base == null ? 1 : base.nextRowId() + 1;
                Snapshot next =
                        SnapshotManagerTest.snapshot(id, user, identifier, CommitKind.APPEND)
                                .toBuilder()
                                .nextRowId(nextRowId)
                                .build();
                if (manager.tryCommit(next, Writers.CONCURRENT)) {
                    break;
                }
                lost++;
            }
        }
        return lost;
    }
}
