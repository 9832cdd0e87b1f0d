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
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.manifest.ManifestPartitionFilter;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a commit reads of a table of 100,000 data files (metadata-only files in 100 partitions, one
 * append of 1,000 files per partition, as a daily load writes them), counted as the manifest files
 * it opens and the entries they hold (through {@code faulty://}, which logs every opening). The
 * manifests roll at 16 kB ({@code manifest.target-file-size}), so that these small entries spread
 * over many manifests as real ones do at the default 8 MB. Reads are split into the manifests a
 * commit loads live files or history from, and the small ones it merges ({@link ManifestMerge},
 * bounded by the target size). Before this change, a new committer read every manifest of the
 * latest snapshot whatever it committed; each test prints that figure next to what it reads now.
 */
class CommitReadCostTest {

    private static final int PARTITIONS = 100;
    private static final int FILES_PER_PARTITION = 1_000;
    private static final long TARGET_FILE_SIZE = 16 * 1024;

    @TempDir static java.nio.file.Path dir;
    private static TestTable table;

    @BeforeAll
    static void tableOf100000Files() {
        table = new TestTable(new Path(FaultyFileSystem.SCHEME + "://" + dir), false);
        table.store
                .schemas()
                .commitChanges(
                        SchemaChange.setOption(
                                "manifest.target-file-size", TARGET_FILE_SIZE + " b"));
        TableCommit loader = new TableCommit(table.store);
        for (int p = 0; p < PARTITIONS; p++) {
            List<ManifestEntry> files = new ArrayList<>();
            for (int f = 0; f < FILES_PER_PARTITION; f++) {
                files.add(table.fakeAppend(partition(p), 10));
            }
            loader.commit(CommitRequest.append("loader", p + 1, files));
        }
        assertThat(table.live()).hasSize(PARTITIONS * FILES_PER_PARTITION);
    }

    @Test
    void aCommitterThatSawAPartitionReadsOnlyTheCommitsSinceThen() {
        TableCommit job = new TableCommit(table.store);
        ManifestEntry group = firstGroupOf(partition(5));
        job.commit(
                CommitRequest.columnUpdate(
                        "job", 1, table.latest().id(), partial(partition(5), group, "a")));
        long base = table.latest().id();
        for (int other = 0; other < 3; other++) {
            table.commit(
                    CommitRequest.append(
                            "other-" + other, 1, List.of(table.fakeAppend(partition(1), 10))));
        }
        Reads reads =
                reads(
                        "committer that saw the partition, column update",
                        () ->
                                job.commit(
                                        CommitRequest.columnUpdate(
                                                "job",
                                                2,
                                                base,
                                                partial(partition(5), group, "b"))));
        assertThat(reads.loaded)
                .as("the entries of the 4 commits since the job's last commit, not 100,000")
                .isLessThanOrEqualTo(8);
        assertMergedWithinTarget(reads);
    }

    @Test
    void aNewCommittersAppendReadsNoLiveFiles() {
        Reads reads =
                reads(
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
    void aNewCommittersColumnUpdateOfOnePartitionReadsThatPartitionsManifests() {
        String partition = partition(42);
        ManifestEntry group = firstGroupOf(partition);
        long base = table.latest().id();
        Snapshot concurrent =
                table.commit(
                        CommitRequest.append(
                                "concurrent", 1, List.of(table.fakeAppend(partition(3), 10))));
        Reads reads =
                reads(
                        "new committer, column update of 1 partition of 100",
                        () ->
                                new TableCommit(table.store)
                                        .commit(
                                                CommitRequest.columnUpdate(
                                                        "new-updater",
                                                        1,
                                                        base,
                                                        partial(partition, group, "c"))));
        assertThat(reads.loaded)
                .as(
                        "entries of the manifests that can hold %s, and of the commit since base",
                        partition)
                .isLessThanOrEqualTo(
                        entriesOfManifestsHolding(partition, base) + deltaEntries(concurrent))
                .isLessThan(reads.before / 20);
        assertMergedWithinTarget(reads);
    }

    @Test
    void aNewCommittersCompactionOfOnePartitionReadsThatPartitionsManifests() {
        String partition = partition(17);
        byte[] bytes = TestTable.partitionBytes(partition);
        List<ManifestEntry> before =
                table.live().stream().filter(e -> Arrays.equals(e.partition(), bytes)).toList();
        long first = before.stream().mapToLong(e -> e.file().firstRowId()).min().orElseThrow();
        long rows = before.stream().mapToLong(e -> e.file().rowCount()).sum();
        ManifestEntry fake = table.fakeAppend(partition, rows);
        ManifestEntry after =
                TestTable.withFile(
                        fake,
                        fake.file().toBuilder()
                                .firstRowId(first)
                                .fileSource(FileSource.COMPACT)
                                .build());
        long base = table.latest().id();
        Reads reads =
                reads(
                        "new committer, compaction of 1 partition of 100",
                        () ->
                                new TableCommit(table.store)
                                        .commit(
                                                CommitRequest.compact(
                                                        "new-compactor",
                                                        1,
                                                        before,
                                                        List.of(after),
                                                        IndexChanges.NONE)));
        assertThat(reads.loaded)
                .isLessThanOrEqualTo(entriesOfManifestsHolding(partition, base))
                .isLessThan(reads.before / 20);
        assertMergedWithinTarget(reads);
        assertThat(table.live().stream().filter(e -> Arrays.equals(e.partition(), bytes)))
                .singleElement()
                .satisfies(
                        e -> {
                            assertThat(e.file().fileName()).isEqualTo(fake.file().fileName());
                            assertThat(e.file().firstRowId()).isEqualTo(first);
                            assertThat(e.file().rowCount()).isEqualTo(rows);
                        });
    }

    private static String partition(int p) {
        return String.format("p%02d", p);
    }

    private static ManifestEntry firstGroupOf(String partition) {
        byte[] bytes = TestTable.partitionBytes(partition);
        return table.live().stream()
                .filter(e -> Arrays.equals(e.partition(), bytes) && e.file().writeCols() == null)
                .findFirst()
                .orElseThrow();
    }

    private static List<ManifestEntry> partial(
            String partition, ManifestEntry group, String column) {
        return List.of(
                table.fakePartial(
                        partition,
                        List.of(column),
                        group.file().firstRowId(),
                        group.file().rowCount()));
    }

    /**
     * The entries of the manifests of snapshot {@code id} whose statistics can hold the partition.
     */
    private static long entriesOfManifestsHolding(String partition, long id) {
        ManifestPartitionFilter filter =
                new ManifestPartitionFilter(
                        List.of(new VarCharType(VarCharType.MAX_LENGTH)),
                        Set.of(ByteBuffer.wrap(TestTable.partitionBytes(partition))));
        return manifests(id).stream().filter(filter::mayHold).mapToLong(m -> entries(m)).sum();
    }

    private static long deltaEntries(Snapshot snapshot) {
        return table.store.files(snapshot).deltaManifests().stream()
                .mapToLong(m -> entries(m))
                .sum();
    }

    private static List<ManifestFileMeta> manifests(long id) {
        return table.store.files(table.store.snapshots().snapshot(id)).dataManifests();
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
    private static Reads reads(String what, Runnable commit) {
        Map<String, ManifestFileMeta> known = new HashMap<>();
        for (long id : table.snapshotIds()) {
            manifests(id).forEach(m -> known.put(m.fileName(), m));
        }
        long latestBefore = table.latest().id();
        List<ManifestFileMeta> inLatest = manifests(latestBefore);
        FaultyFileSystem.opened.clear();
        commit.run();
        List<String> opened = new ArrayList<>(FaultyFileSystem.opened);
        Set<String> kept = new HashSet<>();
        manifests(table.latest().id()).forEach(m -> kept.add(m.fileName()));
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
