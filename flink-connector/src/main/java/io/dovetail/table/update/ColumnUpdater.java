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
import io.dovetail.table.commit.GlobalIndexUpdate;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.index.GlobalIndexFiles;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Updates some columns of some rows of a data-evolution table, keyed by {@code _ROW_ID}, planned on
 * a pinned base snapshot (data-evolution semantics §6.2).
 *
 * <p>Updates stream through in ascending row-id order. Each row-range group they touch gets one
 * non-rolling partial-column file holding exactly the updated columns for every position of the
 * group ({@link GroupBackfill}); groups without an update are never opened. Files are written with
 * the current schema and committed as one column update on the base snapshot, so the commit fails
 * with a conflict if a concurrent commit changed the same columns of the same ranges. A row hidden
 * by a deletion vector may be given a value; it stays deleted.
 *
 * <p>Errors, raised before anything is committed (files already written are deleted): an unknown,
 * system or partition column; a column a global index covers in the partition of a touched group,
 * under {@code global-index.column-update-action = THROW_ERROR}; a row id that is in no live range
 * of the base snapshot (stale); a row id given twice or out of order; an update with the wrong
 * number of values.
 */
public final class ColumnUpdater {

    private final TableStore store;
    private final Snapshot base;
    private final List<String> columns;
    private final BaseGroups groups;
    private final GroupBackfill backfill;
    private final TableSchema schema;
    private final List<IndexManifestEntry> globalIndexes;
    private final Set<Integer> fieldIds = new HashSet<>();
    private final Set<ByteBuffer> indexCheckedPartitions = new HashSet<>();

    private ColumnUpdater(
            TableStore store, Snapshot base, TableSchema schema, List<String> columns) {
        this.store = store;
        this.base = base;
        this.schema = schema;
        this.columns = List.copyOf(columns);
        List<String> copied = VectorCopies.of(schema, columns);
        this.groups = BaseGroups.plan(store, base, schema, columns, copied);
        this.backfill =
                new GroupBackfill(
                        store.paths(),
                        schema,
                        store.schemas()::schema,
                        columns,
                        copied,
                        groups.readFields());
        this.globalIndexes =
                store.files(base).indexFiles().stream()
                        .filter(GlobalIndexFiles::isGlobalIndex)
                        .toList();
        columns.forEach(name -> fieldIds.add(schema.field(name).orElseThrow().id()));
    }

    /**
     * An updater of {@code columns} (named in the current schema; each {@link RowUpdate} holds
     * their values in this order) planned on {@code base}.
     */
    public static ColumnUpdater on(TableStore store, Snapshot base, List<String> columns) {
        TableSchema schema = store.latestSchema();
        checkColumns(schema, columns);
        return new ColumnUpdater(store, base, schema, columns);
    }

    /**
     * Writes one partial-column file per group touched by {@code updates} (ascending row ids) and
     * returns their ADD entries, in row-id order, without committing them. On failure nothing is
     * left behind.
     */
    public List<ManifestEntry> write(Iterator<RowUpdate> updates) {
        try (Writer writer = writer()) {
            while (updates.hasNext()) {
                RowUpdate update = updates.next();
                if (update == null) {
                    throw Errors.invalidArgument("The updates contain a null element.");
                }
                writer.add(update.rowId(), update.values());
            }
            return writer.finish();
        }
    }

    /**
     * A writer that takes the updates as they come, in ascending row-id order, and writes each
     * touched group's file as soon as the updates move past it: it holds one open file and one read
     * of the group's current values, never the updates themselves.
     */
    public Writer writer() {
        return new Writer();
    }

    /** Whether {@code rowId} is in a live group of the base snapshot (else it is stale). */
    public boolean isLive(long rowId) {
        return groups.find(rowId) != null;
    }

    /**
     * Whether a row id is in a live group of {@code base}, for a writer that updates no column (a
     * merge that only deletes the rows it matches): {@link #isLive} of a plan reading {@code
     * _ROW_ID} only.
     */
    public static LongPredicate liveRowIds(TableStore store, Snapshot base) {
        BaseGroups groups =
                BaseGroups.plan(store, base, store.latestSchema(), List.of(), List.of());
        return rowId -> groups.find(rowId) != null;
    }

    /**
     * Updates pushed in ascending row-id order ({@link ColumnUpdater#writer}). {@link #finish}
     * returns the files' ADD entries; closing an unfinished writer deletes every file it wrote.
     */
    public final class Writer implements AutoCloseable {

        private final List<ManifestEntry> written = new ArrayList<>();
        @Nullable private GroupBackfill.Rewrite current;
        private long lastRowId = Long.MIN_VALUE;
        private boolean finished;

        private Writer() {}

        /**
         * Writes {@code values} (of the updated columns, in their order) at {@code rowId}. A row id
         * at or below the previous one, in no live group of the base (stale), or values of the
         * wrong arity are errors.
         */
        public void add(long rowId, RowData values) {
            if (rowId == lastRowId) {
                throw Errors.duplicateUpdate(rowId);
            }
            if (rowId < lastRowId) {
                throw Errors.invalidArgument(
                        "Updates must come in ascending row-id order, but row id "
                                + rowId
                                + " follows "
                                + lastRowId
                                + "; sort them by _ROW_ID.");
            }
            if (values.getArity() != columns.size()) {
                throw Errors.invalidArgument(
                        "The update of row "
                                + rowId
                                + " has "
                                + values.getArity()
                                + " values, but "
                                + columns.size()
                                + " columns are updated.");
            }
            lastRowId = rowId;
            if (current == null || !current.group().range().contains(rowId)) {
                FileGroup group = groups.containing(rowId);
                finishGroup();
                checkGlobalIndexes(group.partition());
                current = backfill.open(group);
            }
            current.put(rowId, values);
        }

        /** Finishes the last group's file; returns every file written, in row-id order. */
        public List<ManifestEntry> finish() {
            finishGroup();
            finished = true;
            return List.copyOf(written);
        }

        private void finishGroup() {
            if (current != null) {
                GroupBackfill.Rewrite done = current;
                current = null;
                written.addAll(done.finish());
            }
        }

        @Override
        public void close() {
            if (!finished) {
                if (current != null) {
                    current.close();
                }
                delete(written);
            }
        }
    }

    /**
     * Writes the files of {@code updates} and commits them as one column update on the base
     * snapshot. Returns the new snapshot (or the earlier one that already holds this commit user
     * and identifier), or empty if there was no update. If the commit is refused (conflict, layout,
     * argument), the written files are deleted and the error is rethrown.
     */
    public Optional<Snapshot> commit(
            String commitUser, long commitIdentifier, Iterator<RowUpdate> updates) {
        List<ManifestEntry> files = write(updates);
        if (files.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    new TableCommit(store)
                            .commit(
                                    CommitRequest.columnUpdate(
                                            commitUser, commitIdentifier, base.id(), files)));
        } catch (DovetailException e) {
            if (e.kind() == DovetailException.Kind.CONFLICT
                    || e.kind() == DovetailException.Kind.REFUSED_BY_OPTION
                    || e.kind() == DovetailException.Kind.INVALID_LAYOUT
                    || e.kind() == DovetailException.Kind.INVALID_ARGUMENT
                    || e.kind() == DovetailException.Kind.NO_SUCH_SNAPSHOT) {
                delete(files);
            }
            throw e;
        }
    }

    /**
     * Refuses, before the group's file is written, an update that a global index of the base
     * snapshot covers in the group's partition (the commit checks again, on the latest snapshot).
     */
    private void checkGlobalIndexes(byte[] partition) {
        if (!globalIndexes.isEmpty() && indexCheckedPartitions.add(ByteBuffer.wrap(partition))) {
            GlobalIndexUpdate.checkWrite(schema, globalIndexes, fieldIds, partition);
        }
    }

    /** The error for an update of {@code rowId}, which is in no live range of {@code base}. */
    public static DovetailException staleRowId(Snapshot base, long rowId) {
        return BaseGroups.staleRowId(base, rowId);
    }

    private void delete(List<ManifestEntry> files) {
        SnapshotFiles paths = store.files(base);
        files.forEach(f -> FileIO.deleteQuietly(paths.dataFilePath(f)));
    }

    private static void checkColumns(TableSchema schema, List<String> columns) {
        if (columns.isEmpty()) {
            throw Errors.invalidArgument("Name at least one column to update.");
        }
        Set<String> seen = new HashSet<>();
        for (String name : columns) {
            if (!seen.add(name)) {
                throw Errors.invalidArgument(
                        "Column '" + name + "' is listed twice in the columns to update.");
            }
            if (SystemFields.isSystemName(name)) {
                throw Errors.invalidArgument(
                        "System column '" + name + "' cannot be updated; it is kept by the table.");
            }
            if (schema.field(name).isEmpty()) {
                throw Errors.invalidArgument(
                        "Cannot update column '"
                                + name
                                + "': schema "
                                + schema.id()
                                + " has only the columns "
                                + schema.fieldNames()
                                + ".");
            }
            if (schema.partitionKeys().contains(name)) {
                throw Errors.invalidArgument(
                        "Cannot update partition column '"
                                + name
                                + "': rows cannot move between partitions. Leave it out of the"
                                + " columns to update.");
            }
        }
    }
}
