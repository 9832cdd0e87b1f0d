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

import io.dovetail.table.TableStore;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableCommitTest {

    @TempDir java.nio.file.Path dir;

    private TableStore store;
    private final AtomicInteger fileCounter = new AtomicInteger();

    @BeforeEach
    void createTable() {
        TablePaths paths = new TablePaths(new Path(dir.toUri()));
        store = TableStore.at(paths);
        store.schemas()
                .createTable(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT(), null, null),
                                new DataField(1, "dt", DataTypes.STRING(), null, null)),
                        List.of("dt"),
                        List.of(),
                        Map.of(
                                "row-tracking.enabled", "true",
                                "data-evolution.enabled", "true",
                                "commit.max-retries", "1000"),
                        null);
    }

    @Test
    void appendAssignsContiguousRowIdsGroupedByPartitionAndSequenceNumbers() {
        Snapshot first =
                commit(
                        CommitRequest.append(
                                "u", 1, List.of(file("a", 3), file("b", 2), file("a", 4))));
        assertThat(first.id()).isEqualTo(1);
        assertThat(first.nextRowId()).isEqualTo(9);
        assertThat(first.totalRecordCount()).isEqualTo(9);
        assertThat(first.deltaRecordCount()).isEqualTo(9);
        assertThat(first.commitKind()).isEqualTo(CommitKind.APPEND);
        List<ManifestEntry> delta = store.files(first).deltaEntries();
        // partition a's files first (in their order), then b's
        assertThat(delta.stream().map(e -> e.file().firstRowId()).toList())
                .containsExactly(0L, 3L, 7L);
        assertThat(delta.stream().map(e -> e.file().rowCount()).toList())
                .containsExactly(3L, 4L, 2L);
        assertThat(delta).allSatisfy(e -> assertSequence(e, 1));

        Snapshot second = commit(CommitRequest.append("u", 2, List.of(file("b", 5))));
        assertThat(second.nextRowId()).isEqualTo(14);
        assertThat(second.totalRecordCount()).isEqualTo(14);
        ManifestEntry added = store.files(second).deltaEntries().get(0);
        assertThat(added.file().firstRowId()).isEqualTo(9);
        assertSequence(added, 2);
        assertThat(store.files(second).liveFiles()).hasSize(4);
        assertThat(store.files(second).baseManifests())
                .containsExactlyElementsOf(store.files(first).dataManifests());
    }

    @Test
    void partialColumnFileKeepsItsRangeAndDoesNotAdvanceNextRowId() {
        commit(CommitRequest.append("u", 1, List.of(file("a", 3))));
        ManifestEntry partial =
                withFile(file("a", 3), b -> b.firstRowId(0L).writeCols(List.of("id")));
        assertThatThrownBy(() -> commit(CommitRequest.append("u", 2, List.of(partial))))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("column update");
        Snapshot update = commit(CommitRequest.columnUpdate("u", 2, 1, List.of(partial)));
        assertThat(update.nextRowId()).isEqualTo(3);
        assertThat(update.totalRecordCount()).isEqualTo(6);
        ManifestEntry written = store.files(update).deltaEntries().get(0);
        assertThat(written.file().firstRowId()).isEqualTo(0);
        assertThat(written.file().writeCols()).containsExactly("id");
        assertSequence(written, 2);
    }

    @Test
    void replayedCommitIsANoOp() {
        CommitRequest request = CommitRequest.append("job-1", 7, List.of(file("a", 3)));
        Snapshot first = commit(request);
        commit(CommitRequest.append("other", 1, List.of(file("a", 1))));
        Snapshot replay = commit(request);
        assertThat(replay).isEqualTo(first);
        assertThat(store.snapshots().listIds()).containsExactly(1, 2);
    }

    @Test
    void deletingAFileThatIsNotLiveIsAConflictAndChangesNothing() {
        Snapshot base = commit(CommitRequest.append("u", 1, List.of(file("a", 3))));
        ManifestEntry live = store.files(base).liveFiles().get(0);
        commit(CommitRequest.overwrite("u", 2, List.of(live), List.of()));
        List<String> manifestsBefore = manifestFiles();

        assertThatThrownBy(() -> commit(CommitRequest.overwrite("u", 3, List.of(live), List.of())))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(live.file().fileName())
                .hasMessageContaining("no longer live");
        assertThat(store.snapshots().listIds()).containsExactly(1, 2);
        assertThat(manifestFiles()).isEqualTo(manifestsBefore);
    }

    @Test
    void nonAppendFileWithoutRowIdsIsRefused() {
        ManifestEntry compacted =
                withFile(
                        file("a", 3),
                        b -> b.fileSource(io.dovetail.table.manifest.FileSource.COMPACT));
        assertThatThrownBy(() -> commit(CommitRequest.append("u", 1, List.of(compacted))))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("row-id range");
        assertThat(store.latestSnapshot()).isEmpty();
    }

    @Test
    void eightRacingCommittersLoseNothing() throws Exception {
        int threads = 8;
        int commitsEach = 15;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String user = "writer-" + t;
            futures.add(
                    pool.submit(
                            () -> {
                                for (int i = 1; i <= commitsEach; i++) {
                                    commit(
                                            CommitRequest.append(
                                                    user, i, List.of(file("p" + (i % 3), 2))));
                                    acknowledged.add(user + "#" + i);
                                }
                                return null;
                            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();

        long[] ids = store.snapshots().listIds();
        assertThat(ids).hasSize(threads * commitsEach);
        Set<String> committed = ConcurrentHashMap.newKeySet();
        long expectedNextRowId = 0;
        for (long id : ids) {
            Snapshot s = store.snapshots().snapshot(id);
            assertThat(committed.add(s.commitUser() + "#" + s.commitIdentifier())).isTrue();
            expectedNextRowId += 2;
            assertThat(s.nextRowId()).isEqualTo(expectedNextRowId);
        }
        assertThat(committed).isEqualTo(acknowledged);
        Snapshot latest = store.latestSnapshot().orElseThrow();
        List<ManifestEntry> live = store.files(latest).liveFiles();
        assertThat(live).hasSize(threads * commitsEach);
        // row-id ranges of all files are disjoint and cover [0, nextRowId)
        long[] firsts = live.stream().mapToLong(e -> e.file().firstRowId()).sorted().toArray();
        for (int i = 0; i < firsts.length; i++) {
            assertThat(firsts[i]).isEqualTo(2L * i);
        }
        // losers cleaned up: every manifest file is referenced by some snapshot
        assertThat(manifestFiles()).containsExactlyInAnyOrderElementsOf(referencedManifests());
    }

    @Test
    void manyCommitsMergeBaseManifestsWithoutChangingTheTable() {
        store.schemas().commitChanges(SchemaChange.setOption("manifest.merge-min-count", "4"));
        for (int i = 1; i <= 12; i++) {
            commit(CommitRequest.append("u", i, List.of(file("p" + (i % 2), i))));
        }
        Snapshot latest = store.latestSnapshot().orElseThrow();
        SnapshotFiles files = store.files(latest);
        assertThat(files.dataManifests().size()).isLessThanOrEqualTo(4 + 1);
        List<ManifestEntry> live = files.liveFiles();
        assertThat(live).hasSize(12);
        assertThat(live.stream().mapToLong(e -> e.file().rowCount()).sum())
                .isEqualTo(latest.nextRowId())
                .isEqualTo(78);
        assertThat(live).allSatisfy(e -> assertThat(e.kind()).isEqualTo(FileKind.ADD));
        assertThat(manifestFiles()).containsExactlyInAnyOrderElementsOf(referencedManifests());
    }

    private Snapshot commit(CommitRequest request) {
        return new TableCommit(store).commit(request);
    }

    private ManifestEntry file(String partition, long rows) {
        DataFileMeta meta =
                DataFileMeta.builder("data-test-" + fileCounter.incrementAndGet() + ".parquet")
                        .fileSize(100)
                        .rowCount(rows)
                        .build();
        byte[] partitionBytes =
                BinaryRowCodec.of(new VarCharType(VarCharType.MAX_LENGTH))
                        .serialize(GenericRowData.of(StringData.fromString(partition)));
        return new ManifestEntry(FileKind.ADD, partitionBytes, 0, -1, meta);
    }

    private static ManifestEntry withFile(
            ManifestEntry entry, java.util.function.UnaryOperator<DataFileMeta.Builder> change) {
        return new ManifestEntry(
                entry.kind(),
                entry.partition(),
                entry.bucket(),
                entry.totalBuckets(),
                change.apply(entry.file().toBuilder()).build());
    }

    private static void assertSequence(ManifestEntry entry, long snapshotId) {
        assertThat(entry.file().minSequenceNumber()).isEqualTo(snapshotId);
        assertThat(entry.file().maxSequenceNumber()).isEqualTo(snapshotId);
    }

    /** Manifest lists and manifests that some snapshot references. */
    private List<String> referencedManifests() {
        java.util.Set<String> names = new java.util.TreeSet<>();
        for (long id : store.snapshots().listIds()) {
            Snapshot s = store.snapshots().snapshot(id);
            names.add(s.baseManifestList());
            names.add(s.deltaManifestList());
            store.files(s).dataManifests().forEach(m -> names.add(m.fileName()));
        }
        return new ArrayList<>(names);
    }

    private List<String> manifestFiles() {
        String[] names = new File(dir.toFile(), "manifest").list();
        List<String> sorted = new ArrayList<>(Arrays.asList(names == null ? new String[0] : names));
        sorted.sort(null);
        return sorted;
    }
}
