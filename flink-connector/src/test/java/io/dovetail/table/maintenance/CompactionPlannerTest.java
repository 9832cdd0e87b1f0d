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
import io.dovetail.table.maintenance.CompactionConfig.Rewrite;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.dovetail.table.maintenance.CompactionConfig.Rewrite.FULL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Planning of full data-evolution compaction over metadata only: runs of touching ranges, bins
 * bounded by the target size with the open-file cost as minimum weight, the minimum file count,
 * heavy groups on their own, partitions kept apart, invalid inputs refused. (Column-selective
 * planning needs the files' columns: {@code DataEvolutionCompactionTest}.)
 */
class CompactionPlannerTest {

    private static final long MB = 1024 * 1024;

    /** Target 100 bytes, open-file cost 10 bytes, at least one file per task, full rewrites. */
    private static final CompactionConfig SMALL = new CompactionConfig(100, 10, 1, FULL);

    /** The schema the planner writes with (consulted only by column-selective planning). */
    private static final TableSchema SCHEMA =
            TableSchema.initial(
                    List.of(new DataField(0, "id", DataTypes.BIGINT())),
                    List.of(),
                    List.of(),
                    Map.of(),
                    null,
                    0);

    private final List<ManifestEntry> files = new ArrayList<>();
    private int counter;

    @Test
    void defaultsAreThoseOfPaimonAppendTables() {
        assertThat(CompactionConfig.fromOptions(Map.of()))
                .isEqualTo(new CompactionConfig(256 * MB, 4 * MB, 5, Rewrite.COLUMNS));
        assertThat(
                        CompactionConfig.fromOptions(
                                Map.of(
                                        "target-file-size", "64 mb",
                                        "source.split.open-file-cost", "1mb",
                                        "compaction.min.file-num", "3")))
                .isEqualTo(new CompactionConfig(64 * MB, MB, 3, Rewrite.COLUMNS));
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
        assertThat(ranges(plan(new CompactionConfig(100, 30, 1, FULL))))
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
        assertThat(plan(new CompactionConfig(1000, 10, 5, FULL))).hasSize(1);
        assertThat(plan(new CompactionConfig(1000, 10, 6, FULL))).isEmpty();
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
        return dedicated(name, firstRowId, rows, schemaId, column, 20);
    }

    private static ManifestEntry dedicated(
            String name, long firstRowId, long rows, long schemaId, String column, long size) {
        DataFileMeta meta =
                DataFileMeta.builder(name)
                        .fileSize(size)
                        .rowCount(rows)
                        .firstRowId(firstRowId)
                        .sequenceNumbers(1, 1)
                        .schemaId(schemaId)
                        .writeCols(List.of(column))
                        .build();
        return new ManifestEntry(FileKind.ADD, partitionBytes("a"), 0, -1, meta);
    }

    @Test
    void dedicatedFilesAreFoldedOnlyWhenAskedAndWorthIt() {
        TableSchema media =
                TableSchema.initial(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT()),
                                new DataField(1, "img", DataTypes.BLOB()),
                                new DataField(2, "emb", DataTypes.VECTOR(DataTypes.FLOAT(), 4))),
                        List.of(),
                        List.of(),
                        Map.of("vector.file.format", "avro", "blob.target-file-size", "100 b"),
                        null,
                        0);
        file("a", 0, 10, 20);
        file("a", 10, 10, 20);
        file("a", 20, 10, 20);
        // [0, 9]: an image version over rows 2..5 and a vector update over the whole range
        files.add(dedicated("data-x-1.blob", 0, 10, 0, "img"));
        files.add(dedicated("data-x-2.blob", 2, 4, 0, "img"));
        files.add(dedicated("data-x-3.vector.avro", 0, 10, 0, "emb"));
        files.add(dedicated("data-x-4.vector.avro", 0, 10, 0, "emb"));
        // [10, 19]: images rolled at the target size (large, one version each): they stay
        files.add(dedicated("data-y-1.blob", 10, 5, 0, "img", 90));
        files.add(dedicated("data-y-2.blob", 15, 5, 0, "img", 90));
        // [20, 29]: two small images of disjoint rows (a backfill in two parts): folded
        files.add(dedicated("data-z-1.blob", 20, 3, 0, "img"));
        files.add(dedicated("data-z-2.blob", 25, 3, 0, "img"));

        CompactionConfig columns = new CompactionConfig(100, 10, 2, Rewrite.COLUMNS);
        assertThat(new CompactionPlanner(columns, media, id -> media).plan(files))
                .as("off by default")
                .isEmpty();
        List<CompactionTask> tasks =
                new CompactionPlanner(
                                new CompactionConfig(100, 10, 2, Rewrite.COLUMNS, true),
                                media,
                                id -> media)
                        .plan(files);
        assertThat(tasks)
                .extracting(t -> t.range() + " " + t.columns() + " " + t.inputs().size())
                .containsExactly("[0, 9] [img] 2", "[0, 9] [emb] 2", "[20, 29] [img] 2");
        assertThat(tasks).allMatch(CompactionTask::dedicated);
        assertThat(
                        new CompactionPlanner(
                                        new CompactionConfig(100, 10, 3, Rewrite.COLUMNS, true),
                                        media,
                                        id -> media)
                                .plan(files))
                .as("fewer files than compaction.min.file-num")
                .isEmpty();
    }

    @Test
    void columnSelectivePlansReplaceOnlyFilesWhoseEveryColumnHasAnotherVersion() {
        List<DataField> written =
                List.of(
                        new DataField(0, "id", DataTypes.BIGINT()),
                        new DataField(1, "image", DataTypes.BYTES()),
                        new DataField(2, "caption", DataTypes.STRING()));
        TableSchema before = TableSchema.initial(written, List.of(), List.of(), Map.of(), null, 0);
        List<DataField> all = new ArrayList<>(written);
        all.add(new DataField(3, "tag", DataTypes.STRING()));
        // whole files are of schema 0, partial ones of schema 1, which added tag
        TableSchema media = new TableSchema(1, all, 3, List.of(), List.of(), Map.of(), null, 0);
        // [0, 9]: written once, then five captions
        ManifestEntry base = file("a", 0, 10, 4000);
        for (int version = 0; version < 5; version++) {
            partial(0, "caption");
        }
        // [10, 19]: a caption, an image and a caption with the only tag
        ManifestEntry otherBase = file("a", 10, 10, 4000);
        partial(10, "caption");
        partial(10, "image");
        ManifestEntry tagged = partial(10, "caption", "tag");
        // [20, 29]: two captions, fewer files than the minimum
        file("a", 20, 10, 4000);
        partial(20, "caption");
        partial(20, "caption");

        List<CompactionTask> tasks =
                new CompactionPlanner(
                                CompactionConfig.fromOptions(Map.of()).withMinFileNum(4),
                                media,
                                id -> id == 0 ? before : media)
                        .plan(files);

        assertThat(tasks).hasSize(2);
        assertThat(tasks.get(0).range()).hasToString("[0, 9]");
        assertThat(tasks.get(0).columns()).containsExactly("caption");
        assertThat(tasks.get(0).kept()).containsExactly(base.file().fileName());
        assertThat(tasks.get(0).inputs()).hasSize(5).doesNotContain(base);
        assertThat(tasks.get(1).range()).hasToString("[10, 19]");
        assertThat(tasks.get(1).columns())
                .as("the updated image is folded, with the caption, in schema order")
                .containsExactly("image", "caption");
        assertThat(tasks.get(1).kept())
                .containsExactlyInAnyOrder(otherBase.file().fileName(), tagged.file().fileName());
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
        return new CompactionPlanner(config, SCHEMA, id -> SCHEMA).plan(files);
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

    /**
     * A partial-column file of ten rows holding {@code columns} of schema 1, newer than every file
     * before.
     */
    private ManifestEntry partial(long firstRowId, String... columns) {
        ManifestEntry plain = file("a", firstRowId, 10, 100, counter + 1, counter + 1);
        ManifestEntry entry =
                new ManifestEntry(
                        FileKind.ADD,
                        plain.partition(),
                        0,
                        -1,
                        plain.file().toBuilder().schemaId(1).writeCols(List.of(columns)).build());
        files.set(files.size() - 1, entry);
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
