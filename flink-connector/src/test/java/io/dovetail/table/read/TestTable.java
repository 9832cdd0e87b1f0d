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
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.RenderedReads;
import io.dovetail.table.types.DataField;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** A data-evolution table in a temp directory, written with DataFileWriter and TableCommit. */
final class TestTable {

    private final TableStore store;
    private long commitId;

    TestTable(java.nio.file.Path dir, List<DataField> fields, List<String> partitionKeys) {
        this(dir, fields, partitionKeys, Map.of());
    }

    /** A table with {@code options} besides row tracking and data evolution. */
    TestTable(
            java.nio.file.Path dir,
            List<DataField> fields,
            List<String> partitionKeys,
            Map<String, String> options) {
        store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        Map<String, String> all = new HashMap<>(options);
        all.put("row-tracking.enabled", "true");
        all.put("data-evolution.enabled", "true");
        store.schemas().createTable(fields, partitionKeys, List.of(), all, null);
    }

    TableStore store() {
        return store;
    }

    TableSchema schema() {
        return store.latestSchema();
    }

    /** Appends rows (all columns of the latest schema) as one file of {@code partition}. */
    List<ManifestEntry> append(RowData partition, List<GenericRowData> rows) {
        List<ManifestEntry> files;
        try (DataFileWriter writer = DataFileWriter.forAppend(store.paths(), schema(), partition)) {
            rows.forEach(writer::write);
            files = writer.finish();
        }
        return commit(CommitRequest.append("test", ++commitId, files));
    }

    /** Writes {@code columns} of every row of the range starting at {@code firstRowId}. */
    List<ManifestEntry> update(
            RowData partition, long firstRowId, List<String> columns, List<GenericRowData> rows) {
        List<ManifestEntry> files;
        try (DataFileWriter writer =
                DataFileWriter.forPartialColumns(store.paths(), schema(), columns, partition)) {
            rows.forEach(writer::write);
            files = writer.finish();
        }
        long base = store.latestSnapshot().orElseThrow().id();
        return commit(
                CommitRequest.columnUpdate(
                        "test", ++commitId, base, withMeta(files, b -> b.firstRowId(firstRowId))));
    }

    /** Deletes positions of anchors (by file name) through deletion vectors, committed. */
    void delete(Map<String, long[]> positionsByAnchor) {
        Snapshot base = store.latestSnapshot().orElseThrow();
        IndexChanges changes = new DeletionVectorWriter(store).write(base, positionsByAnchor);
        new TableCommit(store).commit(CommitRequest.delete("test", ++commitId, base.id(), changes));
    }

    static List<ManifestEntry> withMeta(
            List<ManifestEntry> files,
            UnaryOperator<io.dovetail.table.manifest.DataFileMeta.Builder> change) {
        List<ManifestEntry> out = new ArrayList<>();
        for (ManifestEntry e : files) {
            out.add(
                    new ManifestEntry(
                            e.kind(),
                            e.partition(),
                            e.bucket(),
                            e.totalBuckets(),
                            change.apply(e.file().toBuilder()).build()));
        }
        return out;
    }

    private List<ManifestEntry> commit(CommitRequest request) {
        Snapshot s = new TableCommit(store).commit(request);
        return store.files(s).deltaEntries();
    }

    void alter(SchemaChange... changes) {
        store.schemas().commitChanges(changes);
    }

    ReadRequest request() {
        return ReadRequest.allColumns(schema());
    }

    /** Every row of every split of the latest snapshot, rendered, sorted. */
    List<String> read(ReadRequest request) {
        ReadPlan plan = new ReadPlanner(store).planLatest(request);
        return RenderedReads.read(plan);
    }
}
