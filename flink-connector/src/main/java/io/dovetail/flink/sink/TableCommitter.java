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
package io.dovetail.flink.sink;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.maintenance.ExpireConfig;
import io.dovetail.table.maintenance.SnapshotExpiry;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.RowData;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Commits what the writers of one job produced, one snapshot per checkpoint (or one for a whole
 * batch job), as one commit user: new files as an append, or as an overwrite of its {@link
 * OverwriteScope} (computed against the latest snapshot when the commit is made); partial-column
 * files as a column update of their base snapshot (conflict-checked, rebased onto concurrent
 * compactions); a stream's row-update files as a column update on the latest snapshot, merged row
 * by row where other commits overtook them ({@link RowUpdateCommit}); deletion vectors the writers
 * wrote as index files against the base snapshot; all of these together (a merge) as one snapshot.
 * After each commit the table's {@code snapshot.*} retention options are applied, as Paimon's
 * writers do, unless the table is {@code write-only}.
 *
 * <p>Commits are idempotent per (commit user, identifier): a replay after recovery finds its
 * snapshot and commits nothing again.
 */
final class TableCommitter {

    private final TableStore store;
    private final TableCommit commit;
    private final String commitUser;
    @Nullable private final OverwriteScope overwrite;
    private final RowUpdateCommit rowUpdates;

    TableCommitter(TableStore store, String commitUser, @Nullable OverwriteScope overwrite) {
        this.store = store;
        this.commit = new TableCommit(store);
        this.commitUser = commitUser;
        this.overwrite = overwrite;
        this.rowUpdates = new RowUpdateCommit(store, commit, commitUser);
    }

    String commitUser() {
        return commitUser;
    }

    /** The identifier of this user's newest commit still in the table, or -1. */
    long lastCommittedIdentifier() {
        return store.snapshots()
                .latestCommitOf(commitUser)
                .map(Snapshot::commitIdentifier)
                .orElse(-1L);
    }

    /**
     * Commits {@code committables} under {@code identifier}; empty when there was nothing to commit
     * (no new files, and no overwrite that must remove rows). New files alone are an append (or the
     * overwrite); with partial-column files or deleted rows of a base snapshot they are one
     * row-level commit of all of them.
     */
    Optional<Snapshot> commit(long identifier, List<Committable> committables) {
        List<Committable.RowUpdateFiles> updates = new ArrayList<>();
        for (Committable committable : committables) {
            if (committable instanceof Committable.RowUpdateFiles rows) {
                updates.add(rows);
            }
        }
        if (!updates.isEmpty()) { // a streaming column update's checkpoint: nothing else
            return Optional.of(rowUpdates.commit(identifier, updates));
        }
        List<ManifestEntry> files = new ArrayList<>();
        List<ManifestEntry> partialFiles = new ArrayList<>();
        Roaring64NavigableMap deleted = new Roaring64NavigableMap();
        List<IndexManifestEntry> vectorsAdded = new ArrayList<>();
        List<IndexManifestEntry> vectorsRemoved = new ArrayList<>();
        long oldest = Long.MAX_VALUE;
        long newest = -1;
        for (Committable committable : committables) {
            if (committable instanceof Committable.NewFiles newFiles) {
                files.addAll(newFiles.files());
            } else if (committable instanceof Committable.ColumnFiles columnFiles) {
                oldest = Math.min(oldest, columnFiles.baseSnapshotId());
                newest = Math.max(newest, columnFiles.baseSnapshotId());
                partialFiles.addAll(columnFiles.files());
            } else if (committable instanceof Committable.DeletedRows rows) {
                oldest = Math.min(oldest, rows.baseSnapshotId());
                newest = Math.max(newest, rows.baseSnapshotId());
                deleted.or(rows.rowIds());
            } else if (committable instanceof Committable.DeletionVectors vectors) {
                oldest = Math.min(oldest, vectors.baseSnapshotId());
                newest = Math.max(newest, vectors.baseSnapshotId());
                vectorsAdded.addAll(vectors.changes().added());
                vectorsRemoved.addAll(vectors.changes().removed());
            }
        }
        if (!vectorsAdded.isEmpty() || !vectorsRemoved.isEmpty()) { // written by the writers
            IndexChanges vectors = new IndexChanges(vectorsAdded, vectorsRemoved);
            long base = base(oldest, newest);
            return Optional.of(
                    commit.commit(
                            partialFiles.isEmpty() && files.isEmpty()
                                    ? CommitRequest.delete(commitUser, identifier, base, vectors)
                                    : CommitRequest.merge(
                                            commitUser,
                                            identifier,
                                            base,
                                            partialFiles,
                                            files,
                                            vectors)));
        }
        if (!partialFiles.isEmpty() || !deleted.isEmpty()) {
            return Optional.of(
                    commitRowLevel(identifier, base(oldest, newest), partialFiles, files, deleted));
        }
        if (overwrite == null) {
            return files.isEmpty()
                    ? Optional.empty()
                    : Optional.of(
                            commit.commit(CommitRequest.append(commitUser, identifier, files)));
        }
        Optional<Snapshot> latest = store.latestSnapshot();
        List<ManifestEntry> removed =
                latest.isEmpty()
                        ? List.of()
                        : replaced(store.files(latest.get()).liveFiles(), files);
        if (removed.isEmpty() && files.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                commit.commit(CommitRequest.overwrite(commitUser, identifier, removed, files)));
    }

    /**
     * Partial-column files, new files and deleted rows of base snapshot {@code base} as one
     * snapshot: a column update, a delete (deletion vectors written here, against the base), or a
     * merge of several of them.
     */
    private Snapshot commitRowLevel(
            long identifier,
            long base,
            List<ManifestEntry> partialFiles,
            List<ManifestEntry> newFiles,
            Roaring64NavigableMap deleted) {
        if (deleted.isEmpty() && newFiles.isEmpty()) {
            return commit.commit(
                    CommitRequest.columnUpdate(commitUser, identifier, base, partialFiles));
        }
        IndexChanges deletionVectors = IndexChanges.NONE;
        if (!deleted.isEmpty()) {
            Optional<Snapshot> committed =
                    store.snapshots()
                            .findCommit(base, commitUser, identifier, CommitKind.OVERWRITE);
            if (committed.isPresent()) {
                return committed.get(); // a replay: do not write the deletion vectors again
            }
            deletionVectors =
                    new DeletionVectorWriter(store)
                            .deleteRows(store.snapshots().snapshot(base), deleted);
        }
        if (partialFiles.isEmpty() && newFiles.isEmpty()) {
            return commit.commit(
                    CommitRequest.delete(commitUser, identifier, base, deletionVectors));
        }
        return commit.commit(
                CommitRequest.merge(
                        commitUser, identifier, base, partialFiles, newFiles, deletionVectors));
    }

    /**
     * The base of row-level changes planned on snapshots {@code oldest..newest} (one snapshot in a
     * batch job; streaming column-update writers flush against the latest snapshot each). Snapshots
     * in between committed by this job's user hold other writers' groups only (a streaming writer
     * flushes after its own previous files are committed), so they cannot conflict with the older
     * files: if they are all there is, the newest base is checked from; any other commit in between
     * is checked from the oldest base.
     */
    private long base(long oldest, long newest) {
        for (long id = oldest + 1; id <= newest; id++) {
            if (!commitUser.equals(store.snapshots().snapshot(id).commitUser())) {
                return oldest;
            }
        }
        return newest;
    }

    /** Expires snapshots per the table's retention options (nothing if the table is write-only). */
    void expireSnapshots() {
        Map<String, String> options = store.latestSchema().options();
        if (Boolean.parseBoolean(options.getOrDefault(TableOptions.WRITE_ONLY, "false").trim())) {
            return;
        }
        new SnapshotExpiry(store)
                .expire(ExpireConfig.fromOptions(options), System.currentTimeMillis());
    }

    /** The live entries the overwrite replaces, given the new files it adds. */
    private List<ManifestEntry> replaced(List<ManifestEntry> live, List<ManifestEntry> added) {
        TableSchema schema = store.latestSchema();
        if (schema.partitionKeys().isEmpty()) {
            return live;
        }
        Predicate<byte[]> inScope = inScope(schema, added);
        return live.stream().filter(e -> inScope.test(e.partition())).toList();
    }

    private Predicate<byte[]> inScope(TableSchema schema, List<ManifestEntry> added) {
        BinaryRowCodec codec =
                BinaryRowCodec.of(
                        schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList());
        PartitionPaths paths = schema.partitionPaths();
        Predicate<RowData> staticSpec = paths.matchingAny(List.of(overwrite.staticPartition()));
        Predicate<byte[]> matchesStatic = bytes -> staticSpec.test(codec.deserialize(bytes));
        boolean allStatic = overwrite.staticPartition().size() == schema.partitionKeys().size();
        if (!overwrite.dynamic() || allStatic) {
            return matchesStatic;
        }
        Set<String> written = new HashSet<>();
        for (ManifestEntry entry : added) {
            written.add(paths.path(codec.deserialize(entry.partition())));
        }
        return bytes -> written.contains(paths.path(codec.deserialize(bytes)));
    }
}
