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

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.CompactionTask;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.maintenance.DeletionVectorMaterialization;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.RenderedReads;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.TypeRoot;
import io.dovetail.table.types.VectorType;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables with BLOB and VECTOR columns against a naive model: random sequences of appends (whose
 * {@code .blob} and vector-store files roll inside each normal file), column updates of random
 * columns and rows through {@link ColumnUpdater} (normal, BLOB and VECTOR columns; explicit NULLs),
 * VECTOR and normal columns added later (rows before read NULL, the holes filled by later updates),
 * deletes, compactions (full or column-selective) and materializations of the deletion vectors
 * (survivors renumbered); each step is followed by reads of random projections (with {@code
 * _ROW_ID}) and random row ranges, which must equal the model: per row id, each column's last
 * written value.
 */
class DedicatedColumnsModelPropertyTest {

    private static final int STEPS = 12;
    private static final int READS_PER_STEP = 3;

    @Property(tries = 25)
    void readsOfBlobAndVectorLayoutsAgreeWithTheModel(@ForAll("seeds") long seed)
            throws IOException {
        Random random = new Random(seed);
        java.nio.file.Path dir = Files.createTempDirectory("dovetail-dedicated-model");
        try {
            Layout layout = new Layout(dir, random);
            layout.append();
            for (int step = 0; step < STEPS; step++) {
                int action = random.nextInt(10);
                if (action < 3) {
                    layout.append();
                } else if (action < 7) {
                    layout.update();
                } else if (action < 8) {
                    layout.addColumn();
                } else if (action < 9) {
                    layout.delete();
                } else if (layout.hasDeletes() && random.nextBoolean()) {
                    layout.materialize();
                } else {
                    layout.compact();
                }
                for (int r = 0; r < READS_PER_STEP; r++) {
                    layout.checkRandomRead();
                }
            }
        } finally {
            deleteRecursively(dir);
        }
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    /** The table and its model: rendered values by row id and column name. */
    private static final class Layout {

        private final Random random;
        private final TableStore store;
        private final TreeMap<Long, Map<String, String>> rows = new TreeMap<>();
        private final TreeSet<Long> deleted = new TreeSet<>();
        private final List<String> log = new ArrayList<>();
        private long commit;
        private int added;

        Layout(java.nio.file.Path dir, Random random) {
            this.random = random;
            store = TableStore.at(new TablePaths(new Path(dir.toUri())));
            String format = random.nextBoolean() ? "avro" : "json";
            Map<String, String> options = new HashMap<>();
            options.put("row-tracking.enabled", "true");
            options.put("data-evolution.enabled", "true");
            options.put("deletion-vectors.enabled", "true");
            options.put("vector.file.format", format);
            options.put("blob.target-file-size", (100 + random.nextInt(400)) + " b");
            options.put("vector.target-file-size", (50 + random.nextInt(200)) + " b");
            store.schemas()
                    .createTable(
                            List.of(
                                    new DataField(0, "id", DataTypes.BIGINT()),
                                    new DataField(1, "cap", DataTypes.STRING()),
                                    new DataField(2, "img", DataTypes.BLOB()),
                                    new DataField(3, "emb", DataTypes.VECTOR(DataTypes.FLOAT(), 3)),
                                    new DataField(4, "tags", DataTypes.VECTOR(DataTypes.INT(), 2))),
                            List.of(),
                            List.of(),
                            options,
                            null);
            log.add("create, vector.file.format " + format + ", " + options);
        }

        TableSchema schema() {
            return store.latestSchema();
        }

        void append() {
            int count = 1 + random.nextInt(15);
            List<DataField> fields = schema().fields();
            List<ManifestEntry> files;
            long first = rows.isEmpty() ? 0 : nextRowId();
            try (DataFileWriter writer =
                    DataFileWriter.forAppend(store.paths(), schema(), new GenericRowData(0))) {
                for (int r = 0; r < count; r++) {
                    GenericRowData row = new GenericRowData(fields.size());
                    Map<String, String> model = new LinkedHashMap<>();
                    for (int c = 0; c < fields.size(); c++) {
                        Object value =
                                fields.get(c).name().equals("id")
                                        ? (Object) (first + r)
                                        : value(fields.get(c).type());
                        row.setField(c, value);
                        model.put(fields.get(c).name(), render(value));
                    }
                    writer.write(row);
                    rows.put(first + r, model);
                }
                files = writer.finish();
            }
            Snapshot s = new TableCommit(store).commit(CommitRequest.append("t", ++commit, files));
            assertThat(s.nextRowId()).isEqualTo(first + count);
            log.add("append " + count + " rows from row id " + first + ": " + names(files));
        }

        void update() {
            if (live().isEmpty()) {
                return;
            }
            List<String> candidates =
                    new ArrayList<>(
                            schema().fields().stream()
                                    .map(DataField::name)
                                    .filter(n -> !n.equals("id"))
                                    .toList());
            List<String> columns = new ArrayList<>();
            for (String name : candidates) {
                if (random.nextInt(3) == 0) {
                    columns.add(name);
                }
            }
            if (columns.isEmpty()) {
                columns.add(candidates.get(random.nextInt(candidates.size())));
            }
            List<RowUpdate> updates = new ArrayList<>();
            for (long rowId : rows.keySet()) {
                if (random.nextInt(4) == 0) {
                    GenericRowData values = new GenericRowData(columns.size());
                    for (int c = 0; c < columns.size(); c++) {
                        Object value = value(schema().field(columns.get(c)).orElseThrow().type());
                        values.setField(c, value);
                        rows.get(rowId).put(columns.get(c), render(value));
                    }
                    updates.add(new RowUpdate(rowId, values));
                }
            }
            if (updates.isEmpty()) {
                return;
            }
            Snapshot base = store.latestSnapshot().orElseThrow();
            ColumnUpdater.on(store, base, columns).commit("t", ++commit, updates.iterator());
            log.add(
                    "update "
                            + columns
                            + " of row ids "
                            + updates.stream().map(RowUpdate::rowId).toList()
                            + ": "
                            + names(
                                    store.files(store.latestSnapshot().orElseThrow())
                                            .deltaEntries()));
        }

        void addColumn() {
            String name = "x" + (++added);
            DataType type =
                    random.nextBoolean()
                            ? DataTypes.VECTOR(DataTypes.DOUBLE(), 1 + random.nextInt(3))
                            : DataTypes.STRING();
            store.schemas().commitChanges(SchemaChange.addColumn(name, type));
            rows.values().forEach(model -> model.put(name, "null"));
            log.add("add column " + name + " " + type.asSqlString());
        }

        void delete() {
            List<Long> live = live();
            if (live.isEmpty()) {
                return;
            }
            List<Long> ids = new ArrayList<>();
            for (long rowId : live) {
                if (random.nextInt(5) == 0) {
                    ids.add(rowId);
                }
            }
            if (ids.isEmpty()) {
                return;
            }
            Snapshot base = store.latestSnapshot().orElseThrow();
            new TableCommit(store)
                    .commit(
                            CommitRequest.delete(
                                    "t",
                                    ++commit,
                                    base.id(),
                                    new DeletionVectorWriter(store).deleteRows(base, ids)));
            deleted.addAll(ids);
            log.add("delete row ids " + ids);
        }

        void compact() {
            CompactionConfig.Rewrite rewrite =
                    random.nextBoolean()
                            ? CompactionConfig.Rewrite.FULL
                            : CompactionConfig.Rewrite.COLUMNS;
            boolean dedicated = random.nextBoolean();
            new DataEvolutionCompaction(store)
                    .compact(
                            "t",
                            ++commit,
                            p -> true,
                            new CompactionConfig(256 << 20, 1, 2, rewrite, dedicated));
            log.add(
                    "compact ("
                            + rewrite
                            + (dedicated ? ", dedicated files folded" : "")
                            + "): normal files now "
                            + names(
                                    store
                                            .files(store.latestSnapshot().orElseThrow())
                                            .liveFiles()
                                            .stream()
                                            .filter(
                                                    e ->
                                                            DataFileKinds.isNormal(
                                                                    e.file().fileName()))
                                            .toList()));
        }

        /**
         * Materializes the deletion vectors: each group with deleted rows is rewritten, its
         * survivors (BLOB and VECTOR values too) getting new row ids from the table's next row id,
         * group after group in row order.
         */
        boolean hasDeletes() {
            return !deleted.isEmpty();
        }

        void materialize() {
            DeletionVectorMaterialization materialization =
                    new DeletionVectorMaterialization(store);
            Optional<DeletionVectorMaterialization.Plan> plan = materialization.plan(p -> true);
            if (plan.isEmpty()) {
                return;
            }
            long next = store.latestSnapshot().orElseThrow().nextRowId();
            DeletionVectorMaterialization.Rewriter rewriter = materialization.rewriter(plan.get());
            materialization.commit(
                    "t",
                    ++commit,
                    plan.get(),
                    plan.get().groups().stream().map(rewriter::rewrite).toList());
            List<String> ranges = new ArrayList<>();
            for (CompactionTask group : plan.get().groups()) {
                ranges.add(group.range().toString());
                for (long id = group.range().first(); id <= group.range().last(); id++) {
                    Map<String, String> row = rows.remove(id);
                    if (!deleted.remove(id) && row != null) {
                        rows.put(next++, row);
                    }
                }
            }
            log.add("materialize groups " + ranges);
        }

        void checkRandomRead() {
            List<DataField> fields = schema().fields();
            List<String> names = new ArrayList<>();
            for (DataField field : fields) {
                if (random.nextBoolean()) {
                    names.add(field.name());
                }
            }
            names.add("_ROW_ID");
            ReadRequest request =
                    ReadRequest.allColumns(schema()).withColumns(names.toArray(String[]::new));
            List<RowRange> ranges = null;
            if (random.nextInt(3) == 0) {
                long a = random.nextLong(nextRowId());
                long b = a + random.nextInt(10);
                ranges = List.of(new RowRange(a, b));
                request = request.withRowRanges(ranges);
            }
            List<String> expected = new ArrayList<>();
            for (Map.Entry<Long, Map<String, String>> row : rows.entrySet()) {
                long rowId = row.getKey();
                if (deleted.contains(rowId) || (ranges != null && !ranges.get(0).contains(rowId))) {
                    continue;
                }
                StringBuilder sb = new StringBuilder();
                for (String name : names) {
                    if (sb.length() > 0) {
                        sb.append(", ");
                    }
                    sb.append(name)
                            .append('=')
                            .append(
                                    name.equals("_ROW_ID")
                                            ? Long.toString(rowId)
                                            : row.getValue().get(name));
                }
                expected.add(sb.toString());
            }
            expected.sort(Comparator.naturalOrder());
            String context =
                    String.format(
                            "read %s rows %s after%n%s", names, ranges, String.join("\n", log));
            List<String> read;
            try {
                read = RenderedReads.read(new ReadPlanner(store).planLatest(request));
            } catch (RuntimeException e) {
                throw new AssertionError(context, e);
            }
            assertThat(read).as(context).containsExactlyElementsOf(expected);
        }

        private long nextRowId() {
            return store.latestSnapshot().map(Snapshot::nextRowId).orElse(0L);
        }

        private List<Long> live() {
            return rows.keySet().stream().filter(id -> !deleted.contains(id)).toList();
        }

        /** A random value of {@code type} as Flink's internal data, NULL one time in six. */
        private Object value(DataType type) {
            if (random.nextInt(6) == 0) {
                return null;
            }
            if (type.root() == TypeRoot.BLOB) {
                byte[] bytes = new byte[random.nextInt(120)];
                random.nextBytes(bytes);
                return bytes;
            }
            if (type instanceof VectorType vector) {
                Object[] elements = new Object[vector.length()];
                for (int i = 0; i < elements.length; i++) {
                    switch (vector.element().root()) {
                        case FLOAT:
                            elements[i] = (float) random.nextInt(1000) / 8;
                            break;
                        case INT:
                            elements[i] = random.nextInt();
                            break;
                        default:
                            elements[i] = random.nextInt(1000) / 4.0;
                    }
                }
                return new GenericArrayData(elements);
            }
            return StringData.fromString("s" + random.nextInt(1000));
        }
    }

    /** A value as {@link RenderedReads} renders it. */
    private static String render(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof byte[] bytes) {
            return "0x" + HexFormat.of().formatHex(bytes);
        }
        if (value instanceof GenericArrayData array) {
            return Arrays.toString(array.toObjectArray());
        }
        return value.toString();
    }

    private static List<String> names(List<ManifestEntry> files) {
        return files.stream()
                .map(
                        e ->
                                e.file().fileName()
                                        + "@"
                                        + e.file().firstRowId()
                                        + "+"
                                        + e.file().rowCount())
                .toList();
    }

    private static void deleteRecursively(java.nio.file.Path dir) throws IOException {
        try (Stream<java.nio.file.Path> paths = Files.walk(dir)) {
            for (java.nio.file.Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
