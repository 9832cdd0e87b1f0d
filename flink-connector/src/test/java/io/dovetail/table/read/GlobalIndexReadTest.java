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
package io.dovetail.table.read;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.index.BTreeIndexFile;
import io.dovetail.table.index.BTreeKeys;
import io.dovetail.table.index.BitmapIndexFile;
import io.dovetail.table.index.GlobalIndexWriter;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Index-assisted reads return what full scans return: on generated tables with B-tree and bitmap
 * global indexes on column {@code a} (written in Paimon 1.4.2's formats by {@link
 * GlobalIndexWriter}, the type drawn per run, one file per contiguous run of a partition's rows),
 * and appends, column updates, deletes and compactions after the build, every equality, IN and IS
 * NULL on {@code a} (NULL in about one row of twenty) reads the same rows with the indexes as
 * without (half of the tables with pages of about a hundred rows and some files of hundreds of rows
 * before the build, so that the reads skip pages inside row groups); an update of {@code a} under
 * DROP_PARTITION_INDEX drops the partition's index and the read scans it. Reads with the indexes
 * read fewer rows (a quarter fewer over all seeds, where many rows were appended after the build).
 */
class GlobalIndexReadTest {

    private static final List<String> PARTITIONS = List.of("p1", "p2");

    @TempDir Path dir;

    private io.dovetail.table.commit.TestTable table;
    private TableStore store;
    private Random random;
    private long nextId;
    private long commit = 100;

    @Test
    void indexedReadsEqualFullScansAcrossAppendsUpdatesDeletesAndCompactions() {
        long readWithIndex = 0;
        long readInFull = 0;
        for (int seed = 0; seed < 8; seed++) {
            random = new Random(seed);
            table = new io.dovetail.table.commit.TestTable(dir.resolve("t" + seed), true);
            store = table.store;
            if (seed % 2 == 0) {
                // pages of about a hundred rows: the reads skip pages inside row groups
                store.schemas().commitChanges(SchemaChange.setOption("parquet.page.size", "256"));
            }
            for (int files = 2 + random.nextInt(4); files > 0; files--) {
                String partition = PARTITIONS.get(random.nextInt(2));
                if (random.nextInt(3) == 0) {
                    append(partition, 200 + random.nextInt(800));
                } else {
                    append(partition);
                }
            }
            buildIndex("p1");
            if (random.nextBoolean()) {
                buildIndex("p2");
            }
            for (int step = 3 + random.nextInt(6); step > 0; step--) {
                change();
            }
            for (int query = 0; query < 15; query++) {
                Predicate filter = filter();
                List<String> indexed = read(filter, true);
                List<String> full = read(filter, false);
                assertThat(matching(indexed, filter))
                        .as("seed %s, %s", seed, filter)
                        .containsExactlyInAnyOrderElementsOf(matching(full, filter));
                readWithIndex += indexed.size();
                readInFull += full.size();
            }
        }
        assertThat(readWithIndex).as("rows read").isLessThan(readInFull * 3 / 4);
    }

    @Test
    void rowsAppendedAfterTheBuildAndPartitionsWithoutIndexAreScanned() {
        random = new Random(42);
        table = new io.dovetail.table.commit.TestTable(dir.resolve("t"), false);
        store = table.store;
        append("p1", 200);
        buildIndex("p1");
        append("p1");
        append("p2");
        Predicate filter = Predicate.equal(field("a"), str("a3"));

        List<String> indexed = read(filter, true);

        assertThat(matching(indexed, filter))
                .containsExactlyInAnyOrderElementsOf(matching(read(filter, false), filter));
        assertThat(matching(indexed, filter)).hasSizeGreaterThan(1);
        assertThat(indexed.size())
                .as("the indexed partition's rows other than a3 are not read")
                .isLessThan(read(filter, false).size() - 150);
    }

    // ---------------------------------------------------------------- writes

    private void append(String partition) {
        append(partition, 5 + random.nextInt(60));
    }

    private void append(String partition, int rows) {
        List<ManifestEntry> files;
        try (DataFileWriter writer =
                DataFileWriter.forAppend(
                        store.paths(), store.latestSchema(), GenericRowData.of(str(partition)))) {
            for (int row = 0; row < rows; row++) {
                long id = nextId++;
                writer.write(
                        GenericRowData.of(
                                id,
                                random.nextInt(20) == 0 ? null : str("a" + random.nextInt(25)),
                                str("b" + id),
                                str("c" + id),
                                str(partition)));
            }
            files = writer.finish();
        }
        new TableCommit(store).commit(CommitRequest.append("writer", commit++, files));
    }

    /**
     * Indexes column {@code a} of {@code partition}'s rows, one file per contiguous run of row ids,
     * keys sorted with their row ids relative to the run's start, and commits the files.
     */
    private void buildIndex(String partition) {
        Snapshot snapshot = table.latest();
        TreeMap<Long, RowRange> runs = new TreeMap<>();
        for (RowRange range : rangesOf(partition, snapshot)) {
            var previous = runs.lastEntry();
            if (previous != null && previous.getValue().last() + 1 == range.first()) {
                runs.put(previous.getKey(), new RowRange(previous.getKey(), range.last()));
            } else {
                runs.put(range.first(), range);
            }
        }
        List<String> rows = rowsOf(partition);
        BTreeKeys keys = BTreeKeys.of(new VarCharType(VarCharType.MAX_LENGTH)).orElseThrow();
        List<IndexManifestEntry> added = new ArrayList<>();
        for (RowRange run : runs.values()) {
            List<Object[]> entries = new ArrayList<>();
            for (String row : rows) {
                String[] parts = row.split(",");
                long rowId = Long.parseLong(parts[4]);
                if (run.contains(rowId)) {
                    entries.add(
                            new Object[] {
                                parts[1].equals("null") ? null : parts[1].getBytes(), rowId
                            });
                }
            }
            entries.sort(
                    Comparator.comparing((Object[] e) -> (byte[]) e[0], Comparator.nullsFirst(keys))
                            .thenComparing(e -> (Long) e[1]));
            GlobalIndexWriter writer =
                    GlobalIndexWriter.create(
                            random.nextBoolean()
                                    ? BTreeIndexFile.INDEX_TYPE
                                    : BitmapIndexFile.INDEX_TYPE,
                            store.paths().indexDir(),
                            keys);
            entries.forEach(e -> writer.add((byte[]) e[0], (Long) e[1] - run.first()));
            added.add(
                    new IndexManifestEntry(
                            FileKind.ADD,
                            io.dovetail.table.commit.TestTable.partitionBytes(partition),
                            0,
                            writer.finish(run.first(), run.last(), field("a").id())));
        }
        table.addIndexes(added);
    }

    /** One of: an append, an update of b (or of a), a delete, a compaction. */
    private void change() {
        String partition = PARTITIONS.get(random.nextInt(2));
        switch (random.nextInt(6)) {
            case 0:
                append(partition);
                break;
            case 1:
                update(partition, "b");
                break;
            case 2:
                if (partition.equals("p1") || random.nextBoolean()) {
                    table.store
                            .schemas()
                            .commitChanges(
                                    SchemaChange.setOption(
                                            "global-index.column-update-action",
                                            "DROP_PARTITION_INDEX"));
                }
                update(partition, "a");
                break;
            case 3:
            case 4:
                delete();
                break;
            default:
                new DataEvolutionCompaction(store)
                        .compact(
                                "compactor",
                                commit++,
                                p -> true,
                                new CompactionConfig(
                                        256 << 20, 4 << 20, 2, CompactionConfig.Rewrite.FULL));
        }
    }

    private void update(String partition, String column) {
        List<RowRange> ranges = rangesOf(partition, table.latest());
        if (ranges.isEmpty()) {
            return;
        }
        RowRange range = ranges.get(random.nextInt(ranges.size()));
        TreeSet<Long> ids = new TreeSet<>();
        for (int i = 0; i < 5; i++) {
            ids.add(range.first() + random.nextInt((int) range.count()));
        }
        List<RowUpdate> updates = new ArrayList<>();
        for (long id : ids) {
            updates.add(
                    new RowUpdate(
                            id,
                            GenericRowData.of(
                                    str(
                                            column
                                                    + (column.equals("a")
                                                            ? 25 + random.nextInt(3)
                                                            : id)))));
        }
        try {
            ColumnUpdater.on(store, table.latest(), List.of(column))
                    .commit("updater", commit++, updates.iterator());
        } catch (io.dovetail.table.error.DovetailException e) {
            assertThat(e.kind())
                    .as("only THROW_ERROR refuses")
                    .isEqualTo(io.dovetail.table.error.DovetailException.Kind.REFUSED_BY_OPTION);
        }
    }

    private void delete() {
        List<String> rows = read(null, false);
        if (rows.isEmpty()) {
            return;
        }
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(Long.parseLong(rows.get(random.nextInt(rows.size())).split(",")[4]));
        }
        Snapshot base = table.latest();
        new TableCommit(store)
                .commit(
                        CommitRequest.delete(
                                "deleter",
                                commit++,
                                base.id(),
                                new DeletionVectorWriter(store)
                                        .deleteRows(base, new TreeSet<>(ids))));
    }

    // ---------------------------------------------------------------- reads

    private Predicate filter() {
        List<Object> values = new ArrayList<>();
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            values.add(str("a" + random.nextInt(29)));
        }
        Predicate onA =
                random.nextInt(5) == 0
                        ? Predicate.isNull(field("a"))
                        : values.size() == 1
                                ? Predicate.equal(field("a"), values.get(0))
                                : new Predicate.In(field("a"), values);
        return random.nextInt(4) == 0
                ? Predicate.and(onA, Predicate.greaterThan(field("id"), (long) random.nextInt(50)))
                : onA;
    }

    /** Rows as {@code id,a,b,dt,_ROW_ID}, as the planner hands them out (filter not applied). */
    private List<String> read(Predicate filter, boolean indexes) {
        ReadRequest request =
                ReadRequest.allColumns(store.latestSchema())
                        .withColumns("id", "a", "b", "dt", "_ROW_ID")
                        .withFilter(filter)
                        .withGlobalIndexes(indexes);
        ReadPlan plan = new ReadPlanner(store).plan(table.latest(), request);
        List<String> rows = new ArrayList<>();
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan, split)) {
                for (ReadBatch batch = reader.nextBatch();
                        batch != null;
                        batch = reader.nextBatch()) {
                    for (int i = 0; i < batch.size(); i++) {
                        RowData row = batch.row(i);
                        rows.add(
                                String.join(
                                        ",",
                                        String.valueOf(row.getLong(0)),
                                        row.isNullAt(1) ? "null" : row.getString(1).toString(),
                                        row.getString(2).toString(),
                                        row.getString(3).toString(),
                                        String.valueOf(row.getLong(4))));
                    }
                }
            }
        }
        return rows;
    }

    private static List<String> matching(List<String> rows, Predicate filter) {
        List<String> out = new ArrayList<>();
        for (String row : rows) {
            if (accepts(filter, row.split(","))) {
                out.add(row);
            }
        }
        return out;
    }

    private static boolean accepts(Predicate p, String[] row) {
        if (p instanceof Predicate.And and) {
            return and.children().stream().allMatch(c -> accepts(c, row));
        }
        if (p instanceof Predicate.In in) {
            return in.literals().stream().anyMatch(l -> l.toString().equals(row[1]));
        }
        if (p instanceof Predicate.IsNull) {
            return row[1].equals("null");
        }
        Predicate.Compare compare = (Predicate.Compare) p;
        if (compare.field().name().equals("id")) {
            return Long.parseLong(row[0]) > (Long) compare.literal();
        }
        return compare.literal().toString().equals(row[1]);
    }

    private List<String> rowsOf(String partition) {
        List<String> out = new ArrayList<>();
        for (String row : read(null, false)) {
            if (row.split(",")[3].equals(partition)) {
                out.add(row);
            }
        }
        return out;
    }

    /** The row ranges of the groups of {@code partition}, in order. */
    private List<RowRange> rangesOf(String partition, Snapshot snapshot) {
        byte[] bytes = io.dovetail.table.commit.TestTable.partitionBytes(partition);
        List<ManifestEntry> files =
                store.files(snapshot).liveFiles().stream()
                        .filter(e -> Arrays.equals(e.partition(), bytes))
                        .toList();
        return files.isEmpty() ? List.of() : RowGroups.rangesOfLiveFiles(files);
    }

    private DataField field(String name) {
        return store.latestSchema().field(name).orElseThrow();
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
