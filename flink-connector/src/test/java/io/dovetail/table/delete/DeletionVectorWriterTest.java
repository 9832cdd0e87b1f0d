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
package io.dovetail.table.delete;

import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TestTable;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeletionVectorWriterTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void deleteOnATableWithoutDeletionVectorsIsAClearError() {
        TestTable table = new TestTable(dir, false);
        Snapshot base =
                table.commit(CommitRequest.append("u", 1, List.of(table.writeAppend("x", 3))));
        assertThatThrownBy(
                        () -> new DeletionVectorWriter(table.store).deleteRows(base, List.of(1L)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("'deletion-vectors.enabled' = 'true'");
        assertThat(table.filesIn("index")).isEmpty();
    }

    @Test
    void positionsAreRelativeToTheAnchorAndMergedWithItsVector() {
        TestTable table = new TestTable(dir, true);
        table.commit(CommitRequest.append("u", 1, List.of(table.writeAppend("x", 4))));
        Snapshot base =
                table.commit(CommitRequest.append("u", 2, List.of(table.writeAppend("x", 5))));
        String anchor = table.liveAt(4).get(0).file().fileName();
        DeletionVectorWriter writer = new DeletionVectorWriter(table.store);

        Snapshot first = commitDelete(table, writer.write(base, Map.of(anchor, new long[] {1})));
        IndexChanges second = writer.deleteRows(first, List.of(7L, 8L, 5L));
        assertThat(second.removed()).hasSize(1);
        Snapshot deleted = commitDelete(table, second);

        assertThat(deleted.commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(deleted.deltaRecordCount()).isZero();
        assertThat(table.vectors()).isEqualTo(Map.of(anchor, DeletionVector.of(1, 3, 4)));
        List<IndexManifestEntry> index = table.files().indexFiles();
        assertThat(index).hasSize(1);
        assertThat(index.get(0).indexFile().fileName())
                .isEqualTo(second.added().get(0).indexFile().fileName());
    }

    @Test
    void aReplacedIndexFileKeepsTheOtherVectorsItHeld() {
        TestTable table = new TestTable(dir, true);
        Snapshot base =
                table.commit(
                        CommitRequest.append(
                                "u",
                                1,
                                List.of(table.writeAppend("x", 3), table.writeAppend("x", 3))));
        DeletionVectorWriter writer = new DeletionVectorWriter(table.store);
        Snapshot both = commitDelete(table, writer.deleteRows(base, List.of(0L, 3L)));
        commitDelete(table, writer.deleteRows(both, List.of(2L)));

        assertThat(table.vectors())
                .isEqualTo(
                        Map.of(
                                table.liveAt(0).get(0).file().fileName(), DeletionVector.of(0, 2),
                                table.liveAt(3).get(0).file().fileName(), DeletionVector.of(0)));
        assertThat(table.files().indexFiles()).hasSize(1);
    }

    @Test
    void deletingDeletedRowsAgainChangesNothing() {
        TestTable table = new TestTable(dir, true);
        Snapshot base =
                table.commit(CommitRequest.append("u", 1, List.of(table.writeAppend("x", 3))));
        DeletionVectorWriter writer = new DeletionVectorWriter(table.store);
        Snapshot deleted = commitDelete(table, writer.deleteRows(base, List.of(1L)));
        assertThat(writer.deleteRows(deleted, List.of(1L)).isEmpty()).isTrue();
    }

    @Test
    void aPartialFileIsNotAnAnchorAndTheErrorNamesTheAnchor() {
        TestTable table = new TestTable(dir, true);
        Snapshot appended =
                table.commit(CommitRequest.append("u", 1, List.of(table.writeAppend("x", 3))));
        ManifestEntry partial = table.writePartial("x", List.of("b"), 0, 3);
        Snapshot base =
                table.commit(CommitRequest.columnUpdate("u", 2, appended.id(), List.of(partial)));
        String anchor = table.liveAt(0).get(0).file().fileName();
        DeletionVectorWriter writer = new DeletionVectorWriter(table.store);

        assertThatThrownBy(
                        () -> writer.write(base, Map.of(partial.file().fileName(), new long[] {1})))
                .hasMessageContaining("not the anchor")
                .hasMessageContaining(anchor);
        assertThatThrownBy(() -> writer.write(base, Map.of(anchor, new long[] {3})))
                .hasMessageContaining("outside anchor");
        assertThatThrownBy(() -> writer.deleteRows(base, List.of(3L)))
                .hasMessageContaining("row id 3");
        assertThat(table.filesIn("index")).isEmpty();
    }

    private static Snapshot commitDelete(TestTable table, IndexChanges changes) {
        Snapshot base = table.latest();
        return table.commit(CommitRequest.delete("deleter", base.id(), base.id(), changes));
    }
}
