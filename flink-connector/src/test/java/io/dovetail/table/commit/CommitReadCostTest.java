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

import io.dovetail.flink.sink.FaultyFileSystem;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.manifest.ManifestPartitionFilter;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a commit reads of a table of 100,000 data files (metadata-only files, one append of 1,000
 * files per partition as a daily load writes them), counted as the manifest files it opens and the
 * entries they hold (through {@code faulty://}, which logs every opening). One table has 100
 * partitions, the other puts all files in one partition, as an unpartitioned table would. The
 * manifests roll at 16 kB ({@code manifest.target-file-size}), so that these small entries spread
 * over many manifests as real ones do at the default 8 MB. Reads are split into the manifests a
 * commit loads live files or history from, and the small ones it merges ({@link ManifestMerge},
 * bounded by the target size). Before this change a new committer read every manifest of the latest
 * snapshot, whatever it committed; each test prints that figure next to what it reads now.
 */
class CommitReadCostTest {

    private static final int LOADS = 100;
    private static final int FILES_PER_LOAD = 1_000;
    private static final long TARGET_FILE_SIZE = 16 * 1024;

    @TempDir static java.nio.file.Path dir;
    @TempDir static java.nio.file.Path onePartitionDir;
    private static TestTable table;
    private static TestTable onePartition;

    @BeforeAll
    static void tablesOf100000Files() {
        table = load(dir, CommitReadCostTest::partition);
        onePartition = load(onePartitionDir, load -> "all");
    }

    private static TestTable load(java.nio.file.Path dir, IntFunction<String> partitionOfLoad) {
        TestTable table = new TestTable(new Path(FaultyFileSystem.SCHEME + "://" + dir), false);
        table.store
                .schemas()
                .commitChanges(
                        SchemaChange.setOption(
                                "manifest.target-file-size", TARGET_FILE_SIZE + " b"));
        TableCommit loader = new TableCommit(table.store);
        for (int load = 0; load < LOADS; load++) {
            List<ManifestEntry> files = new ArrayList<>();
            for (int f = 0; f < FILES_PER_LOAD; f++) {
                files.add(table.fakeAppend(partitionOfLoad.apply(load), 10));
            }
            loader.commit(CommitRequest.append("loader", load + 1, files));
        }
        assertThat(table.live()).hasSize(LOADS * FILES_PER_LOAD);
        return table;
    }

    @Test
    void aCommitterThatSawAPartitionReadsOnlyTheCommitsSinceThen() {
        TableCommit job = new TableCommit(table.store);
        ManifestEntry group = firstGroupOf(table, partition(5));
        job.commit(
                CommitRequest.columnUpdate(
                        "job", 1, table.latest().id(), partial(table, partition(5), group, "a")));
        long base = table.latest().id();
        for (int other = 0; other < 3; other++) {
            table.commit(
                    CommitRequest.append(
                            "other-" + other, 1, List.of(table.fakeAppend(partition(1), 10))));
        }
        Reads reads =
                reads(
                        table,
                        "committer that saw the rows, column update",
                        () ->
                                job.commit(
                                        CommitRequest.columnUpdate(
                                                "job",
                                                2,
                                                base,
                                                partial(table, partition(5), group, "b"))));
        assertThat(reads.loaded)
                .as("the entries of the 4 commits since the job's last commit, not 100,000")
                .isLessThanOrEqualTo(8);
        assertMergedWithinTarget(reads);
    }

    @Test
    void aNewCommittersAppendReadsNoLiveFiles() {
        Reads reads =
                reads(
                        table,
                        "new committer, append",
                        () ->
                                new TableCommit(table.store)
                                        .commit(
                                                CommitRequest.append(
                                                        "new-appender",
                                                        1,
                                                        List.of(
                                                                table.fakeAppend(
                                                                        partition(2), 10)))));
        assertThat(reads.loaded).isZero();
        assertMergedWithinTarget(reads);
    }

    @Test
    void aNewCommittersColumnUpdateOfOnePartitionReadsTheManifestsOfItsRows() {
        ManifestEntry group = firstGroupOf(table, partition(42));
        long base = table.latest().id();
        Snapshot concurrent =
                table.commit(
                        CommitRequest.append(
                                "concurrent", 1, List.of(table.fakeAppend(partition(3), 10))));
        Reads reads =
                reads(
                        table,
                        "new committer, column update of 1 group in 1 partition of 100",
                        () ->
                                new TableCommit(table.store)
                                        .commit(
                                                CommitRequest.columnUpdate(
                                                        "new-updater",
                                                        1,
                                                        base,
                                                        partial(
                                                                table,
                                                                partition(42),
                                                                group,
                                                                "c"))));
        assertThat(reads.loaded)
                .as("entries of the manifests that can hold the group, and of the commit since")
                .isLessThanOrEqualTo(
                        entriesOfManifestsHolding(table, group, concurrent.id())
                                + deltaEntries(concurrent))
                .isLessThan(reads.before / 50);
        assertMergedWithinTarget(reads);
    }

    @Test
    void aNewCommittersColumnUpdateInATableOfOnePartitionReadsTheManifestsOfItsRows() {
        ManifestEntry group = firstGroupOf(onePartition, "all");
        long base = onePartition.latest().id();
        Reads reads =
                reads(
                        onePartition,
                        "new committer, column update of 1 group in a table of 1 partition",
                        () ->
                                new TableCommit(onePartition.store)
                                        .commit(
                                                CommitRequest.columnUpdate(
                                                        "new-updater",
                                                        1,
                                                        base,
                                                        partial(onePartition, "all", group, "c"))));
        assertThat(reads.loaded)
                .as("entries of the manifests whose row ids can hold the group")
                .isLessThanOrEqualTo(entriesOfManifestsHolding(onePartition, group, base))
                .isLessThan(reads.before / 50);
        assertMergedWithinTarget(reads);
    }

    @Test
    void aNewCommittersCompactionOfOnePartitionReadsThatPartitionsManifests() {
        String partition = partition(17);
        byte[] bytes = TestTable.partitionBytes(partition);
        CommitOperation.Compact compaction = table.fakeCompactionOf(partition);
        ManifestEntry after = compaction.after().get(0);
        long base = table.latest().id();
        Reads reads =
                reads(
                        table,
                        "new committer, compaction of 1 partition of 100",
                        () ->
                                new TableCommit(table.store)
                                        .commit(new CommitRequest("new-compactor", 1, compaction)));
        assertThat(reads.loaded)
                .as("entries of the manifests that can hold the partition")
                .isLessThanOrEqualTo(entriesOfManifestsHolding(table, after, base))
                .isLessThan(reads.before / 20);
        assertMergedWithinTarget(reads);
        assertThat(table.live().stream().filter(e -> Arrays.equals(e.partition(), bytes)))
                .singleElement()
                .satisfies(
                        e -> {
                            assertThat(e.file().fileName()).isEqualTo(after.file().fileName());
                            assertThat(e.file().firstRowId()).isEqualTo(after.file().firstRowId());
                            assertThat(e.file().rowCount())
                                    .isEqualTo(
                                            compaction.before().stream()
                                                    .mapToLong(b -> b.file().rowCount())
                                                    .sum());
                        });
    }

    private static String partition(int p) {
        return String.format("p%02d", p);
    }

    private static ManifestEntry firstGroupOf(TestTable t, String partition) {
        byte[] bytes = TestTable.partitionBytes(partition);
        return t.live().stream()
                .filter(e -> Arrays.equals(e.partition(), bytes) && e.file().writeCols() == null)
                .findFirst()
                .orElseThrow();
    }

    private static List<ManifestEntry> partial(
            TestTable t, String partition, ManifestEntry group, String column) {
        return List.of(
                t.fakePartial(
                        partition,
                        List.of(column),
                        group.file().firstRowId(),
                        group.file().rowCount()));
    }

    /**
     * The entries of the manifests of snapshot {@code id} (the latest when the commit starts) whose
     * partition statistics can hold the partition of {@code file} and whose row-id bounds its rows.
     */
    private static long entriesOfManifestsHolding(TestTable t, ManifestEntry file, long id) {
        ManifestPartitionFilter filter =
                new ManifestPartitionFilter(
                        List.of(new VarCharType(VarCharType.MAX_LENGTH)),
                        Set.of(ByteBuffer.wrap(file.partition())));
        RowRange rows = RowRange.of(file.file());
        return manifests(t, id).stream()
                .filter(filter::mayHold)
                .filter(
                        m ->
                                m.minRowId() == null
                                        || rows.overlaps(new RowRange(m.minRowId(), m.maxRowId())))
                .mapToLong(m -> entries(m))
                .sum();
    }

    private static long deltaEntries(Snapshot snapshot) {
        return table.store.files(snapshot).deltaManifests().stream()
                .mapToLong(m -> entries(m))
                .sum();
    }

    private static List<ManifestFileMeta> manifests(TestTable t, long id) {
        return t.store.files(t.store.snapshots().snapshot(id)).dataManifests();
    }

    private static long entries(ManifestFileMeta manifest) {
        return manifest.numAddedFiles() + manifest.numDeletedFiles();
    }

    /** The manifests a commit merged weigh about one target size (a run and its last manifest). */
    private static void assertMergedWithinTarget(Reads reads) {
        assertThat(reads.mergedBytes).isLessThan(3 * TARGET_FILE_SIZE);
    }

    /**
     * The data manifests {@code commit} opens and the entries they hold: merged ones (in the latest
     * snapshot before the commit, not after) apart from the rest.
     */
    private static Reads reads(TestTable t, String what, Runnable commit) {
        Map<String, ManifestFileMeta> known = new HashMap<>();
        for (long id : t.snapshotIds()) {
            manifests(t, id).forEach(m -> known.put(m.fileName(), m));
        }
        List<ManifestFileMeta> inLatest = manifests(t, t.latest().id());
        FaultyFileSystem.opened.clear();
        commit.run();
        List<String> opened = new ArrayList<>(FaultyFileSystem.opened);
        Set<String> kept = new HashSet<>();
        manifests(t, t.latest().id()).forEach(m -> kept.add(m.fileName()));
        Reads reads = new Reads();
        reads.before = inLatest.stream().mapToLong(m -> entries(m)).sum();
        for (String name : opened) {
            ManifestFileMeta manifest = known.get(name);
            if (manifest == null) {
                continue;
            }
            if (inLatest.contains(manifest) && !kept.contains(name)) {
                reads.mergedBytes += manifest.fileSize();
                reads.merged += entries(manifest);
            } else {
                reads.loaded += entries(manifest);
            }
        }
        System.out.printf(
                "%s: read %d entries (+ %d in %d bytes of small manifests merged) of the %d in"
                        + " the latest snapshot's %d manifests; before this change a new committer"
                        + " read all %d%n",
                what,
                reads.loaded,
                reads.merged,
                reads.mergedBytes,
                reads.before,
                inLatest.size(),
                reads.before);
        return reads;
    }

    private static final class Reads {
        long loaded;
        long merged;
        long mergedBytes;
        long before;
    }
}
