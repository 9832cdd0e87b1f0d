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

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.fs.Writers;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotManagerTest {

    @TempDir java.nio.file.Path root;

    private SnapshotManager manager;
    private java.nio.file.Path snapshotDir;

    @BeforeEach
    void setUp() {
        manager = new SnapshotManager(new TablePaths(new Path(root.toString())));
        snapshotDir = root.resolve("snapshot");
    }

    static Snapshot snapshot(long id, String user, long identifier, CommitKind kind) {
        return Snapshot.builder()
                .id(id)
                .schemaId(0)
                .baseManifestList("manifest-list-b-" + id)
                .deltaManifestList("manifest-list-d-" + id)
                .commitUser(user)
                .commitIdentifier(identifier)
                .commitKind(kind)
                .timeMillis(1_700_000_000_000L + id)
                .totalRecordCount(id)
                .deltaRecordCount(1)
                .nextRowId(id)
                .build();
    }

    private void commit(long... ids) {
        for (long id : ids) {
            assertThat(
                            manager.tryCommit(
                                    snapshot(id, "u", id, CommitKind.APPEND), Writers.CONCURRENT))
                    .isTrue();
        }
    }

    private void writeFile(String name, String content) throws Exception {
        Files.createDirectories(snapshotDir);
        Files.writeString(snapshotDir.resolve(name), content);
    }

    @Test
    void emptyTableHasNoSnapshots() {
        assertThat(manager.latestId()).isEmpty();
        assertThat(manager.earliestId()).isEmpty();
        assertThat(manager.latest()).isEmpty();
        assertThat(manager.listIds()).isEmpty();
        assertThatThrownBy(() -> manager.snapshot(1))
                .hasMessageContaining("Snapshot 1 does not exist")
                .hasMessageContaining("the table has no snapshots")
                .extracting(e -> ((DovetailException) e).kind())
                .isEqualTo(DovetailException.Kind.NO_SUCH_SNAPSHOT);
    }

    @Test
    void commitsPublishSnapshotsAndLatestHint() throws Exception {
        commit(1, 2, 3);

        assertThat(manager.listIds()).containsExactly(1, 2, 3);
        assertThat(manager.latestId()).hasValue(3);
        assertThat(manager.earliestId()).hasValue(1);
        assertThat(manager.latest().orElseThrow())
                .isEqualTo(snapshot(3, "u", 3, CommitKind.APPEND));
        assertThat(Files.readString(snapshotDir.resolve("LATEST"))).isEqualTo("3");
        assertThat(manager.snapshot(2).commitIdentifier()).isEqualTo(2);
        try (var files = Files.list(snapshotDir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("snapshot-1", "snapshot-2", "snapshot-3", "LATEST");
        }
    }

    @Test
    void takenIdsAndGapsAreNotCommitted() {
        commit(1, 2);

        assertThat(
                        manager.tryCommit(
                                snapshot(2, "other", 9, CommitKind.APPEND), Writers.CONCURRENT))
                .isFalse();
        assertThat(
                        manager.tryCommit(
                                snapshot(1, "other", 9, CommitKind.APPEND), Writers.CONCURRENT))
                .isFalse();
        assertThat(manager.snapshot(2).commitUser()).isEqualTo("u");
        assertThatThrownBy(
                        () ->
                                manager.tryCommit(
                                        snapshot(4, "other", 9, CommitKind.APPEND),
                                        Writers.CONCURRENT))
                .hasMessageContaining("Cannot commit snapshot 4")
                .hasMessageContaining("the latest snapshot is 2");
        assertThat(manager.listIds()).containsExactly(1, 2);
    }

    @Test
    void latestHintIsTrustedOnlyWhenVerified() throws Exception {
        commit(1, 2, 3, 4);

        writeFile("LATEST", "2"); // stale: snapshot-3 exists
        assertThat(manager.latestId()).hasValue(4);
        writeFile("LATEST", "9"); // ahead: snapshot-9 does not exist
        assertThat(manager.latestId()).hasValue(4);
        for (String garbled :
                new String[] {"4\n", " 4", "four", "", "0", "-4", "99999999999999999999"}) {
            writeFile("LATEST", garbled);
            assertThat(manager.latestId()).as("hint '%s'", garbled).hasValue(4);
        }
        Files.delete(snapshotDir.resolve("LATEST"));
        assertThat(manager.latestId()).hasValue(4);
    }

    @Test
    void verifiedLatestHintSavesTheListing() throws Exception {
        commit(1, 2, 3);
        // A bad name makes listing fail, so a success proves the hint was used.
        writeFile("snapshot-x", "");
        assertThat(manager.latestId()).hasValue(3);
        writeFile("LATEST", "1");
        assertThatThrownBy(() -> manager.latestId()).hasMessageContaining("snapshot-x");
    }

    @Test
    void earliestHintIsTrustedOnlyIfItsSnapshotExists() throws Exception {
        commit(1, 2, 3, 4);
        Files.delete(snapshotDir.resolve("snapshot-1"));

        assertThat(manager.earliestId()).hasValue(2);
        manager.writeEarliestHint(3);
        assertThat(Files.readString(snapshotDir.resolve("EARLIEST"))).isEqualTo("3");
        assertThat(manager.earliestId()).hasValue(3);
        manager.writeEarliestHint(1); // stale: snapshot-1 is gone
        assertThat(manager.earliestId()).hasValue(2);
        writeFile("EARLIEST", "x");
        assertThat(manager.earliestId()).hasValue(2);
    }

    @Test
    void listingSkipsHiddenAndOtherFilesButRefusesBadSnapshotNames() throws Exception {
        commit(1, 2);
        writeFile(".snapshot-3.1234.tmp", "{");
        writeFile("other", "");
        assertThat(manager.listIds()).containsExactly(1, 2);

        for (String bad :
                new String[] {
                    "snapshot-3.tmp", "snapshot-", "snapshot-03", "snapshot-0", "snapshot--1"
                }) {
            writeFile(bad, "");
            assertThatThrownBy(() -> manager.listIds())
                    .isInstanceOf(DovetailException.class)
                    .hasMessageContaining(bad)
                    .hasMessageContaining("does not match snapshot-<id>");
            Files.delete(snapshotDir.resolve(bad));
        }
    }

    @Test
    void missingSnapshotNamesTheAvailableRange() throws Exception {
        commit(1, 2, 3, 4, 5);
        Files.delete(snapshotDir.resolve("snapshot-1"));
        Files.delete(snapshotDir.resolve("snapshot-2"));

        assertThatThrownBy(() -> manager.snapshot(7))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("Snapshot 7 does not exist")
                .hasMessageContaining("available range 3..5");
        assertThatThrownBy(() -> manager.snapshot(1)).hasMessageContaining("available range 3..5");
    }

    @Test
    void corruptOrMisnamedSnapshotFilesAreClearErrors() throws Exception {
        commit(1, 2);
        byte[] two = Files.readAllBytes(snapshotDir.resolve("snapshot-2"));
        writeFile("snapshot-3", new String(two, StandardCharsets.UTF_8));
        assertThatThrownBy(() -> manager.snapshot(3))
                .hasMessageContaining("snapshot-3")
                .hasMessageContaining("contains snapshot id 2 but is named for id 3");

        writeFile("snapshot-3", new String(two, 0, two.length - 5, StandardCharsets.UTF_8));
        assertThatThrownBy(() -> manager.snapshot(3))
                .hasMessageContaining("snapshot-3")
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> manager.latest()).hasMessageContaining("snapshot-3");
    }

    @Test
    void findCommitLooksOnlyAfterTheGivenId() {
        assertThat(manager.findCommit(0, "a", 1)).isEmpty();
        assertThat(manager.tryCommit(snapshot(1, "a", 1, CommitKind.APPEND), Writers.CONCURRENT))
                .isTrue();
        assertThat(manager.tryCommit(snapshot(2, "b", 1, CommitKind.APPEND), Writers.CONCURRENT))
                .isTrue();
        assertThat(manager.tryCommit(snapshot(3, "a", 2, CommitKind.COMPACT), Writers.CONCURRENT))
                .isTrue();

        assertThat(manager.findCommit(0, "a", 1).orElseThrow().id()).isEqualTo(1);
        assertThat(manager.findCommit(1, "a", 1)).isEmpty();
        assertThat(manager.findCommit(0, "a", 2, CommitKind.COMPACT).orElseThrow().id())
                .isEqualTo(3);
        assertThat(manager.findCommit(0, "a", 2, CommitKind.APPEND)).isEmpty();
        assertThat(manager.findCommit(0, "b", 2)).isEmpty();
    }

    @Test
    void findCommitSkipsExpiredSnapshots() throws Exception {
        commit(1, 2, 3);
        Files.delete(snapshotDir.resolve("snapshot-1"));
        manager.writeEarliestHint(2);

        assertThat(manager.findCommit(0, "u", 1)).isEmpty();
        assertThat(manager.findCommit(0, "u", 2).orElseThrow().id()).isEqualTo(2);
    }

    @Test
    void latestHintWriteFailureDoesNotFailTheCommit() throws Exception {
        commit(1);
        Files.delete(snapshotDir.resolve("LATEST"));
        Files.createDirectories(snapshotDir.resolve("LATEST").resolve("blocker"));

        assertThat(manager.tryCommit(snapshot(2, "u", 2, CommitKind.APPEND), Writers.CONCURRENT))
                .isTrue();
        assertThat(manager.latestId()).isEqualTo(OptionalLong.of(2));
    }
}
