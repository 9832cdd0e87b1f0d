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

import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a commit reads of a table of 100,000 data files (metadata-only files in 100 partitions,
 * written by 10 appends), counted as the manifest files it opens and the entries they hold (through
 * {@code faulty://}, which logs every opening). A committer that has seen the table reads only the
 * manifests of the commits made since it last looked, whatever the table's size; a new committer
 * (each batch job has one) reads the latest snapshot's manifests once.
 */
class CommitReadCostTest {

    private static final int FILES = 100_000;
    private static final int APPENDS = 10;
    private static final int PARTITIONS = 100;

    @TempDir static java.nio.file.Path dir;
    private static TestTable table;

    @BeforeAll
    static void tableOf100000Files() {
        table = new TestTable(new Path(FaultyFileSystem.SCHEME + "://" + dir), false);
        TableCommit loader = new TableCommit(table.store);
        for (int a = 0; a < APPENDS; a++) {
            List<ManifestEntry> files = new ArrayList<>();
            for (int f = 0; f < FILES / APPENDS; f++) {
                files.add(table.fakeAppend("p" + (f % PARTITIONS), 10));
            }
            loader.commit(CommitRequest.append("loader", a + 1, files));
        }
        assertThat(table.live()).hasSize(FILES);
    }

    @Test
    void aCommitterThatSawTheTableReadsOnlyTheCommitsSinceThenWhateverTheTableSize() {
        TableCommit job = new TableCommit(table.store);
        long base = table.latest().id();
        job.commit(CommitRequest.append("job", 1, List.of(table.fakeAppend("p0", 10))));
        for (int other = 0; other < 3; other++) {
            table.commit(
                    CommitRequest.append("other-" + other, 1, List.of(table.fakeAppend("p1", 10))));
        }
        byte[] p5 = TestTable.partitionBytes("p5");
        ManifestEntry group =
                table.live().stream()
                        .filter(e -> java.util.Arrays.equals(e.partition(), p5))
                        .findFirst()
                        .orElseThrow();
        ManifestEntry partial =
                table.fakePartial(
                        "p5", List.of("a"), group.file().firstRowId(), group.file().rowCount());
        Reads reads =
                reads(
                        () ->
                                job.commit(
                                        CommitRequest.columnUpdate(
                                                "job", 2, base, List.of(partial))));
        assertThat(reads.entries)
                .as("the entries of the 4 commits since the job's last commit, not 100,000")
                .isLessThanOrEqualTo(8);
    }

    @Test
    void aNewCommitterReadsTheLatestSnapshotsManifestsOnce() {
        long liveEntries =
                table.store.files(table.latest()).dataManifests().stream()
                        .mapToLong(m -> m.numAddedFiles() + m.numDeletedFiles())
                        .sum();
        Reads reads =
                reads(
                        () ->
                                new TableCommit(table.store)
                                        .commit(
                                                CommitRequest.append(
                                                        "new-job",
                                                        1,
                                                        List.of(table.fakeAppend("p2", 10)))));
        assertThat(reads.entries)
                .as("%s manifest files of %s entries read", reads.files, reads.entries)
                .isLessThanOrEqualTo(liveEntries);
    }

    /** The data manifests {@code commit} opens and the entries they hold. */
    private static Reads reads(Runnable commit) {
        Map<String, Long> entriesOf = new HashMap<>();
        for (long id : table.snapshotIds()) {
            for (ManifestFileMeta m :
                    table.store.files(table.store.snapshots().snapshot(id)).dataManifests()) {
                entriesOf.put(m.fileName(), m.numAddedFiles() + m.numDeletedFiles());
            }
        }
        FaultyFileSystem.opened.clear();
        commit.run();
        Reads reads = new Reads();
        for (String name : FaultyFileSystem.opened) {
            Long entries = entriesOf.get(name);
            if (entries != null) {
                reads.files++;
                reads.entries += entries;
            }
        }
        return reads;
    }

    private static final class Reads {
        long files;
        long entries;
    }
}
