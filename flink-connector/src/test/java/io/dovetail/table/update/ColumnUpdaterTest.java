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
package io.dovetail.table.update;

import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Partial-column updates through {@link ColumnUpdater}, each verified by reading the whole table
 * back with the read path and comparing with a model, and by the files each commit added.
 */
class ColumnUpdaterTest {

    @TempDir Path dir;

    @Test
    void updatesAFewRowsOfOneGroupAndWritesNothingForTheOthers() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 5);
        table.append("x", 4);

        Snapshot s = table.update(List.of("a"), Map.of(1L, row("one"), 3L, row("three")));

        assertThat(table.read()).isEqualTo(table.model);
        assertThat(table.read().get(1L)).containsExactly(1L, "one", 10, "x");
        assertThat(table.read().get(2L)).containsExactly(2L, "a2", 20, "x");
        List<ManifestEntry> added = table.delta(s);
        assertThat(added).hasSize(1);
        DataFileMeta file = added.get(0).file();
        assertThat(file.firstRowId()).isZero();
        assertThat(file.rowCount()).isEqualTo(5);
        assertThat(file.writeCols()).containsExactly("a");
        assertThat(file.schemaId()).isEqualTo(table.store.latestSchema().id());
    }

    @Test
    void neverOpensAnUntouchedGroup() throws IOException {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 3);
        Snapshot second = table.append("x", 3);
        Path untouched =
                dir.resolve("dt=x/bucket-0").resolve(table.delta(second).get(0).file().fileName());
        Files.delete(untouched);

        Snapshot s = table.update(List.of("b"), Map.of(0L, row(7), 2L, row(9)));

        assertThat(table.delta(s)).extracting(e -> e.file().firstRowId()).containsExactly(0L);
    }

    @Test
    void aWriterFinishesEachGroupsFileAsTheUpdatesMovePastItAndLeavesNothingIfUnfinished()
            throws IOException {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 4); // rows 0-3
        table.append("x", 3); // rows 4-6
        Snapshot base = table.store.latestSnapshot().orElseThrow();
        java.util.Set<String> before = dataFiles();

        try (ColumnUpdater.Writer writer =
                ColumnUpdater.on(table.store, base, List.of("a")).writer()) {
            writer.add(1, GenericRowData.of(StringData.fromString("one")));
            assertThat(dataFiles()).as("the first group's file is open").hasSize(before.size() + 1);
            writer.add(5, GenericRowData.of(StringData.fromString("five")));
            assertThat(dataFiles()).hasSize(before.size() + 2);
            assertThatThrownBy(() -> writer.add(5, GenericRowData.of(StringData.fromString("x"))))
                    .hasMessageContaining("Row id 5 is updated twice");
        }
        assertThat(dataFiles()).as("an unfinished writer deletes its files").isEqualTo(before);

        List<ManifestEntry> files;
        try (ColumnUpdater.Writer writer =
                ColumnUpdater.on(table.store, base, List.of("a")).writer()) {
            writer.add(1, GenericRowData.of(StringData.fromString("one")));
            writer.add(5, GenericRowData.of(StringData.fromString("five")));
            files = writer.finish();
        }
        assertThat(files)
                .extracting(e -> e.file().firstRowId() + "+" + e.file().rowCount())
                .containsExactly("0+4", "4+3");
        assertThat(dataFiles()).hasSize(before.size() + 2);
        assertThatThrownBy(
                        () ->
                                ColumnUpdater.on(table.store, base, List.of("a"))
                                        .writer()
                                        .add(9, GenericRowData.of(StringData.fromString("x"))))
                .hasMessageContaining("Stale row id 9");
    }

    private java.util.Set<String> dataFiles() throws IOException {
        try (java.util.stream.Stream<Path> files = Files.list(dir.resolve("dt=x/bucket-0"))) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> !n.startsWith("."))
                    .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
        }
    }

    @Test
    void updatesAcrossGroupsAndPartitions() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 4); // rows 0-3
        table.append("y", 3); // rows 4-6
        table.append("x", 2); // rows 7-8
        table.append("y", 5); // rows 9-13

        Map<Long, Object[]> values = new TreeMap<>();
        values.put(0L, row("n0", 100));
        values.put(3L, row("n3", 300));
        values.put(5L, row("n5", 500));
        values.put(12L, row("n12", 1200));
        Snapshot s = table.update(List.of("a", "b"), values);

        assertThat(table.read()).isEqualTo(table.model);
        assertThat(table.delta(s))
                .extracting(e -> e.file().firstRowId() + "+" + e.file().rowCount())
                .containsExactly("0+4", "4+3", "9+5");
        assertThat(table.delta(s))
                .extracting(e -> e.file().writeCols())
                .containsOnly(List.of("a", "b"));
        assertThat(table.delta(s).get(1).partition())
                .isEqualTo(table.delta(table.store.snapshots().snapshot(2)).get(0).partition());
    }

    @Test
    void updatesInSequenceOnTheSameAndOtherColumns() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 6);
        table.append("y", 6);

        table.update(List.of("a"), Map.of(1L, row("first"), 7L, row("first")));
        assertThat(table.read()).isEqualTo(table.model);
        table.update(List.of("b"), Map.of(1L, row(-1), 2L, row(-2)));
        assertThat(table.read()).isEqualTo(table.model);
        table.update(List.of("a"), Map.of(2L, row("second"), 7L, row("second")));
        assertThat(table.read()).isEqualTo(table.model);
        table.update(List.of("b", "a"), Map.of(11L, row(-11, "third")));
        assertThat(table.read()).isEqualTo(table.model);

        assertThat(table.read().get(1L)).containsExactly(1L, "first", -1, "x");
        assertThat(table.read().get(2L)).containsExactly(2L, "second", -2, "x");
        assertThat(table.read().get(7L)).containsExactly(7L, "second", 70, "y");
        assertThat(table.read().get(11L)).containsExactly(11L, "third", -11, "y");
    }

    @Test
    void explicitNullReplacesTheValue() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 3);

        table.update(List.of("a", "b"), Map.of(1L, row(null, null), 2L, row(null, 5)));

        assertThat(table.read()).isEqualTo(table.model);
        assertThat(table.read().get(0L)).containsExactly(0L, "a0", 0, "x");
        assertThat(table.read().get(1L)).containsExactly(1L, null, null, "x");
        assertThat(table.read().get(2L)).containsExactly(2L, null, 5, "x");
    }

    @Test
    void updatesRenamedAndAddedColumnsAfterASchemaChange() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 4);
        table.update(List.of("a"), Map.of(0L, row("before")));
        table.alter(
                SchemaChange.renameColumn("a", "alpha"),
                SchemaChange.addColumn("note", DataTypes.STRING()));
        table.addModelColumn();

        Snapshot s =
                table.update(
                        List.of("alpha", "note"),
                        Map.of(1L, row("after", "n1"), 3L, row(null, "n3")));

        assertThat(table.read()).isEqualTo(table.model);
        assertThat(table.read().get(0L)).containsExactly(0L, "before", 0, "x", null);
        assertThat(table.read().get(1L)).containsExactly(1L, "after", 10, "x", "n1");
        assertThat(table.read().get(3L)).containsExactly(3L, null, 30, "x", "n3");
        DataFileMeta file = table.delta(s).get(0).file();
        assertThat(file.writeCols()).containsExactly("alpha", "note");
        assertThat(file.schemaId()).isEqualTo(1L);
    }

    @Test
    void keepsPositionsHiddenByADeletionVectorAligned() throws IOException {
        UpdateTable table = new UpdateTable(dir, true);
        table.append("x", 5);
        table.append("x", 3);
        table.delete(2L, 6L);

        Snapshot s = table.update(List.of("a"), Map.of(1L, row("one"), 3L, row("three")));

        assertThat(table.read()).isEqualTo(table.model);
        assertThat(table.read()).doesNotContainKeys(2L, 6L);
        assertThat(table.read().get(3L)).containsExactly(3L, "three", 30, "x");
        assertThat(table.read().get(4L)).containsExactly(4L, "a4", 40, "x");
        ManifestEntry written = table.delta(s).get(0);
        assertThat(written.file().rowCount()).isEqualTo(5);
        assertThat(stringColumn(dir.resolve("dt=x/bucket-0").resolve(written.file().fileName())))
                .as("the hidden position 2 keeps its current value")
                .containsExactly("a0", "one", "a2", "three", "a4");
    }

    private static Object[] row(Object... values) {
        return values;
    }

    /** The values of the first (string) column of a Parquet file, position by position. */
    static List<String> stringColumn(Path file) throws IOException {
        List<String> values = new ArrayList<>();
        try (ParquetReader<Group> reader = new Rows(new LocalInputFile(file)).build()) {
            for (Group g = reader.read(); g != null; g = reader.read()) {
                values.add(g.getFieldRepetitionCount(0) == 0 ? null : g.getString(0, 0));
            }
        }
        return values;
    }

    private static final class Rows extends ParquetReader.Builder<Group> {
        Rows(InputFile file) {
            super(file);
        }

        @Override
        protected ReadSupport<Group> getReadSupport() {
            return new GroupReadSupport();
        }
    }
}
