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

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Planning of data-evolution compaction over metadata only: runs of touching ranges, bins bounded
 * by the target size with the open-file cost as minimum weight, the minimum file count, heavy
 * groups on their own, partitions kept apart, invalid inputs refused.
 */
class CompactionPlannerTest {

    private static final long MB = 1024 * 1024;

    /** Target 100 bytes, open-file cost 10 bytes, at least one file per task. */
    private static final CompactionConfig SMALL = new CompactionConfig(100, 10, 1);

    private final List<ManifestEntry> files = new ArrayList<>();
    private int counter;

    @Test
    void defaultsAreThoseOfPaimonAppendTables() {
        assertThat(CompactionConfig.fromOptions(Map.of()))
                .isEqualTo(new CompactionConfig(256 * MB, 4 * MB, 5));
        assertThat(
                        CompactionConfig.fromOptions(
                                Map.of(
                                        "target-file-size", "64 mb",
                                        "source.split.open-file-cost", "1mb",
                                        "compaction.min.file-num", "3")))
                .isEqualTo(new CompactionConfig(64 * MB, MB, 3));
        assertThatThrownBy(
                        () -> CompactionConfig.fromOptions(Map.of("compaction.min.file-num", "0")))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("'compaction.min.file-num' must be an integer of at least 1");
        assertThatThrownBy(
                        () ->
                                CompactionConfig.fromOptions(
                                        Map.of("source.split.open-file-cost", "lots")))
                .hasMessageContaining(
                        "'source.split.open-file-cost' must be a positive memory size");
    }

    @Test
    void touchingRangesFormOneRunAndGapsSplitRuns() {
        file("a", 0, 10, 20);
        file("a", 10, 10, 20);
        file("a", 20, 5, 20);
        file("a", 40, 10, 20); // gap before 40
        file("a", 50, 10, 20);

        assertThat(ranges(plan(SMALL))).containsExactly("a[0, 24]", "a[40, 59]");
    }

    @Test
    void filesOfOneRangeFormOneGroupAndAllAreInputs() {
        ManifestEntry full = file("a", 0, 10, 20, 2, 2);
        ManifestEntry partial = file("a", 0, 10, 20, 5, 5);
        ManifestEntry next = file("a", 10, 5, 20, 3, 3);

        List<CompactionTask> tasks = plan(SMALL.withMinFileNum(3));

        assertThat(tasks).hasSize(1);
        CompactionTask task = tasks.get(0);
        assertThat(task.range().toString()).isEqualTo("[0, 14]");
        assertThat(task.groups())
                .extracting(g -> g.range().toString())
                .containsExactly("[0, 9]", "[10, 14]");
        assertThat(task.inputs()).containsExactly(full, partial, next);
        assertThat(task.groups().get(0).anchor()).isEqualTo(full);
        assertThat(task.minSequenceNumber()).isEqualTo(2);
        assertThat(task.maxSequenceNumber()).isEqualTo(5);
    }

    @Test
    void binsCloseOnceTheyExceedTheTarget() {
        for (int i = 0; i < 5; i++) {
            file("a", i * 10, 10, 40);
        }
        // 40 + 40 + 40 = 120 > 100 closes the first bin; the last two weigh 80
        assertThat(ranges(plan(SMALL))).containsExactly("a[0, 29]", "a[30, 49]");
    }

    @Test
    void smallFilesWeighTheOpenFileCost() {
        for (int i = 0; i < 6; i++) {
            file("a", i * 10, 10, 1);
        }
        // each file counts 30 bytes: 4 x 30 = 120 > 100
        assertThat(ranges(plan(new CompactionConfig(100, 30, 1))))
                .containsExactly("a[0, 39]", "a[40, 59]");
    }

    @Test
    void binsWithFewerFilesThanTheMinimumAreLeftAlone() {
        for (int i = 0; i < 5; i++) {
            file("a", i * 10, 10, 40);
        }
        // bins of 3 and 2 files
        assertThat(ranges(plan(SMALL.withMinFileNum(3)))).containsExactly("a[0, 29]");
        assertThat(plan(SMALL.withMinFileNum(4))).isEmpty();
        assertThat(plan(new CompactionConfig(1000, 10, 5))).hasSize(1);
        assertThat(plan(new CompactionConfig(1000, 10, 6))).isEmpty();
    }

    @Test
    void aGroupHeavierThanTheTargetIsABinOfItsOwn() {
        file("a", 0, 10, 40);
        file("a", 10, 10, 60);
        file("a", 10, 10, 60); // group [10, 19] weighs 120
        file("a", 20, 10, 40);
        file("a", 30, 10, 40);

        // the single file before the heavy group is a bin of one file: never rewritten as itself
        assertThat(ranges(plan(SMALL))).containsExactly("a[10, 19]", "a[20, 39]");
        assertThat(ranges(plan(SMALL.withMinFileNum(3)))).isEmpty();
    }

    @Test
    void partitionsArePlannedApart() {
        for (int copy = 0; copy < 2; copy++) { // two files per range: groups worth compacting
            file("a", 0, 10, 20);
            file("b", 10, 10, 20);
            file("a", 20, 10, 20);
            file("b", 30, 10, 20);
            file("a", 40, 10, 20);
        }

        // a: [0, 9] and [20, 29] are not adjacent (rows 10-19 are in b)
        assertThat(ranges(plan(SMALL)))
                .containsExactly("a[0, 9]", "a[20, 29]", "a[40, 49]", "b[10, 19]", "b[30, 39]");
        assertThat(plan(SMALL.withMinFileNum(3))).isEmpty();
    }

    @Test
    void blobAndVectorStoreFilesStayAndDecideWhichGroupsMerge() {
        file("a", 0, 10, 20);
        file("a", 10, 10, 20);
        file("a", 20, 10, 20);
        file("a", 30, 10, 20);
        // groups 0 and 1: the same BLOB field and vector-store bunch; group 2: a bunch of another
        // schema version; group 3: none
        files.add(dedicated("data-x-1.blob", 0, 10, 0, "img"));
        files.add(dedicated("data-x-2.vector.avro", 0, 10, 0, "emb"));
        files.add(dedicated("data-y-1.blob", 10, 10, 0, "img"));
        files.add(dedicated("data-y-2.vector.avro", 10, 4, 0, "emb"));
        files.add(dedicated("data-y-3.vector.avro", 14, 6, 0, "emb"));
        files.add(dedicated("data-z-1.blob", 20, 10, 1, "img"));
        files.add(dedicated("data-z-2.vector.avro", 20, 10, 1, "emb"));
        assertThat(ranges(plan(SMALL)))
                .as("groups 2 and 3 merge with no neighbour: each stays a file of its own")
                .containsExactly("a[0, 19]");
        assertThat(plan(SMALL).get(0).groups())
                .allSatisfy(
                        g ->
                                assertThat(g.files())
                                        .allMatch(
                                                f -> DataFileKinds.isNormal(f.file().fileName())));
    }

    private static ManifestEntry dedicated(
            String name, long firstRowId, long rows, long schemaId, String column) {
        DataFileMeta meta =
                DataFileMeta.builder(name)
                        .fileSize(20)
                        .rowCount(rows)
                        .firstRowId(firstRowId)
                        .sequenceNumbers(1, 1)
                        .schemaId(schemaId)
                        .writeCols(List.of(column))
                        .build();
        return new ManifestEntry(FileKind.ADD, partitionBytes("a"), 0, -1, meta);
    }

    @Test
    void unequalOverlappingRangesAreRefused() {
        file("a", 0, 10, 20);
        file("a", 5, 10, 20);

        assertThatThrownBy(() -> plan(SMALL))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("overlap without covering the same row ids");
    }

    private List<CompactionTask> plan(CompactionConfig config) {
        return new CompactionPlanner(config).plan(files);
    }

    private static List<String> ranges(List<CompactionTask> tasks) {
        return tasks.stream().map(t -> partitionName(t.partition()) + t.range()).sorted().toList();
    }

    private ManifestEntry file(String partition, long firstRowId, long rows, long size) {
        return file(partition, firstRowId, rows, size, 1, 1);
    }

    private ManifestEntry file(
            String partition, long firstRowId, long rows, long size, long minSeq, long maxSeq) {
        ManifestEntry entry =
                entry(
                        partition,
                        "data-" + (++counter) + ".parquet",
                        firstRowId,
                        rows,
                        size,
                        minSeq,
                        maxSeq);
        files.add(entry);
        return entry;
    }

    private static ManifestEntry entry(
            String partition,
            String name,
            long firstRowId,
            long rows,
            long size,
            long minSeq,
            long maxSeq) {
        DataFileMeta meta =
                DataFileMeta.builder(name)
                        .fileSize(size)
                        .rowCount(rows)
                        .firstRowId(firstRowId)
                        .sequenceNumbers(minSeq, maxSeq)
                        .build();
        return new ManifestEntry(FileKind.ADD, partitionBytes(partition), 0, -1, meta);
    }

    private static byte[] partitionBytes(String partition) {
        return codec().serialize(GenericRowData.of(StringData.fromString(partition)));
    }

    private static String partitionName(byte[] partition) {
        return codec().deserialize(partition).getString(0).toString();
    }

    private static BinaryRowCodec codec() {
        return BinaryRowCodec.of(List.of(new VarCharType(VarCharType.MAX_LENGTH)));
    }
}
