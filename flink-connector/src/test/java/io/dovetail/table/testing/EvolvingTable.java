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
package io.dovetail.table.testing;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.delete.DeletionVectorAnchors;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.index.DeletionVectorIndexFile;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.TypeRoot;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A data-evolution table for maintenance tests, written through Dovetail's real write paths: {@code
 * id BIGINT, name STRING, score INT, dt STRING} partitioned by {@code dt} (or not, {@link
 * #unpartitioned}, where {@code dt} is a column like the others); appends, column updates (a null
 * value is an explicit NULL), deletes (deletion vectors, when enabled) and a type change of {@code
 * score} to BIGINT, each its own commit.
 */
public final class EvolvingTable {

    public static final String USER = "writer";

    public final TableStore store;
    private final java.nio.file.Path dir;
    private final boolean partitioned;
    private long identifier;

    public EvolvingTable(
            java.nio.file.Path dir, boolean deletionVectors, Map<String, String> options) {
        this(dir, deletionVectors, options, true);
    }

    /** The table without partitions. */
    public static EvolvingTable unpartitioned(
            java.nio.file.Path dir, boolean deletionVectors, Map<String, String> options) {
        return new EvolvingTable(dir, deletionVectors, options, false);
    }

    private EvolvingTable(
            java.nio.file.Path dir,
            boolean deletionVectors,
            Map<String, String> options,
            boolean partitioned) {
        this.dir = dir;
        this.partitioned = partitioned;
        this.store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        Map<String, String> all = new HashMap<>(options);
        all.put("row-tracking.enabled", "true");
        all.put("data-evolution.enabled", "true");
        if (deletionVectors) {
            all.put("deletion-vectors.enabled", "true");
        }
        store.schemas()
                .createTable(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT()),
                                new DataField(1, "name", DataTypes.STRING()),
                                new DataField(2, "score", DataTypes.INT()),
                                new DataField(3, "dt", DataTypes.STRING())),
                        partitioned ? List.of("dt") : List.of(),
                        List.of(),
                        all,
                        null);
    }

    /** Appends ids {@code first .. first + count - 1} to {@code dt} as one file. */
    public Snapshot append(String dt, long first, int count) {
        boolean bigint =
                store.latestSchema().field("score").orElseThrow().type().root() == TypeRoot.BIGINT;
        List<ManifestEntry> files;
        try (DataFileWriter writer =
                DataFileWriter.forAppend(
                        store.paths(),
                        store.latestSchema(),
                        partitioned ? GenericRowData.of(str(dt)) : new GenericRowData(0))) {
            for (long id = first; id < first + count; id++) {
                Object score = bigint ? (Object) (id * 10) : (Object) (int) (id * 10);
                writer.write(GenericRowData.of(id, str("name-" + id), score, str(dt)));
            }
            files = writer.finish();
        }
        return commit(CommitRequest.append(USER, ++identifier, files));
    }

    /**
     * Sets {@code column} of the given rows (row id to value: a String, Integer or Long, or null
     * for an explicit NULL) in one column update.
     */
    public Snapshot update(String column, Map<Long, Object> values) {
        List<RowUpdate> updates = new ArrayList<>();
        new TreeMap<>(values)
                .forEach(
                        (rowId, value) ->
                                updates.add(
                                        new RowUpdate(
                                                rowId,
                                                GenericRowData.of(
                                                        value instanceof String s
                                                                ? str(s)
                                                                : value))));
        return ColumnUpdater.on(store, latest(), List.of(column))
                .commit(USER, ++identifier, updates.iterator())
                .orElseThrow();
    }

    /** Deletes rows by row id (deletion vectors). */
    public Snapshot delete(long... rowIds) {
        Snapshot base = latest();
        List<Long> ids = Arrays.stream(rowIds).boxed().toList();
        return commit(
                CommitRequest.delete(
                        USER,
                        ++identifier,
                        base.id(),
                        new DeletionVectorWriter(store).deleteRows(base, ids)));
    }

    public void changeScoreToBigint() {
        store.schemas().commitChanges(SchemaChange.updateColumnType("score", DataTypes.BIGINT()));
    }

    public Snapshot commit(CommitRequest request) {
        return new TableCommit(store).commit(request);
    }

    public Snapshot latest() {
        return store.latestSnapshot().orElseThrow();
    }

    /**
     * The rendered, sorted rows of the latest snapshot for {@code columns} (system ones allowed).
     */
    public List<String> read(String... columns) {
        return read(ReadRequest.allColumns(store.latestSchema()).withColumns(columns));
    }

    public List<String> read(ReadRequest request) {
        return RenderedReads.read(new ReadPlanner(store).planLatest(request));
    }

    public List<ManifestEntry> live() {
        return store.files(latest()).liveFiles();
    }

    /** The live files of the range starting at {@code firstRowId}, oldest (anchor) first. */
    public List<ManifestEntry> liveAt(long firstRowId) {
        return live().stream()
                .filter(e -> e.file().firstRowId() == firstRowId)
                .sorted((a, b) -> DeletionVectorAnchors.ANCHOR_ORDER.compare(a.file(), b.file()))
                .toList();
    }

    /** Every live deletion vector of the latest snapshot, by data file name. */
    public Map<String, DeletionVector> vectors() {
        Map<String, DeletionVector> vectors = new TreeMap<>();
        for (IndexManifestEntry entry : store.files(latest()).indexFiles()) {
            vectors.putAll(
                    DeletionVectorIndexFile.readAll(store.paths().indexDir(), entry.indexFile()));
        }
        return vectors;
    }

    /** Names of the files in a table subdirectory (e.g. {@code dt=a/bucket-0}), sorted. */
    public TreeSet<String> filesIn(String subdirectory) {
        String[] names = new File(dir.toFile(), subdirectory).list();
        return new TreeSet<>(Arrays.asList(names == null ? new String[0] : names));
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
