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
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A data-evolution table {@code id BIGINT, a STRING, b INT, dt STRING} partitioned by {@code dt},
 * with a model of its rows (row id to values in schema order, strings as {@code String}) that the
 * tests update alongside the table and compare with what the read path returns.
 */
final class UpdateTable {

    static final String USER = "update-test";

    final TableStore store;
    final Map<Long, List<Object>> model = new TreeMap<>();
    private final java.nio.file.Path dir;
    private long identifier;
    private long nextId;

    UpdateTable(java.nio.file.Path dir, boolean deletionVectors) {
        this.dir = dir;
        store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        Map<String, String> options = new LinkedHashMap<>();
        options.put("row-tracking.enabled", "true");
        options.put("data-evolution.enabled", "true");
        if (deletionVectors) {
            options.put("deletion-vectors.enabled", "true");
        }
        store.schemas()
                .createTable(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT()),
                                new DataField(1, "a", DataTypes.STRING()),
                                new DataField(2, "b", DataTypes.INT()),
                                new DataField(3, "dt", DataTypes.STRING())),
                        List.of("dt"),
                        List.of(),
                        options,
                        null);
    }

    /** Appends {@code rows} rows to partition {@code dt} as one file (one new group). */
    Snapshot append(String dt, int rows) {
        StagedRows staged = stageAppend(dt, rows);
        Snapshot s = commit(CommitRequest.append(USER, ++identifier, staged.files()));
        addToModel(s, staged);
        return s;
    }

    /** New rows written to files of partition {@code dt} but not committed. */
    record StagedRows(List<ManifestEntry> files, List<List<Object>> values) {}

    StagedRows stageAppend(String dt, int rows) {
        TableSchema schema = store.latestSchema();
        List<List<Object>> values = new ArrayList<>();
        try (DataFileWriter writer =
                DataFileWriter.forAppend(store.paths(), schema, GenericRowData.of(str(dt)))) {
            for (int r = 0; r < rows; r++) {
                long id = nextId++;
                List<Object> row = new ArrayList<>();
                for (DataField field : schema.fields()) {
                    row.add(initialValue(field.name(), id, dt));
                }
                values.add(row);
                writer.write(flinkRow(row));
            }
            return new StagedRows(writer.finish(), values);
        }
    }

    /** Puts {@code staged} rows into the model at the row ids {@code committed} gave them. */
    void addToModel(Snapshot committed, StagedRows staged) {
        long first =
                delta(committed).stream()
                        .filter(e -> staged.files().stream().anyMatch(f -> sameFile(f, e)))
                        .mapToLong(e -> e.file().firstRowId())
                        .min()
                        .orElseThrow();
        for (int r = 0; r < staged.values().size(); r++) {
            model.put(first + r, staged.values().get(r));
        }
    }

    private static boolean sameFile(ManifestEntry a, ManifestEntry b) {
        return a.file().fileName().equals(b.file().fileName());
    }

    /**
     * Sets {@code columns} of the given rows (row id to new values, in column order) through the
     * updater on the latest snapshot, and in the model.
     */
    Snapshot update(List<String> columns, Map<Long, Object[]> newValues) {
        Snapshot committed =
                ColumnUpdater.on(store, latest(), columns)
                        .commit(USER, ++identifier, updates(newValues).iterator())
                        .orElseThrow();
        updateModel(columns, newValues);
        return committed;
    }

    /** Sets {@code columns} of the given rows in the model only. */
    void updateModel(List<String> columns, Map<Long, Object[]> newValues) {
        List<String> names = store.latestSchema().fieldNames();
        newValues.forEach(
                (rowId, values) -> {
                    for (int c = 0; c < columns.size(); c++) {
                        model.get(rowId).set(names.indexOf(columns.get(c)), values[c]);
                    }
                });
    }

    /** Row updates in ascending row-id order. */
    static List<RowUpdate> updates(Map<Long, Object[]> newValues) {
        List<RowUpdate> out = new ArrayList<>();
        new TreeMap<>(newValues)
                .forEach((rowId, v) -> out.add(new RowUpdate(rowId, flinkRow(Arrays.asList(v)))));
        return out;
    }

    /** Deletes rows through the anchors' deletion vectors (and from the model). */
    void delete(Long... rowIds) {
        Snapshot base = latest();
        List<Long> ids = List.of(rowIds);
        commit(
                CommitRequest.delete(
                        USER,
                        ++identifier,
                        base.id(),
                        new DeletionVectorWriter(store).deleteRows(base, ids)));
        ids.forEach(model::remove);
    }

    void alter(SchemaChange... changes) {
        store.schemas().commitChanges(changes);
    }

    /** The model after a schema change: a renamed column keeps its values, a new one is NULL. */
    void addModelColumn() {
        model.values().forEach(row -> row.add(null));
    }

    Snapshot latest() {
        return store.latestSnapshot().orElseThrow();
    }

    List<ManifestEntry> delta(Snapshot snapshot) {
        return store.files(snapshot).deltaEntries();
    }

    /** Every row of the latest snapshot through the read path: row id to values. */
    Map<Long, List<Object>> read() {
        TableSchema schema = store.latestSchema();
        List<String> names = new ArrayList<>(schema.fieldNames());
        names.add("_ROW_ID");
        ReadPlan plan =
                new ReadPlanner(store)
                        .planLatest(
                                ReadRequest.allColumns(schema)
                                        .withColumns(names.toArray(String[]::new)));
        RowType type = plan.rowType();
        Map<Long, List<Object>> rows = new TreeMap<>();
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan, split)) {
                for (ReadBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                    for (int i = 0; i < b.size(); i++) {
                        RowData row = b.row(i);
                        List<Object> values = new ArrayList<>();
                        for (int f = 0; f < names.size() - 1; f++) {
                            LogicalType t = type.getTypeAt(f);
                            Object v = RowData.createFieldGetter(t, f).getFieldOrNull(row);
                            values.add(v instanceof StringData ? v.toString() : v);
                        }
                        rows.put(row.getLong(names.size() - 1), values);
                    }
                }
            }
        }
        return rows;
    }

    /** Names of the data files in partition {@code dt}. */
    TreeSet<String> dataFiles(String dt) {
        String[] names = new File(dir.toFile(), "dt=" + dt + "/bucket-0").list();
        return new TreeSet<>(Arrays.asList(names == null ? new String[0] : names));
    }

    private Snapshot commit(CommitRequest request) {
        return new TableCommit(store).commit(request);
    }

    private static Object initialValue(String column, long id, String dt) {
        switch (column) {
            case "id":
                return id;
            case "a":
                return "a" + id;
            case "b":
                return (int) id * 10;
            case "dt":
                return dt;
            default:
                return null;
        }
    }

    static GenericRowData flinkRow(List<Object> values) {
        GenericRowData row = new GenericRowData(values.size());
        for (int i = 0; i < values.size(); i++) {
            Object v = values.get(i);
            row.setField(i, v instanceof String s ? str(s) : v);
        }
        return row;
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
