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

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TestTable;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.BTreeKeys;
import io.dovetail.table.index.BitmapIndexFile;
import io.dovetail.table.index.GlobalIndexFiles;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link GlobalIndexBuild}: the runs a build plans (the rows no index of the column covers yet, per
 * partition), the files it writes and commits, the commit's refusal when the column of indexed rows
 * was updated since the build's snapshot, and dropping; bitmap builds cut runs at {@code
 * global-index.row-count-per-shard}, one file each.
 */
class GlobalIndexBuildTest {

    @TempDir Path dir;

    private TestTable table;

    @BeforeEach
    void twoPartitions() {
        table = new TestTable(dir.resolve("t"), false);
        table.commit(
                CommitRequest.append(
                        "writer",
                        1,
                        List.of(table.writeAppend("p1", 30), table.writeAppend("p2", 20))));
    }

    @Test
    void aBuildIndexesEachPartitionsRunOnceAndThenOnlyNewRows() {
        GlobalIndexBuild.Plan plan = plan().orElseThrow();
        assertThat(plan.runs())
                .extracting(GlobalIndexBuild.Run::first, GlobalIndexBuild.Run::last)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(0L, 29L),
                        org.assertj.core.groups.Tuple.tuple(30L, 49L));

        List<IndexManifestEntry> files = build(plan);

        assertThat(files).hasSize(2);
        assertThat(globalIndexes()).containsExactlyInAnyOrderElementsOf(files);
        assertThat(plan()).as("every row is indexed").isEmpty();

        table.commit(CommitRequest.append("writer", 2, List.of(table.writeAppend("p1", 5))));
        assertThat(plan().orElseThrow().runs())
                .singleElement()
                .satisfies(r -> assertThat(r.first()).isEqualTo(50L));
    }

    @Test
    void runsOfAtMostRecordsPerRangeTimesOnePointTwoRowIdsGetAFileEach() {
        GlobalIndexBuild.Plan plan =
                GlobalIndexBuild.plan(
                                table.store,
                                "a",
                                "btree",
                                p -> true,
                                Map.of("btree-index.records-per-range", "10"))
                        .orElseThrow();

        List<IndexManifestEntry> files = build(plan);

        assertThat(files).hasSize(3 + 2);
        assertThat(files)
                .allSatisfy(f -> assertThat(f.indexFile().rowCount()).isLessThanOrEqualTo(12));
        assertThat(files)
                .extracting(
                        f -> f.indexFile().globalIndex().rowRangeStart(),
                        f -> f.indexFile().globalIndex().rowRangeEnd())
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(0L, 11L),
                        org.assertj.core.groups.Tuple.tuple(12L, 23L),
                        org.assertj.core.groups.Tuple.tuple(24L, 29L),
                        org.assertj.core.groups.Tuple.tuple(30L, 41L),
                        org.assertj.core.groups.Tuple.tuple(42L, 49L));
    }

    @Test
    void bitmapRunsOfAtMostRowCountPerShardGetAFileEachThatFindsItsRows() {
        build(plan().orElseThrow());
        GlobalIndexBuild.Plan plan =
                GlobalIndexBuild.plan(
                                table.store,
                                "a",
                                " BITMAP",
                                p -> true,
                                Map.of("global-index.row-count-per-shard", "12"))
                        .orElseThrow();

        List<IndexManifestEntry> files = write(table.store, plan);
        GlobalIndexBuild.commit(table.store, "bitmap-builder", plan, files);

        assertThat(plan.indexType()).as("B-tree files cover no bitmap run").isEqualTo("bitmap");
        assertThat(files)
                .extracting(
                        f -> f.indexFile().indexType(),
                        f -> f.indexFile().globalIndex().rowRangeStart(),
                        f -> f.indexFile().globalIndex().rowRangeEnd(),
                        f -> f.indexFile().rowCount())
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("bitmap", 0L, 11L, 12L),
                        org.assertj.core.groups.Tuple.tuple("bitmap", 12L, 23L, 12L),
                        org.assertj.core.groups.Tuple.tuple("bitmap", 24L, 29L, 6L),
                        org.assertj.core.groups.Tuple.tuple("bitmap", 30L, 41L, 12L),
                        org.assertj.core.groups.Tuple.tuple("bitmap", 42L, 49L, 8L));
        BTreeKeys keys = GlobalIndexBuild.keys(table.store, plan);
        List<Long> found = new ArrayList<>();
        for (IndexManifestEntry file : files) {
            long start = file.indexFile().globalIndex().rowRangeStart();
            BitmapIndexFile.lookup(
                    file.indexFile().path(table.store.paths().indexDir()),
                    keys,
                    List.of("a25".getBytes(), "a5".getBytes()),
                    id -> found.add(start + id));
        }
        assertThat(found)
                .as("a5 in both partitions, a25 in p1")
                .containsExactlyInAnyOrder(5L, 25L, 35L);
        assertThat(GlobalIndexBuild.plan(table.store, "a", "bitmap", p -> true, Map.of()))
                .isEmpty();
        assertThat(GlobalIndexBuild.drop(table.store, "a", "bitmap", p -> true, false, "dropper"))
                .hasSize(5);
        assertThat(globalIndexes())
                .extracting(e -> e.indexFile().indexType())
                .containsOnly("btree");
    }

    @Test
    void anUpdateOfTheColumnSinceTheBuildsSnapshotFailsItsCommit() {
        GlobalIndexBuild.Plan plan = plan().orElseThrow();
        List<IndexManifestEntry> files = write(table.store, plan);
        updateRow3("a");
        long[] snapshots = table.snapshotIds();

        assertThatThrownBy(() -> GlobalIndexBuild.commit(table.store, "builder", plan, files))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("changed the indexed column of rows [0, 29]")
                .hasMessageContaining("Build the index again");
        assertThat(table.snapshotIds()).isEqualTo(snapshots);
        assertThat(globalIndexes()).isEmpty();
    }

    @Test
    void anUpdateOfAnotherColumnLetsTheBuildCommit() {
        GlobalIndexBuild.Plan plan = plan().orElseThrow();
        List<IndexManifestEntry> files = write(table.store, plan);
        updateRow3("b");

        GlobalIndexBuild.commit(table.store, "builder", plan, files);

        assertThat(globalIndexes()).hasSize(2);
    }

    @Test
    void dropRemovesTheColumnsFilesOfTheSelectedPartitionsAndADryRunOnlyCounts() {
        List<IndexManifestEntry> files = build(plan().orElseThrow());
        byte[] p1 = TestTable.partitionBytes("p1");

        assertThat(drop(true)).hasSize(1);
        assertThat(globalIndexes()).hasSize(2);
        assertThat(drop(false)).hasSize(1);
        assertThat(globalIndexes())
                .singleElement()
                .satisfies(e -> assertThat(e.partition()).isNotEqualTo(p1));
        assertThat(files).hasSize(2);
        assertThatThrownBy(
                        () ->
                                GlobalIndexBuild.drop(
                                        table.store, "nope", "btree", p -> true, false, "dropper"))
                .hasMessageContaining("Column 'nope' does not exist");
    }

    @Test
    void unsupportedTypesAndIndexTypesAreRefusedByName() {
        assertThatThrownBy(
                        () ->
                                GlobalIndexBuild.plan(
                                        table.store, "a", "lumina", p -> true, Map.of()))
                .hasMessageContaining("building 'lumina' global indexes");
    }

    private void updateRow3(String column) {
        ColumnUpdater.on(table.store, table.latest(), List.of(column))
                .commit(
                        "updater",
                        5,
                        List.of(new RowUpdate(3, GenericRowData.of(StringData.fromString("new"))))
                                .iterator())
                .orElseThrow();
    }

    private java.util.Optional<GlobalIndexBuild.Plan> plan() {
        return GlobalIndexBuild.plan(table.store, "a", "btree", p -> true, Map.of());
    }

    private List<IndexManifestEntry> drop(boolean dryRun) {
        return GlobalIndexBuild.drop(
                table.store,
                "a",
                "btree",
                p -> p.getString(0).toString().equals("p1"),
                dryRun,
                "dropper");
    }

    private List<IndexManifestEntry> build(GlobalIndexBuild.Plan plan) {
        List<IndexManifestEntry> files = write(table.store, plan);
        GlobalIndexBuild.commit(table.store, "builder", plan, files);
        return files;
    }

    /** Writes the plan's files in process, each run's rows sorted in memory. */
    static List<IndexManifestEntry> write(TableStore store, GlobalIndexBuild.Plan plan) {
        var keys = GlobalIndexBuild.keys(store, plan);
        GlobalIndexBuild.Files files = new GlobalIndexBuild.Files(store, plan);
        for (GlobalIndexBuild.Run run : plan.runs()) {
            List<Object[]> rows = new ArrayList<>();
            GlobalIndexBuild.scan(store, plan, run, (key, id) -> rows.add(new Object[] {key, id}));
            rows.sort(
                    Comparator.comparing((Object[] r) -> (byte[]) r[0], keys)
                            .thenComparing(r -> (Long) r[1]));
            rows.forEach(r -> files.add(run, (byte[]) r[0], (Long) r[1]));
        }
        return files.finish();
    }

    private List<IndexManifestEntry> globalIndexes() {
        return table.files().indexFiles().stream().filter(GlobalIndexFiles::isGlobalIndex).toList();
    }
}
