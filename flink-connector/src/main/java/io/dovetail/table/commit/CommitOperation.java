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
package io.dovetail.table.commit;

import io.dovetail.table.error.Errors;
import io.dovetail.table.index.GlobalIndexFiles;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.snapshot.CommitKind;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One typed table change, committed as one snapshot by {@link TableCommit}. Each operation says
 * which data-file entries and deletion-vector index files the snapshot records and what the commit
 * must check against the snapshots committed since the operation was planned.
 */
public sealed interface CommitOperation {

    /** The snapshot's commit kind. */
    CommitKind kind();

    /** The data-file entries (ADD and DELETE) of the snapshot's delta. */
    List<ManifestEntry> dataChanges();

    /** The deletion-vector index files the commit adds and removes. */
    default IndexChanges indexChanges() {
        return IndexChanges.NONE;
    }

    /**
     * New rows: every file gets fresh row ids at commit. Files for existing rows (a first row id
     * already set) are refused: they are a {@link ColumnUpdate}, which checks field conflicts.
     */
    record Append(List<ManifestEntry> files) implements CommitOperation {
        public Append {
            files = adds(files, "An append");
            for (ManifestEntry entry : files) {
                if (entry.file().firstRowId() != null) {
                    throw Errors.invalidArgument(
                            "Appended file "
                                    + entry.file().fileName()
                                    + " already has first row id "
                                    + entry.file().firstRowId()
                                    + "; files for existing rows are committed as a column"
                                    + " update.");
                }
            }
        }

        @Override
        public CommitKind kind() {
            return CommitKind.APPEND;
        }

        @Override
        public List<ManifestEntry> dataChanges() {
            return files;
        }
    }

    /**
     * Partial-column files for existing row ranges, planned on snapshot {@code baseSnapshotId}:
     * each normal file rewrites exactly one live normal range (first row id set by the writer), at
     * most one normal file per range.
     */
    record ColumnUpdate(long baseSnapshotId, List<ManifestEntry> files) implements CommitOperation {
        public ColumnUpdate {
            files = adds(files, "A column update");
            if (files.isEmpty()) {
                throw Errors.invalidArgument("A column update needs at least one file.");
            }
            Set<RowRange> normalRanges = new HashSet<>();
            for (ManifestEntry entry : files) {
                if (entry.file().firstRowId() == null
                        || entry.file().fileSource() != FileSource.APPEND) {
                    throw Errors.invalidArgument(
                            "Column-update file "
                                    + entry.file().fileName()
                                    + " must be an APPEND file with the first row id of the range"
                                    + " it rewrites.");
                }
                RowRange range = RowRange.of(entry.file());
                if (DataFileKinds.isNormal(entry.file().fileName()) && !normalRanges.add(range)) {
                    throw Errors.invalidArgument(
                            "A column update writes two normal files for rows "
                                    + range
                                    + "; write one file per range.");
                }
            }
        }

        @Override
        public CommitKind kind() {
            return CommitKind.APPEND;
        }

        @Override
        public List<ManifestEntry> dataChanges() {
            return files;
        }
    }

    /**
     * Row deletes as deletion-vector changes (see {@code io.dovetail.table.delete}), planned on
     * snapshot {@code baseSnapshotId}. Committed as OVERWRITE, Paimon's kind for index changes.
     */
    record Delete(long baseSnapshotId, IndexChanges deletionVectors) implements CommitOperation {
        @Override
        public CommitKind kind() {
            return CommitKind.OVERWRITE;
        }

        @Override
        public List<ManifestEntry> dataChanges() {
            return List.of();
        }

        @Override
        public IndexChanges indexChanges() {
            return deletionVectors;
        }
    }

    /**
     * A row-level merge planned on snapshot {@code baseSnapshotId}, committed atomically as one
     * snapshot: partial-column files for existing ranges (checked and rebased like a {@link
     * ColumnUpdate}), new rows (row ids assigned at commit, like an {@link Append}) and
     * deletion-vector changes (like a {@link Delete}). Committed as OVERWRITE when deletion vectors
     * change (Paimon's kind for index changes), else as APPEND.
     */
    record Merge(
            long baseSnapshotId,
            List<ManifestEntry> partialFiles,
            List<ManifestEntry> newFiles,
            IndexChanges deletionVectors)
            implements CommitOperation {
        public Merge {
            partialFiles =
                    partialFiles.isEmpty()
                            ? List.of()
                            : new ColumnUpdate(baseSnapshotId, partialFiles).files();
            newFiles = new Append(newFiles).files();
            if (partialFiles.isEmpty() && newFiles.isEmpty() && deletionVectors.isEmpty()) {
                throw Errors.invalidArgument("A merge needs at least one change.");
            }
        }

        /** The partial-column files as the column update they are part of; null if none. */
        ColumnUpdate columnUpdate() {
            return partialFiles.isEmpty() ? null : new ColumnUpdate(baseSnapshotId, partialFiles);
        }

        @Override
        public CommitKind kind() {
            return deletionVectors.isEmpty() ? CommitKind.APPEND : CommitKind.OVERWRITE;
        }

        @Override
        public List<ManifestEntry> dataChanges() {
            return concat(partialFiles, newFiles);
        }

        @Override
        public IndexChanges indexChanges() {
            return deletionVectors;
        }
    }

    /**
     * Removes live files (their deletion vectors go with them) and adds new files with fresh row
     * ids, e.g. INSERT OVERWRITE of a partition or a truncate.
     *
     * @param removed live entries (as listed by the snapshot) to remove
     */
    record Overwrite(List<ManifestEntry> removed, List<ManifestEntry> added)
            implements CommitOperation {
        public Overwrite {
            removed = List.copyOf(removed);
            added = newRows(added, "An overwrite");
        }

        @Override
        public CommitKind kind() {
            return CommitKind.OVERWRITE;
        }

        @Override
        public List<ManifestEntry> dataChanges() {
            return concat(deletes(removed), added);
        }
    }

    /**
     * Rewrites live files ({@code before}) into files that keep their row ids ({@code after}, first
     * row ids set), moving the deletion vectors of replaced anchors with {@code deletionVectors}.
     */
    record Compact(
            List<ManifestEntry> before, List<ManifestEntry> after, IndexChanges deletionVectors)
            implements CommitOperation {
        public Compact {
            before = List.copyOf(before);
            after = adds(after, "A compaction");
            if (before.isEmpty()) {
                throw Errors.invalidArgument("A compaction must replace at least one file.");
            }
            for (ManifestEntry entry : after) {
                if (entry.file().firstRowId() == null) {
                    throw Errors.invalidArgument(
                            "Compaction output "
                                    + entry.file().fileName()
                                    + " must keep the row ids of its inputs (first row id set).");
                }
            }
        }

        @Override
        public CommitKind kind() {
            return CommitKind.COMPACT;
        }

        @Override
        public List<ManifestEntry> dataChanges() {
            return concat(deletes(before), after);
        }

        @Override
        public IndexChanges indexChanges() {
            return deletionVectors;
        }
    }

    /**
     * Materialized deletion vectors (semantics §8.4), planned on snapshot {@code baseSnapshotId}:
     * removes the live files of groups with deletion vectors, adds the files holding their
     * surviving rows, which get new row ids at commit, and drops the removed anchors' vectors with
     * {@code deletionVectors}. Committed as COMPACT; a file added since the base for one of the
     * removed ranges fails the commit (C9, materialize variant), or its rows would be resurrected.
     */
    record Materialize(
            long baseSnapshotId,
            List<ManifestEntry> removed,
            List<ManifestEntry> added,
            IndexChanges deletionVectors)
            implements CommitOperation {
        public Materialize {
            removed = List.copyOf(removed);
            added = newRows(added, "A materialization");
            if (removed.isEmpty()) {
                throw Errors.invalidArgument("A materialization must replace at least one file.");
            }
        }

        @Override
        public CommitKind kind() {
            return CommitKind.COMPACT;
        }

        @Override
        public List<ManifestEntry> dataChanges() {
            return concat(deletes(removed), added);
        }

        @Override
        public IndexChanges indexChanges() {
            return deletionVectors;
        }
    }

    /**
     * Global index files built on snapshot {@code baseSnapshotId} ({@code create_global_index}) and
     * live ones dropped ({@code drop_global_index}); no data file changes. Committed as APPEND, as
     * Paimon commits index-only changes. A column update since the base that changed an indexed
     * column of a built file's rows fails the commit ({@link GlobalIndexUpdate}).
     */
    record GlobalIndexes(
            long baseSnapshotId, List<IndexManifestEntry> added, List<IndexManifestEntry> dropped)
            implements CommitOperation {
        public GlobalIndexes {
            added = List.copyOf(added);
            dropped = List.copyOf(dropped);
            if (added.isEmpty() && dropped.isEmpty()) {
                throw Errors.invalidArgument("A global index change needs at least one file.");
            }
            for (IndexManifestEntry entry : concat(added, dropped)) {
                if (entry.kind() != FileKind.ADD || !GlobalIndexFiles.isGlobalIndex(entry)) {
                    throw Errors.invalidArgument(
                            "Index file "
                                    + entry.indexFile().fileName()
                                    + " is not a live global index file entry.");
                }
            }
        }

        @Override
        public CommitKind kind() {
            return CommitKind.APPEND;
        }

        @Override
        public List<ManifestEntry> dataChanges() {
            return List.of();
        }
    }

    private static List<ManifestEntry> adds(List<ManifestEntry> files, String what) {
        for (ManifestEntry entry : files) {
            if (entry.kind() != FileKind.ADD) {
                throw Errors.invalidArgument(
                        what
                                + " only adds files; got a "
                                + entry.kind()
                                + " entry for "
                                + entry.file().fileName()
                                + ".");
            }
        }
        return List.copyOf(files);
    }

    /** {@link #adds} of files that get new row ids at commit (no first row id yet). */
    private static List<ManifestEntry> newRows(List<ManifestEntry> files, String what) {
        for (ManifestEntry entry : files) {
            if (entry.file().firstRowId() != null) {
                throw Errors.invalidArgument(
                        what
                                + " adds new rows only; file "
                                + entry.file().fileName()
                                + " already claims row ids from "
                                + entry.file().firstRowId()
                                + ".");
            }
        }
        return adds(files, what);
    }

    private static List<ManifestEntry> deletes(List<ManifestEntry> liveEntries) {
        List<ManifestEntry> deletes = new ArrayList<>(liveEntries.size());
        for (ManifestEntry entry : liveEntries) {
            deletes.add(
                    new ManifestEntry(
                            FileKind.DELETE,
                            entry.partition(),
                            entry.bucket(),
                            entry.totalBuckets(),
                            entry.file()));
        }
        return deletes;
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }
}
