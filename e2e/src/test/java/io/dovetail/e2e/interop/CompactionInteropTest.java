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
import io.dovetail.table.TableStore;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.testing.EvolvingTable;

import org.apache.flink.core.fs.Path;

import org.apache.paimon.Snapshot;
import org.apache.paimon.append.dataevolution.DataEvolutionCompactCoordinator;
import org.apache.paimon.append.dataevolution.DataEvolutionCompactTask;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.FileSource;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.CommitMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dovetail's data-evolution compaction next to Paimon 1.4.2's own: one table written by Dovetail
 * (appends, column updates with explicit NULLs, a type change; no deletion vectors, which 1.4.2
 * rejects on data-evolution tables) is copied; Dovetail compacts the original and Paimon the copy.
 * Paimon reads the Dovetail-compacted table exactly as before (values and row ids; sequence numbers
 * as Dovetail reads them), both compactions leave the same layout and file metadata (ranges,
 * sequence numbers, schema, write columns, value statistics), and the two tables read identically
 * on both sides. The one difference: Paimon 1.4.2 marks its compacted files APPEND, Dovetail
 * COMPACT (as Paimon master does); both keep their row ids because the first row id is set.
 */
class CompactionInteropTest {

    private static final String DOVETAIL = "compacted_by_dovetail";
    private static final String PAIMON = "compacted_by_paimon";

    @TempDir java.nio.file.Path warehouse;

    @Test
    void dovetailCompactsAsPaimonDoes() throws Exception {
        EvolvingTable table =
                new EvolvingTable(
                        tableDir(DOVETAIL), false, Map.of("compaction.min.file-num", "2"));
        table.append("a", 0, 10);
        table.append("a", 10, 10);
        table.append("b", 20, 5);
        table.update("name", map(1L, "one", 12L, null, 21L, "twenty-one"));
        table.update("score", map(3L, null, 15L, 150));
        table.changeScoreToBigint();
        table.update("score", map(4L, 1_234_567_890_123L));
        table.append("a", 25, 5);
        table.update("name", map(26L, null));
        copy(tableDir(DOVETAIL), tableDir(PAIMON));

        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            List<String> before = paimon.readRowsWithRowTracking(DOVETAIL);
            assertThat(before).hasSize(30).anyMatch(r -> r.contains("id=12, name=null"));

            DataEvolutionCompaction.Result result =
                    new DataEvolutionCompaction(table.store).compact("dovetail-compactor", 1);
            compactWithPaimon(paimon.table(PAIMON));

            // a: [0, 19] (7 files) and [25, 29] (2 files); b: [20, 24] (2 files)
            assertThat(result.tasks()).isEqualTo(3);
            assertThat(result.filesRewritten()).isEqualTo(11);
            List<String> after = paimon.readRowsWithRowTracking(DOVETAIL);
            assertThat(withoutSequence(after)).isEqualTo(withoutSequence(before));
            assertThat(after)
                    .isEqualTo(TwoSidedReads.dovetail(table.store, rowTracking(table.store)))
                    .isEqualTo(paimon.readRowsWithRowTracking(PAIMON));
            TableStore paimonCompacted = TableStore.at(paths(PAIMON));
            assertThat(TwoSidedReads.dovetail(paimonCompacted, rowTracking(paimonCompacted)))
                    .isEqualTo(after);

            FileStoreTable ours = paimon.table(DOVETAIL);
            FileStoreTable theirs = paimon.table(PAIMON);
            assertThat(layout(ours)).isEqualTo(layout(theirs));
            assertThat(compactedSources(ours)).containsOnly(FileSource.COMPACT).hasSize(3);
            assertThat(compactedSources(theirs)).containsOnly(FileSource.APPEND).hasSize(3);
            assertThat(summary(ours.snapshotManager().latestSnapshot()))
                    .isEqualTo(summary(theirs.snapshotManager().latestSnapshot()));
        }
    }

    /** Paimon 1.4.2's own compaction: its coordinator plans, each task rewrites, one commit. */
    private static void compactWithPaimon(FileStoreTable table) throws Exception {
        List<CommitMessage> messages = new ArrayList<>();
        for (DataEvolutionCompactTask task :
                new DataEvolutionCompactCoordinator(table, false, false).plan()) {
            messages.add(task.doCompact(table, "paimon-compactor"));
        }
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.commit(messages);
        }
    }

    /**
     * The live files by first row id, as Paimon decodes them: everything but name, size, creation
     * time and file source (which the two compactions set differently).
     */
    private static Map<Long, List<List<Object>>> layout(FileStoreTable table) {
        Map<Long, List<List<Object>>> layout = new TreeMap<>();
        for (ManifestEntry entry : table.store().newScan().plan().files()) {
            DataFileMeta f = entry.file();
            layout.computeIfAbsent(f.firstRowId(), k -> new ArrayList<>())
                    .add(
                            List.of(
                                    entry.partition(),
                                    f.rowCount(),
                                    f.minSequenceNumber(),
                                    f.maxSequenceNumber(),
                                    f.schemaId(),
                                    f.level(),
                                    String.valueOf(f.writeCols()),
                                    f.valueStats(),
                                    String.valueOf(f.valueStatsCols()),
                                    f.deleteRowCount(),
                                    f.extraFiles()));
        }
        layout.values()
                .forEach(files -> files.sort((a, b) -> a.toString().compareTo(b.toString())));
        return layout;
    }

    private static List<FileSource> compactedSources(FileStoreTable table) {
        return table.store().newScan().plan().files().stream()
                .map(ManifestEntry::file)
                .filter(
                        f ->
                                f.writeCols() == null
                                        && f.minSequenceNumber() != f.maxSequenceNumber())
                .map(f -> f.fileSource().orElseThrow())
                .toList();
    }

    private static List<Object> summary(Snapshot snapshot) {
        return List.of(
                snapshot.commitKind(),
                snapshot.nextRowId(),
                snapshot.totalRecordCount(),
                snapshot.deltaRecordCount());
    }

    private static List<String> withoutSequence(List<String> rows) {
        return rows.stream().map(r -> r.replaceAll(", _SEQUENCE_NUMBER=\\d+", "")).toList();
    }

    private static ReadRequest rowTracking(TableStore store) {
        return ReadRequest.allColumns(store.latestSchema()).withRowTracking();
    }

    private io.dovetail.table.path.TablePaths paths(String name) {
        return new Warehouse(new Path(warehouse.toUri())).table(PaimonWorkbench.DB, name);
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

    private static Map<Long, Object> map(Object... pairs) {
        Map<Long, Object> map = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((Long) pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
