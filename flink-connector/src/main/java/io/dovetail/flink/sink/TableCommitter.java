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
import io.dovetail.table.commit.IndexChanges;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.maintenance.ExpireConfig;
import io.dovetail.table.maintenance.SnapshotExpiry;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.PartitionPaths;
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
 * compactions); deleted row ids as deletion vectors written here, against the base snapshot. After
 * each commit the table's {@code snapshot.*} retention options are applied, as Paimon's writers do,
 * unless the table is {@code write-only}.
 *
 * <p>Commits are idempotent per (commit user, identifier): a replay after recovery finds its
 * snapshot and commits nothing again.
 */
final class TableCommitter {

    /** Paimon's option that leaves expiry (and compaction) to separate jobs. */
    static final String WRITE_ONLY = "write-only";

    private final TableStore store;
    private final TableCommit commit;
    private final String commitUser;
    @Nullable private final OverwriteScope overwrite;

    TableCommitter(TableStore store, String commitUser, @Nullable OverwriteScope overwrite) {
        this.store = store;
        this.commit = new TableCommit(store);
        this.commitUser = commitUser;
        this.overwrite = overwrite;
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
     * (no new files, and no overwrite that must remove rows). The committables of one job are of
     * one kind: new files, partial-column files or deleted rows.
     */
    Optional<Snapshot> commit(long identifier, List<Committable> committables) {
        if (committables.stream().anyMatch(c -> c instanceof Committable.ColumnFiles)) {
            return commitColumnFiles(identifier, committables);
        }
        if (committables.stream().anyMatch(c -> c instanceof Committable.DeletedRows)) {
            return commitDeletes(identifier, committables);
        }
        List<ManifestEntry> files = new ArrayList<>();
        for (Committable committable : committables) {
            files.addAll(((Committable.NewFiles) committable).files());
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

    private Optional<Snapshot> commitColumnFiles(long identifier, List<Committable> committables) {
        List<ManifestEntry> files = new ArrayList<>();
        long oldest = Long.MAX_VALUE;
        long newest = -1;
        for (Committable committable : committables) {
            Committable.ColumnFiles columnFiles = (Committable.ColumnFiles) committable;
            oldest = Math.min(oldest, columnFiles.baseSnapshotId());
            newest = Math.max(newest, columnFiles.baseSnapshotId());
            files.addAll(columnFiles.files());
        }
        if (files.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                commit.commit(
                        CommitRequest.columnUpdate(
                                commitUser, identifier, base(oldest, newest), files)));
    }

    /**
     * The base of a column update whose files were planned on snapshots {@code oldest..newest}
     * (streaming writers flush against the latest snapshot each). Snapshots in between committed by
     * this job's user hold other writers' groups only (a streaming writer flushes after its own
     * previous files are committed), so they cannot conflict with the older files: if they are all
     * there is, the newest base is checked from; any other commit in between is checked from the
     * oldest base.
     */
    private long base(long oldest, long newest) {
        for (long id = oldest + 1; id <= newest; id++) {
            if (!commitUser.equals(store.snapshots().snapshot(id).commitUser())) {
                return oldest;
            }
        }
        return newest;
    }

    private Optional<Snapshot> commitDeletes(long identifier, List<Committable> committables) {
        Roaring64NavigableMap rowIds = new Roaring64NavigableMap();
        long base = -1;
        for (Committable committable : committables) {
            Committable.DeletedRows deleted = (Committable.DeletedRows) committable;
            base = deleted.baseSnapshotId();
            rowIds.or(deleted.rowIds());
        }
        if (rowIds.isEmpty()) {
            return Optional.empty();
        }
        Optional<Snapshot> committed =
                store.snapshots().findCommit(base, commitUser, identifier, CommitKind.OVERWRITE);
        if (committed.isPresent()) {
            return committed; // a replay: do not write the deletion vectors again
        }
        Snapshot baseSnapshot = store.snapshots().snapshot(base);
        List<Long> ids = new ArrayList<>(rowIds.getIntCardinality());
        rowIds.forEach(ids::add);
        IndexChanges changes = new DeletionVectorWriter(store).deleteRows(baseSnapshot, ids);
        return Optional.of(
                commit.commit(CommitRequest.delete(commitUser, identifier, base, changes)));
    }

    /** Expires snapshots per the table's retention options (nothing if the table is write-only). */
    void expireSnapshots() {
        Map<String, String> options = store.latestSchema().options();
        if (Boolean.parseBoolean(options.getOrDefault(WRITE_ONLY, "false").trim())) {
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
        PartitionPaths paths = PartitionPaths.of(schema);
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
