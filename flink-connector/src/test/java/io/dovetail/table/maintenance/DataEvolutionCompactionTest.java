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
package io.dovetail.table.maintenance;

import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.EvolvingTable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Data-evolution compaction on tables written through Dovetail's real paths: every query returns
 * the same rows and row ids before and after, deletion vectors move to the compacted files, file
 * counts drop, and {@code _SEQUENCE_NUMBER} reads the largest sequence number of each task's
 * inputs.
 */
class DataEvolutionCompactionTest {

    private static final String COMPACTOR = "compactor";

    @TempDir java.nio.file.Path dir;

    /** Semantics §8.1, worked example, reproduced exactly (column {@code name} plays {@code b}). */
    @Test
    void reproducesTheWorkedExampleOfTheSpecification() {
        EvolvingTable table = new EvolvingTable(dir, true, Map.of());
        table.commit(CommitRequest.append("setup", 1, List.of())); // snapshot 1: no rows
        table.append("x", 0, 50); // F0 [0, 49], sequence 2
        table.append("x", 50, 30); // F2 [50, 79], sequence 3
        table.delete(3, 10, 50); // DV(F0) = {3, 10}, DV(F2) = {0}
        table.update("name", Map.of(7L, "seven")); // P1 [0, 49] writes name, sequence 5
        String f0 = anchorAt(table, 0);
        String f2 = anchorAt(table, 50);
        assertThat(table.vectors())
                .isEqualTo(Map.of(f0, DeletionVector.of(3, 10), f2, DeletionVector.of(0)));
        assertThat(table.live())
                .extracting(e -> e.file().firstRowId() + ":" + e.file().maxSequenceNumber())
                .containsExactlyInAnyOrder("0:2", "50:3", "0:5");
        List<String> before = table.read("id", "name", "score", "dt", "_ROW_ID");
        assertThat(table.read("_ROW_ID", "_SEQUENCE_NUMBER"))
                .contains("_ROW_ID=7, _SEQUENCE_NUMBER=5", "_ROW_ID=51, _SEQUENCE_NUMBER=3");
        long inputBytes = table.live().stream().mapToLong(e -> e.file().fileSize()).sum();

        DataEvolutionCompaction.Result result = compact(table, 1, config(3));

        Snapshot compacted = table.latest();
        assertThat(compacted.id()).isEqualTo(6);
        assertThat(compacted.commitKind()).isEqualTo(CommitKind.COMPACT);
        assertThat(compacted.nextRowId()).isEqualTo(80);
        assertThat(compacted.totalRecordCount()).isEqualTo(80);
        assertThat(table.live()).hasSize(1);
        DataFileMeta c = table.live().get(0).file();
        assertThat(c.firstRowId()).isZero();
        assertThat(c.rowCount()).isEqualTo(80);
        assertThat(c.minSequenceNumber()).isEqualTo(2);
        assertThat(c.maxSequenceNumber()).isEqualTo(5);
        assertThat(c.fileSource()).isEqualTo(FileSource.COMPACT);
        assertThat(c.writeCols()).isNull();
        assertThat(c.schemaId()).isEqualTo(table.store.latestSchema().id());
        assertThat(table.vectors()).isEqualTo(Map.of(c.fileName(), DeletionVector.of(3, 10, 50)));
        assertThat(result)
                .isEqualTo(
                        new DataEvolutionCompaction.Result(
                                1, 3, inputBytes, c.fileSize(), OptionalLong.of(6)));
        assertThat(table.read("id", "name", "score", "dt", "_ROW_ID")).isEqualTo(before);
        assertThat(table.read("_SEQUENCE_NUMBER")).hasSize(77).containsOnly("_SEQUENCE_NUMBER=5");
        table.store.files(compacted).verifyLiveFiles();
    }

    @Test
    void keepsEveryQueryIdenticalAcrossUpdatesNullsDeletesAndATypeChange() {
        EvolvingTable table = new EvolvingTable(dir, true, Map.of());
        table.append("a", 0, 10); // [0, 9]
        table.append("a", 10, 5); // [10, 14]
        table.append("b", 15, 5); // [15, 19]
        table.append("a", 20, 10); // [20, 29]
        table.update("name", map(1L, "one", 12L, "twelve", 22L, null, 17L, "seventeen"));
        table.update("score", map(3L, null, 13L, 99, 16L, 160));
        table.delete(2, 11, 25, 16);
        table.changeScoreToBigint();
        table.update("score", map(4L, 1_234_567_890_123L, 21L, null));
        table.append("a", 30, 5); // [30, 34], written with score BIGINT
        table.update("name", map(31L, null, 8L, "eight"));
        Map<String, List<String>> before = queries(table);
        Map<String, DeletionVector> vectorsBefore = table.vectors();
        assertThat(table.filesIn("dt=a/bucket-0")).hasSize(13);

        DataEvolutionCompaction.Result result =
                new DataEvolutionCompaction(table.store).compact(COMPACTOR, 1);

        // dt=a: [0, 14] (8 files) and [20, 34] (5 files) are two runs, split by dt=b's rows;
        // dt=b: [15, 19] has 3 files, fewer than compaction.min.file-num (5)
        assertThat(result.tasks()).isEqualTo(2);
        assertThat(result.filesRewritten()).isEqualTo(13);
        assertThat(table.filesIn("dt=a/bucket-0")).hasSize(15);
        assertThat(queries(table)).isEqualTo(before);
        List<ManifestEntry> live = table.live();
        assertThat(live)
                .extracting(e -> e.file().firstRowId() + "+" + e.file().rowCount())
                .containsExactlyInAnyOrder("0+15", "20+15", "15+5", "15+5", "15+5");
        String c1 = anchorAt(table, 0);
        String c2 = anchorAt(table, 20);
        String b = anchorAt(table, 15);
        assertThat(vectorsBefore.get(b)).isEqualTo(DeletionVector.of(1));
        assertThat(table.vectors())
                .isEqualTo(
                        Map.of(
                                c1, DeletionVector.of(2, 11),
                                c2, DeletionVector.of(5),
                                b, DeletionVector.of(1)));
        TableSchema schema = table.store.latestSchema();
        for (String compacted : List.of(c1, c2)) {
            DataFileMeta file = fileNamed(table, compacted);
            assertThat(file.schemaId()).isEqualTo(schema.id());
            assertThat(file.fileSource()).isEqualTo(FileSource.COMPACT);
        }
        // every row of a compacted range reads the largest sequence number of its inputs
        assertThat(table.read("_ROW_ID", "_SEQUENCE_NUMBER"))
                .contains(
                        "_ROW_ID=0, _SEQUENCE_NUMBER=" + fileNamed(table, c1).maxSequenceNumber(),
                        "_ROW_ID=14, _SEQUENCE_NUMBER=" + fileNamed(table, c1).maxSequenceNumber(),
                        "_ROW_ID=34, _SEQUENCE_NUMBER=" + fileNamed(table, c2).maxSequenceNumber());
        assertThat(fileNamed(table, c1).maxSequenceNumber()).isEqualTo(table.latest().id() - 1);

        // updates and deletes after compaction apply on top of the compacted files
        Snapshot updated = table.update("name", map(5L, "five", 13L, null));
        table.delete(6, 33);
        assertThat(table.read("id", "name", "_ROW_ID", "_SEQUENCE_NUMBER"))
                .contains(
                        "id=5, name=five, _ROW_ID=5, _SEQUENCE_NUMBER=" + updated.id(),
                        "id=13, name=null, _ROW_ID=13, _SEQUENCE_NUMBER=" + updated.id(),
                        "id=1, name=one, _ROW_ID=1, _SEQUENCE_NUMBER=" + updated.id())
                .noneMatch(row -> row.startsWith("id=6,") || row.startsWith("id=33,"));
        assertThat(table.vectors().get(c1)).isEqualTo(DeletionVector.of(2, 6, 11));
    }

    @Test
    void compactsOnlyTheGivenPartitions() {
        EvolvingTable table = fourUpdatedRangesInTwoPartitions(false);
        List<ManifestEntry> bFiles =
                table.live().stream().filter(e -> e.file().firstRowId() % 8 == 4).toList();
        List<String> before = table.read("id", "name", "score", "dt", "_ROW_ID");

        DataEvolutionCompaction.Result result =
                new DataEvolutionCompaction(table.store)
                        .compact(
                                COMPACTOR,
                                1,
                                partition -> partition.getString(0).toString().equals("a"),
                                config(2));

        assertThat(result.tasks()).isEqualTo(2); // [0, 3] and [8, 11] do not touch
        assertThat(table.live()).containsAll(bFiles).hasSize(bFiles.size() + 2);
        assertThat(table.read("id", "name", "score", "dt", "_ROW_ID")).isEqualTo(before);
    }

    /** A distributed job's rewriter subtask: one read plan, the plan's tasks in any order. */
    @Test
    void oneRewriterRewritesThePlannedTasksInAnyOrderAndRefusesOthers() {
        EvolvingTable table = fourUpdatedRangesInTwoPartitions(true);
        table.delete(2, 6);
        List<String> before = table.read("id", "name", "score", "dt", "_ROW_ID");
        DataEvolutionCompaction compaction = new DataEvolutionCompaction(table.store);
        DataEvolutionCompaction.Plan plan = compaction.plan(p -> true, config(2)).orElseThrow();
        assertThat(plan.tasks()).hasSize(4);
        DataEvolutionCompaction.Plan onlyA =
                compaction
                        .plan(p -> p.getString(0).toString().equals("a"), config(2))
                        .orElseThrow();
        CompactionTask taskOfB =
                plan.tasks().stream().filter(t -> t.range().first() == 4).findFirst().orElseThrow();
        assertThatThrownBy(() -> RangeRewriter.of(table.store, onlyA).rewrite(taskOfB))
                .hasMessageContaining("the read plan has no group [4, 7]");

        RangeRewriter rewriter = RangeRewriter.of(table.store, plan);
        ManifestEntry[] compacted = new ManifestEntry[plan.tasks().size()];
        for (int i = compacted.length - 1; i >= 0; i--) {
            compacted[i] = rewriter.rewrite(plan.tasks().get(i));
        }
        compaction.commit(COMPACTOR, 1, plan, List.of(compacted));

        assertThat(table.live())
                .hasSize(4)
                .allMatch(e -> e.file().fileSource() == FileSource.COMPACT);
        assertThat(table.vectors()).hasSize(2);
        assertThat(table.read("id", "name", "score", "dt", "_ROW_ID")).isEqualTo(before);
    }

    @Test
    void isIdempotentPerCommitUserAndIdentifier() {
        EvolvingTable table = new EvolvingTable(dir, false, Map.of());
        table.append("a", 0, 4);
        table.update("name", map(1L, "x"));
        DataEvolutionCompaction compaction = new DataEvolutionCompaction(table.store);

        DataEvolutionCompaction.Result first =
                compaction.compact(COMPACTOR, 7, p -> true, config(2));
        table.update("name", map(2L, "y"));
        DataEvolutionCompaction.Result again =
                compaction.compact(COMPACTOR, 7, p -> true, config(2));

        assertThat(again).isEqualTo(first);
        assertThat(first.snapshotId()).hasValue(3);
        assertThat(table.latest().id()).isEqualTo(4);
        assertThat(table.live()).hasSize(2);
    }

    @Test
    void nothingToCompactCommitsNothing() {
        EvolvingTable table = new EvolvingTable(dir, false, Map.of());
        assertThat(new DataEvolutionCompaction(table.store).compact(COMPACTOR, 1))
                .isEqualTo(DataEvolutionCompaction.Result.NOTHING);
        table.append("a", 0, 4);
        table.append("a", 4, 4);

        assertThat(new DataEvolutionCompaction(table.store).compact(COMPACTOR, 1))
                .isEqualTo(DataEvolutionCompaction.Result.NOTHING);
        assertThat(table.latest().id()).isEqualTo(2);
    }

    /** The reads every comparison covers: full rows with row ids, projections, one partition. */
    private static Map<String, List<String>> queries(EvolvingTable table) {
        ReadRequest all = ReadRequest.allColumns(table.store.latestSchema());
        Map<String, List<String>> reads = new HashMap<>();
        reads.put("rows", table.read("id", "name", "score", "dt", "_ROW_ID"));
        reads.put("score", table.read("score"));
        reads.put("name, _ROW_ID", table.read("name", "_ROW_ID"));
        reads.put("_ROW_ID", table.read("_ROW_ID"));
        reads.put(
                "dt=b",
                table.read(
                        all.withColumns("id", "name", "score", "_ROW_ID", "_SEQUENCE_NUMBER")
                                .withPartitionFilter(p -> p.getString(0).toString().equals("b"))));
        return reads;
    }

    private static DataEvolutionCompaction.Result compact(
            EvolvingTable table, long identifier, CompactionConfig config) {
        return new DataEvolutionCompaction(table.store)
                .compact(COMPACTOR, identifier, p -> true, config);
    }

    /** a: [0, 3] and [8, 11], b: [4, 7] and [12, 15]; one row of each range updated. */
    private EvolvingTable fourUpdatedRangesInTwoPartitions(boolean deletionVectors) {
        EvolvingTable table = new EvolvingTable(dir, deletionVectors, Map.of());
        table.append("a", 0, 4);
        table.append("b", 4, 4);
        table.append("a", 8, 4);
        table.append("b", 12, 4);
        table.update("name", map(1L, "x", 5L, "y", 9L, "z", 13L, null));
        return table;
    }

    private static CompactionConfig config(int minFileNum) {
        return CompactionConfig.fromOptions(Map.of()).withMinFileNum(minFileNum);
    }

    /** The anchor (oldest normal file) of the live range starting at {@code firstRowId}. */
    private static String anchorAt(EvolvingTable table, long firstRowId) {
        return table.liveAt(firstRowId).get(0).file().fileName();
    }

    private static DataFileMeta fileNamed(EvolvingTable table, String name) {
        return table.live().stream()
                .map(ManifestEntry::file)
                .filter(f -> f.fileName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static Map<Long, Object> map(Object... pairs) {
        Map<Long, Object> map = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((Long) pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
