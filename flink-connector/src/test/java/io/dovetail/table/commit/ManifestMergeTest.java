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

import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.snapshot.Snapshot;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How a commit merges the latest snapshot's manifests into the new snapshot's base list. */
class ManifestMergeTest {

    @TempDir java.nio.file.Path dir;
    private TestTable table;

    @BeforeEach
    void table() {
        table = new TestTable(dir, false);
    }

    @Test
    void aRunOfSmallManifestsMergesOnceItCountsMergeMinCountAndCancelsAddsWithTheirDeletes() {
        option("manifest.merge-min-count", "3");
        append("p0", 5);
        append("p1", 5);
        compactPartition("p0");
        List<ManifestFileMeta> beforeMerge = table.files().dataManifests();

        Snapshot merged = append("p2", 5);

        SnapshotFiles files = table.store.files(merged);
        assertThat(beforeMerge).hasSize(3);
        assertThat(files.baseManifests())
                .singleElement()
                .satisfies(
                        m -> {
                            assertThat(m.numDeletedFiles()).isZero();
                            assertThat(m.numAddedFiles())
                                    .as("p1's 5 and p0's compacted 1")
                                    .isEqualTo(6);
                        });
        assertThat(files.liveFiles()).hasSize(11);
        assertThat(countIn(files.liveFiles(), "p0")).isEqualTo(1);
    }

    @Test
    void fewerSmallManifestsThanMergeMinCountStayAsTheyAre() {
        append("p0", 5);
        append("p1", 5);
        List<ManifestFileMeta> before = table.files().dataManifests();

        Snapshot next = append("p2", 5);

        assertThat(table.store.files(next).baseManifests()).isEqualTo(before);
    }

    @Test
    void fullCompactionDropsDeletesAndKeepsLargeManifestsOfOtherPartitionsByReference() {
        option("manifest.target-file-size", "2 kb");
        option("manifest.full-compaction-threshold-size", "1 b");
        option("manifest.merge-min-count", "1000");
        append("big", 2_000);
        List<String> large = new ArrayList<>();
        for (ManifestFileMeta m : table.files().dataManifests()) {
            if (m.fileSize() >= 2048) {
                large.add(m.fileName());
            }
        }
        append("p0", 5);
        compactPartition("p0");

        Snapshot next = append("p1", 5);

        SnapshotFiles files = table.store.files(next);
        assertThat(large).hasSizeGreaterThan(3);
        assertThat(files.baseManifests().stream().map(ManifestFileMeta::fileName))
                .containsAll(large);
        assertThat(
                        files.baseManifests().stream()
                                .mapToLong(ManifestFileMeta::numDeletedFiles)
                                .sum())
                .isZero();
        List<ManifestEntry> baseEntries = new ArrayList<>();
        files.baseManifests().forEach(m -> baseEntries.addAll(files.entries(m)));
        assertThat(baseEntries).hasSize(2_000 + 1);
        assertThat(files.liveFiles()).hasSize(2_000 + 1 + 5);
        assertThat(countIn(files.liveFiles(), "p0")).isEqualTo(1);
    }

    private void option(String key, String value) {
        table.store.schemas().commitChanges(SchemaChange.setOption(key, value));
    }

    private Snapshot append(String partition, int files) {
        List<ManifestEntry> entries = new ArrayList<>();
        for (int f = 0; f < files; f++) {
            entries.add(table.fakeAppend(partition, 10));
        }
        return table.commit(
                CommitRequest.append("writer", table.snapshotIds().length + 1, entries));
    }

    private void compactPartition(String partition) {
        table.commit(new CommitRequest("compactor", 1, table.fakeCompactionOf(partition)));
    }

    private static long countIn(List<ManifestEntry> live, String partition) {
        byte[] bytes = TestTable.partitionBytes(partition);
        return live.stream()
                .filter(e -> e.kind() == FileKind.ADD && Arrays.equals(e.partition(), bytes))
                .count();
    }
}
