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
package io.dovetail.flink.table;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.maintenance.DeletionVectorMaterialization;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Commits to a table of {@code (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)} through the
 * core API, one snapshot each, as user "test": appends of rows {@code (id, 'name-<id>', dt)},
 * updates of {@code name}, deletes by deletion vector, a compaction, a materialization of the
 * deletion vectors and an overwrite of a partition.
 */
final class TableChanges {

    private final TableStore store;

    TableChanges(TableStore store) {
        this.store = store;
    }

    /** Rows {@code first .. first + count - 1} of partition {@code dt}, in one new file. */
    void append(String dt, long first, int count) {
        new TableCommit(store)
                .commit(CommitRequest.append("test", nextIdentifier(), write(dt, first, count)));
    }

    /** Sets the name of the rows {@code rowIds} to {@code names}. */
    void update(long[] rowIds, String... names) {
        Map<Long, String> updates = new TreeMap<>();
        for (int i = 0; i < rowIds.length; i++) {
            updates.put(rowIds[i], names[i]);
        }
        update(updates);
    }

    /** Sets the names of rows, by row id. */
    void update(Map<Long, String> names) {
        List<RowUpdate> updates = new ArrayList<>();
        new TreeMap<>(names)
                .forEach(
                        (rowId, name) ->
                                updates.add(new RowUpdate(rowId, GenericRowData.of(str(name)))));
        ColumnUpdater.on(store, latest(), List.of("name"))
                .commit("test", nextIdentifier(), updates.iterator())
                .orElseThrow();
    }

    void delete(List<Long> rowIds) {
        Snapshot base = latest();
        new TableCommit(store)
                .commit(
                        CommitRequest.delete(
                                "test",
                                nextIdentifier(),
                                base.id(),
                                new DeletionVectorWriter(store).deleteRows(base, rowIds)));
    }

    /** Merges the small files of every partition, two or more per new file. */
    void compact() {
        new DataEvolutionCompaction(store)
                .compact(
                        "test",
                        nextIdentifier(),
                        partition -> true,
                        CompactionConfig.fromOptions(store.latestSchema().options())
                                .withMinFileNum(2)
                                .withRewrite(CompactionConfig.Rewrite.FULL));
    }

    /** Rewrites every group with deleted rows without them: the survivors get new row ids. */
    void materialize() {
        DeletionVectorMaterialization materialization = new DeletionVectorMaterialization(store);
        DeletionVectorMaterialization.Plan plan =
                materialization.plan(partition -> true).orElseThrow();
        DeletionVectorMaterialization.Rewriter rewriter = materialization.rewriter(plan);
        materialization.commit(
                "test",
                nextIdentifier(),
                plan,
                plan.groups().stream().map(rewriter::rewrite).toList());
    }

    /** Replaces every live file of partition {@code dt} by new rows. */
    void overwrite(String dt, long first, int count) {
        List<ManifestEntry> removed =
                store.files(latest()).liveFiles().stream()
                        .filter(
                                e ->
                                        store.files(latest())
                                                .dataFilePath(e)
                                                .toString()
                                                .contains("dt=" + dt))
                        .toList();
        new TableCommit(store)
                .commit(
                        CommitRequest.overwrite(
                                "test", nextIdentifier(), removed, write(dt, first, count)));
    }

    private List<ManifestEntry> write(String dt, long first, int count) {
        try (DataFileWriter writer =
                DataFileWriter.forAppend(
                        store.paths(), store.latestSchema(), GenericRowData.of(str(dt)))) {
            for (long id = first; id < first + count; id++) {
                writer.write(GenericRowData.of(id, str("name-" + id), str(dt)));
            }
            return writer.finish();
        }
    }

    long nextIdentifier() {
        return store.latestSnapshot().map(Snapshot::id).orElse(0L) + 1;
    }

    Snapshot latest() {
        return store.latestSnapshot().orElseThrow();
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
