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
package io.dovetail.e2e.interop;

import io.dovetail.e2e.paimon.PaimonWorkbench;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.maintenance.SnapshotRollback;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.testing.EvolvingTable;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.options.ExpireConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dovetail's rollback next to Paimon 1.4.2's on copies of one history (appends, a column update, a
 * compaction that replaced the files the rollback brings back): Paimon reads both rolled-back
 * tables identically, Dovetail's keeps only the data files the old snapshot has (Paimon 1.4.2
 * leaves the dropped snapshots' files behind as orphans), Paimon expires Dovetail's rolled-back
 * table without losing a file; only Dovetail's keeps {@code nextRowId}, so Paimon's next append
 * there gets new row ids while on its own copy it reuses ids that rows had before the rollback.
 */
class RollbackInteropTest {

    private static final String DOVETAIL = "rolled_back_by_dovetail";
    private static final String PAIMON = "rolled_back_by_paimon";

    @TempDir java.nio.file.Path warehouse;

    @Test
    void paimonReadsWritesAndExpiresWhatDovetailRolledBack() throws Exception {
        EvolvingTable table =
                new EvolvingTable(
                        tableDir(DOVETAIL), false, Map.of("compaction.min.file-num", "2"));
        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            table.append("a", 0, 10);
            table.append("a", 10, 10);
            List<String> atTwo = paimon.readRowsWithRowTracking(DOVETAIL);
            table.update("name", Map.of(3L, "three"));
            table.append("b", 20, 10);
            CompactionConfig full =
                    CompactionConfig.fromOptions(table.store.latestSchema().options())
                            .withRewrite(CompactionConfig.Rewrite.FULL);
            assertThat(
                            new DataEvolutionCompaction(table.store)
                                    .compact("compactor", 1, p -> true, full)
                                    .tasks())
                    .isEqualTo(1);
            copy(tableDir(DOVETAIL), tableDir(PAIMON));

            SnapshotRollback.Result ours = new SnapshotRollback(table.store).toSnapshot(2);
            paimon.table(PAIMON).rollbackTo(2);

            assertThat(ours.snapshotId()).isEqualTo(3);
            assertThat(paimon.table(DOVETAIL).snapshotManager().latestSnapshot().nextRowId())
                    .isEqualTo(30L);
            assertThat(paimon.table(PAIMON).snapshotManager().latestSnapshot().nextRowId())
                    .isEqualTo(20L);
            assertThat(paimon.readRowsWithRowTracking(DOVETAIL))
                    .isEqualTo(atTwo)
                    .isEqualTo(paimon.readRowsWithRowTracking(PAIMON));
            // Dovetail deletes the files only the dropped snapshots had; Paimon 1.4.2 leaves them
            assertThat(dataFiles(DOVETAIL)).hasSize(2);
            assertThat(dataFiles(PAIMON)).containsAll(dataFiles(DOVETAIL)).hasSize(5);

            List<GenericRow> row =
                    List.of(
                            GenericRow.of(
                                    100L,
                                    BinaryString.fromString("new"),
                                    1,
                                    BinaryString.fromString("b")));
            paimon.append(DOVETAIL, row);
            paimon.append(PAIMON, row);
            assertThat(paimon.readRowsWithRowTracking(DOVETAIL))
                    .anyMatch(r -> r.startsWith("id=100,") && r.contains("_ROW_ID=30,"));
            assertThat(paimon.readRowsWithRowTracking(PAIMON))
                    .anyMatch(r -> r.startsWith("id=100,") && r.contains("_ROW_ID=20,"));

            List<String> beforeExpiry = paimon.readRowsWithRowTracking(DOVETAIL);
            paimon.table(DOVETAIL)
                    .newExpireSnapshots()
                    .config(
                            ExpireConfig.builder()
                                    .snapshotRetainMin(1)
                                    .snapshotRetainMax(1)
                                    .snapshotTimeRetain(Duration.ZERO)
                                    .snapshotMaxDeletes(100)
                                    .build())
                    .expire();
            assertThat(paimon.table(DOVETAIL).snapshotManager().earliestSnapshotId()).isEqualTo(4L);
            assertThat(paimon.readRowsWithRowTracking(DOVETAIL)).isEqualTo(beforeExpiry);
        }
    }

    /** Relative paths of the data files on disk. */
    private TreeSet<String> dataFiles(String name) throws IOException {
        java.nio.file.Path dir = tableDir(name);
        try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("data-"))
                    .map(f -> dir.relativize(f).toString())
                    .collect(TreeSet::new, TreeSet::add, TreeSet::addAll);
        }
    }

    private java.nio.file.Path tableDir(String name) {
        return warehouse.resolve(PaimonWorkbench.DB + Warehouse.DATABASE_DIR_SUFFIX).resolve(name);
    }

    private static void copy(java.nio.file.Path from, java.nio.file.Path to) throws IOException {
        try (Stream<java.nio.file.Path> files = Files.walk(from)) {
            for (java.nio.file.Path source : (Iterable<java.nio.file.Path>) files::iterator) {
                Files.copy(source, to.resolve(from.relativize(source).toString()));
            }
        }
    }
}
