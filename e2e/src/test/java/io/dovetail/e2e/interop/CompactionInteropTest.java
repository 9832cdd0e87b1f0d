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
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.testing.EvolvingTable;
import io.dovetail.table.types.DataTypes;

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
    private static final Map<String, String> MIN_2 = Map.of("compaction.min.file-num", "2");

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
                    new DataEvolutionCompaction(table.store)
                            .compact(
                                    "dovetail-compactor",
                                    1,
                                    p -> true,
                                    CompactionConfig.fromOptions(
                                                    table.store.latestSchema().options())
                                            .withRewrite(CompactionConfig.Rewrite.FULL));
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

    /**
     * A column-selective compaction (Dovetail's default) leaves a layout Paimon 1.4.2 reads exactly
     * as before, sequence numbers included: in [0, 9] the five versions of {@code name} fold into
     * one partial file next to the untouched base file; in [10, 19] every column of the base file
     * but the partition column {@code dt} has a newer version, so the base file stays and the three
     * partial files fold into one. Paimon's own full compaction of the result reads the same again.
     */
    @Test
    void paimonReadsAColumnSelectivelyCompactedTable() throws Exception {
        EvolvingTable table = new EvolvingTable(tableDir(DOVETAIL), false, MIN_2);
        Map<Long, List<String>> writeCols = compactColumnSelectively(table, 8);
        assertThat(writeCols.get(10L))
                .containsExactlyInAnyOrder("null", "[tag]", "[id, name, score]");
    }

    /**
     * Without partitions, the base file of [10, 19] has a newer version of every column and is
     * replaced too: Paimon reads a group of partial-column files alone.
     */
    @Test
    void paimonReadsAColumnSelectivelyCompactedGroupOfPartialFilesAlone() throws Exception {
        EvolvingTable table = EvolvingTable.unpartitioned(tableDir(DOVETAIL), false, MIN_2);
        table.append("a", 0, 10);
        table.append("a", 10, 10);
        table.append("b", 20, 5);
        table.update("dt", map(15L, "c"));
        Map<Long, List<String>> writeCols = compactColumnSelectively(table, 10);
        assertThat(writeCols.get(10L)).containsExactlyInAnyOrder("[tag]", "[id, name, score, dt]");
    }

    /**
     * Updates {@code table} (appended here if empty) into groups [0, 9] of a base and five versions
     * of {@code name}, [10, 19] of a base, an added column and versions of every other column, [20,
     * 24] of a base and the added column; compacts it column-selectively, replacing {@code
     * replaced} files (a group of two files is left alone: the minimum of 2 files lets Paimon's
     * compaction merge groups afterwards), and checks Paimon's reads before, after and after
     * Paimon's own compaction. Returns the write columns of the live files by first row id.
     */
    private Map<Long, List<String>> compactColumnSelectively(EvolvingTable table, int replaced)
            throws Exception {
        if (table.store.latestSnapshot().isEmpty()) {
            table.append("a", 0, 10);
            table.append("a", 10, 10);
            table.append("b", 20, 5);
        }
        for (int version = 1; version <= 5; version++) {
            table.update("name", map(1L, "one-v" + version, 4L, version % 2 == 0 ? null : "v"));
        }
        table.store.schemas().commitChanges(SchemaChange.addColumn("tag", DataTypes.STRING()));
        table.update("tag", map(11L, "eleven", 22L, "twenty-two"));
        table.update("name", map(12L, "twelve"));
        table.update("score", map(13L, 130));
        table.update("id", map(14L, 1400L));
        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            List<String> before = paimon.readRowsWithRowTracking(DOVETAIL);
            assertThat(before).hasSize(25).anyMatch(r -> r.contains("id=1400, name=name-14"));

            DataEvolutionCompaction.Result result =
                    new DataEvolutionCompaction(table.store).compact("dovetail-compactor", 1);

            assertThat(result.tasks()).isEqualTo(2);
            assertThat(result.filesRewritten()).isEqualTo(replaced);
            assertThat(paimon.readRowsWithRowTracking(DOVETAIL))
                    .isEqualTo(before)
                    .isEqualTo(TwoSidedReads.dovetail(table.store, rowTracking(table.store)));
            Map<Long, List<String>> writeCols = writeCols(paimon.table(DOVETAIL));
            assertThat(writeCols.get(0L)).containsExactlyInAnyOrder("null", "[name]");
            assertThat(writeCols.get(20L)).containsExactlyInAnyOrder("null", "[tag]");

            compactWithPaimon(paimon.table(DOVETAIL));
            assertThat(writeCols(paimon.table(DOVETAIL))).hasSizeLessThan(writeCols.size());
            assertThat(withoutSequence(paimon.readRowsWithRowTracking(DOVETAIL)))
                    .isEqualTo(withoutSequence(before));
            return writeCols;
        }
    }

    /** The write columns of the live files by first row id, as Paimon decodes them. */
    private static Map<Long, List<String>> writeCols(FileStoreTable table) {
        Map<Long, List<String>> files = new TreeMap<>();
        for (ManifestEntry entry : table.store().newScan().plan().files()) {
            DataFileMeta f = entry.file();
            files.computeIfAbsent(f.firstRowId(), k -> new ArrayList<>())
                    .add(String.valueOf(f.writeCols()));
        }
        return files;
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
