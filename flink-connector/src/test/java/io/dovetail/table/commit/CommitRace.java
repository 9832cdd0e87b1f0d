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
package io.dovetail.table.commit;

import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.snapshot.Snapshot;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Committers race on one table for a given time with a random mix of appends, column updates of
 * overlapping and disjoint fields, and deletes. Every acknowledged commit must be in the table
 * exactly once, every rejected one must be a conflict that left no trace, and the final metadata
 * (live files with their ranges and write columns, deletion vectors per anchor, {@code nextRowId})
 * must equal a model replaying the acknowledged commits in snapshot order. Runs on any file system
 * the {@link TestTable} lives on.
 */
public final class CommitRace {

    private static final List<String> PARTITIONS = List.of("p0", "p1", "p2");

    /** What one committer asked for. */
    private record Op(
            String user,
            long identifier,
            long base,
            ManifestEntry file, // append or partial file; null for deletes
            String anchor, // deletes
            long[] positions,
            IndexChanges changes) {
        boolean isAppend() {
            return file != null && file.file().firstRowId() == null;
        }

        boolean isUpdate() {
            return file != null && file.file().firstRowId() != null;
        }

        String key() {
            return user + "#" + identifier;
        }
    }

    private final TestTable table;
    private final Map<String, Op> acknowledged = new ConcurrentHashMap<>();
    private final Map<String, Op> rejected = new ConcurrentHashMap<>();

    /** The table must be new, with deletion vectors enabled. */
    public CommitRace(TestTable table) {
        this.table = table;
    }

    /**
     * Races {@code threads} committers for {@code millis} and checks the table against the model.
     */
    public void runAndVerify(int threads, long millis) throws Exception {
        for (String partition : PARTITIONS) {
            for (int i = 0; i < 2; i++) {
                Op op = appendOp("setup", acknowledged.size() + 1, partition, 10);
                table.commit(CommitRequest.append(op.user(), op.identifier(), List.of(op.file())));
                acknowledged.put(op.key(), op);
            }
        }
        commitDisjointPairOnOneBase();
        long deadline = System.currentTimeMillis() + millis;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            futures.add(pool.submit(() -> run("writer-" + thread, thread, deadline)));
        }
        for (Future<?> future : futures) {
            future.get();
        }
        pool.shutdown();

        verify();
    }

    private static CommitScope allPartitions() {
        Set<ByteBuffer> all = new HashSet<>();
        PARTITIONS.forEach(p -> all.add(ByteBuffer.wrap(TestTable.partitionBytes(p))));
        return CommitScope.wholePartitions(all);
    }

    private Void run(String user, long seed, long deadline) {
        Random random = new Random(seed);
        TableCommit commit = new TableCommit(table.store);
        SnapshotHistory history = new SnapshotHistory(table.store);
        DeletionVectorWriter deletes = new DeletionVectorWriter(table.store);
        long identifier = 0;
        while (System.currentTimeMillis() < deadline) {
            identifier++;
            Snapshot base = table.latest();
            TableState planned = history.stateAt(Optional.of(base), allPartitions());
            List<ManifestEntry> groups =
                    planned.liveFiles().stream().filter(e -> e.file().writeCols() == null).toList();
            ManifestEntry group = groups.get(random.nextInt(groups.size()));
            int dice = random.nextInt(100);
            Op op;
            CommitRequest request;
            if (dice < 15) {
                String partition = PARTITIONS.get(random.nextInt(PARTITIONS.size()));
                op = appendOp(user, identifier, partition, 1 + random.nextInt(20));
                request = CommitRequest.append(user, identifier, List.of(op.file()));
            } else if (dice < 70) {
                List<String> columns = new ArrayList<>();
                for (String column : TestTable.VALUE_COLUMNS) {
                    if (random.nextBoolean()) {
                        columns.add(column);
                    }
                }
                if (columns.isEmpty()) {
                    columns.add(TestTable.VALUE_COLUMNS.get(random.nextInt(3)));
                }
                ManifestEntry partial =
                        table.fakePartial(
                                partitionOf(group),
                                columns,
                                group.file().firstRowId(),
                                group.file().rowCount());
                op = new Op(user, identifier, base.id(), partial, null, null, null);
                request = CommitRequest.columnUpdate(user, identifier, base.id(), List.of(partial));
            } else {
                long[] positions = new long[1 + random.nextInt(3)];
                for (int i = 0; i < positions.length; i++) {
                    positions[i] = random.nextInt((int) group.file().rowCount());
                }
                String anchor = group.file().fileName();
                IndexChanges changes =
                        deletes.write(
                                base,
                                planned.liveFiles(),
                                planned.indexFiles(),
                                Map.of(anchor, positions));
                op = new Op(user, identifier, base.id(), null, anchor, positions, changes);
                request = CommitRequest.delete(user, identifier, base.id(), changes);
            }
            try {
                commit.commit(request);
                acknowledged.put(op.key(), op);
            } catch (DovetailException e) {
                assertThat(e.kind()).as(e.getMessage()).isEqualTo(DovetailException.Kind.CONFLICT);
                rejected.put(op.key(), op);
            }
        }
        return null;
    }

    /**
     * Two updates of disjoint columns of one range, both planned on the same base and committed one
     * after the other: both must land (the racing phase may or may not produce such a pair).
     */
    private void commitDisjointPairOnOneBase() {
        Snapshot base = table.latest();
        ManifestEntry group =
                new SnapshotHistory(table.store)
                        .stateAt(Optional.of(base), allPartitions()).liveFiles().stream()
                                .filter(e -> e.file().writeCols() == null)
                                .findFirst()
                                .orElseThrow();
        for (int i = 0; i < 2; i++) {
            ManifestEntry partial =
                    table.fakePartial(
                            partitionOf(group),
                            List.of(TestTable.VALUE_COLUMNS.get(i)),
                            group.file().firstRowId(),
                            group.file().rowCount());
            Op op = new Op("pair", i + 1, base.id(), partial, null, null, null);
            table.commit(CommitRequest.columnUpdate("pair", i + 1, base.id(), List.of(partial)));
            acknowledged.put(op.key(), op);
        }
    }

    private Op appendOp(String user, long identifier, String partition, long rows) {
        return new Op(user, identifier, -1, table.fakeAppend(partition, rows), null, null, null);
    }

    private void verify() {
        Map<String, Long> snapshotOf = new HashMap<>();
        Map<String, ModelFile> live = new TreeMap<>();
        Map<String, Set<Long>> vectors = new TreeMap<>();
        List<Op> updates = new ArrayList<>();
        Set<String> referencedIndexFiles = new HashSet<>();
        Set<String> seenIndexManifests = new HashSet<>();
        long nextRowId = 0;
        for (long id : table.snapshotIds()) {
            Snapshot snapshot = table.store.snapshots().snapshot(id);
            Op op = acknowledged.get(snapshot.commitUser() + "#" + snapshot.commitIdentifier());
            assertThat(op).as("snapshot %s is an acknowledged commit", id).isNotNull();
            assertThat(snapshotOf.put(op.key(), id)).as("committed once").isNull();
            if (op.isAppend()) {
                live.put(
                        op.file().file().fileName(),
                        new ModelFile(nextRowId, op.file().file().rowCount(), null));
                nextRowId += op.file().file().rowCount();
            } else if (op.isUpdate()) {
                live.put(
                        op.file().file().fileName(),
                        new ModelFile(
                                op.file().file().firstRowId(),
                                op.file().file().rowCount(),
                                op.file().file().writeCols()));
                updates.add(op);
            } else {
                Set<Long> positions = vectors.computeIfAbsent(op.anchor(), k -> new TreeSet<>());
                for (long p : op.positions()) {
                    positions.add(p);
                }
            }
            assertThat(snapshot.nextRowId()).isEqualTo(nextRowId);
            if (snapshot.indexManifest() != null
                    && seenIndexManifests.add(snapshot.indexManifest())) {
                table.store.files(snapshot).indexFiles().stream()
                        .map(e -> e.indexFile().fileName())
                        .forEach(referencedIndexFiles::add);
            }
        }
        assertThat(snapshotOf.keySet()).isEqualTo(acknowledged.keySet());
        for (Op op : rejected.values()) {
            assertThat(snapshotOf).doesNotContainKey(op.key());
            if (op.changes() != null) {
                for (IndexManifestEntry added : op.changes().added()) {
                    assertThat(referencedIndexFiles).doesNotContain(added.indexFile().fileName());
                }
            }
        }

        Map<String, ModelFile> actual = new TreeMap<>();
        for (ManifestEntry entry : table.live()) {
            actual.put(
                    entry.file().fileName(),
                    new ModelFile(
                            entry.file().firstRowId(),
                            entry.file().rowCount(),
                            entry.file().writeCols()));
        }
        assertThat(actual).isEqualTo(live);
        Map<String, DeletionVector> expectedVectors = new TreeMap<>();
        vectors.forEach(
                (anchor, positions) ->
                        expectedVectors.put(
                                anchor,
                                DeletionVector.of(
                                        positions.stream().mapToLong(Long::longValue).toArray())));
        assertThat(table.vectors()).isEqualTo(expectedVectors);

        System.err.println(
                "STATS snapshots="
                        + snapshotOf.size()
                        + " rejected="
                        + rejected.size()
                        + " updates="
                        + updates.size()
                        + " vectors="
                        + vectors.size()
                        + " concurrent="
                        + countConcurrentDisjointUpdates(updates, snapshotOf));
        assertNoLostUpdate(updates, snapshotOf);
        long concurrentDisjoint = countConcurrentDisjointUpdates(updates, snapshotOf);
        assertThat(rejected).as("some commits conflicted").isNotEmpty();
        assertThat(concurrentDisjoint)
                .as("updates of disjoint fields of one range planned on the same base both landed")
                .isPositive();
    }

    /** No acknowledged update was planned before another acknowledged update of a common field. */
    private static void assertNoLostUpdate(List<Op> updates, Map<String, Long> snapshotOf) {
        for (Op later : updates) {
            long landed = snapshotOf.get(later.key());
            for (Op earlier : updates) {
                long other = snapshotOf.get(earlier.key());
                if (other > later.base()
                        && other < landed
                        && sameRange(earlier, later)
                        && earlier.file().file().writeCols().stream()
                                .anyMatch(later.file().file().writeCols()::contains)) {
                    throw new AssertionError(
                            later.key() + " overwrote the fields " + earlier.key() + " changed");
                }
            }
        }
    }

    private static long countConcurrentDisjointUpdates(
            List<Op> updates, Map<String, Long> snapshotOf) {
        long count = 0;
        for (Op later : updates) {
            for (Op earlier : updates) {
                long other = snapshotOf.get(earlier.key());
                if (other > later.base()
                        && other < snapshotOf.get(later.key())
                        && sameRange(earlier, later)) {
                    count++;
                }
            }
        }
        return count;
    }

    private static boolean sameRange(Op a, Op b) {
        return a.file().file().firstRowId().equals(b.file().file().firstRowId());
    }

    private static String partitionOf(ManifestEntry entry) {
        for (String partition : PARTITIONS) {
            if (java.util.Arrays.equals(TestTable.partitionBytes(partition), entry.partition())) {
                return partition;
            }
        }
        throw new AssertionError("unknown partition");
    }

    private record ModelFile(long firstRowId, long rowCount, List<String> writeCols) {}
}
