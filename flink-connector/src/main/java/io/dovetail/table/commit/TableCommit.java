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

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitHook.Step;
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.index.IndexManifestFile;
import io.dovetail.table.manifest.AvroCodec;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.manifest.ManifestFileWriter;
import io.dovetail.table.manifest.ManifestListWriter;
import io.dovetail.table.manifest.WrittenFile;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Commits one {@link CommitRequest} as one new snapshot, optimistically (data-evolution semantics
 * §7.1):
 *
 * <ol>
 *   <li>read the latest snapshot L (N = L + 1) and stop if the request is already in the table;
 *       load the live files the operation's checks look at, and only those ({@link CommitScope},
 *       {@link SnapshotHistory}; an append of new rows loads none);
 *   <li>check the operation against L and the snapshots since its base (C1–C9, see {@link
 *       LayoutCheck}, {@link FieldConflictCheck}, {@link IndexComposition}): a real conflict fails
 *       with an error naming rows and fields and is not retried. A column update whose staged
 *       partial-column files lost their exact range only because compactions since its base merged
 *       ranges is rebased onto the live ranges first ({@link RebasePlanner}, {@link
 *       PartialFileRebaser}), against this L;
 *   <li>assign sequence numbers and row ids from L's {@code nextRowId};
 *   <li>write the index manifest (only if index files change, else L's is reused), the delta
 *       manifests, the base list (L's manifests by reference, small ones merged as Paimon merges
 *       them, {@link ManifestMerge}) and the delta list;
 *   <li>publish snapshot-N create-if-absent. If another writer took N, delete this attempt's files
 *       and retry from 1 after a randomized back-off (the checks run again against the new L).
 * </ol>
 *
 * Nothing references an attempt's files before its snapshot is published, so a failure at any step
 * leaves the table as it was; a failure whose outcome is unknown is resolved by looking for the
 * attempt's snapshot. One instance may be shared by threads; it caches what it has read of the
 * table's history.
 */
public final class TableCommit {

    public static final int DEFAULT_MAX_RETRIES = 10;
    public static final int DEFAULT_MANIFEST_MERGE_MIN_COUNT = 30;
    private static final long MIN_RETRY_WAIT_MS = 10;
    private static final long MAX_RETRY_WAIT_MS = 10_000;

    private final TableStore store;
    private final TablePaths paths;
    private final CommitHook hook;
    private final SnapshotHistory history;
    private final FileFieldIds fileFields;
    private final FieldConflictCheck fieldCheck;
    private final PartialFileRebaser rebaser;

    public TableCommit(TableStore store) {
        this(store, CommitHook.NONE);
    }

    TableCommit(TableStore store, CommitHook hook) {
        this.store = store;
        this.paths = store.paths();
        this.hook = hook;
        this.history = new SnapshotHistory(store);
        this.fileFields = new FileFieldIds(store.schemas());
        this.fieldCheck = new FieldConflictCheck(fileFields);
        this.rebaser = new PartialFileRebaser(store);
    }

    /**
     * Commits {@code request}; returns the snapshot that holds it (an earlier one if the request
     * was already committed).
     */
    public Snapshot commit(CommitRequest request) {
        int maxRetries = maxRetries(store.latestSchema());
        long checkedUpTo = 0;
        for (int attempt = 0; ; attempt++) {
            Optional<Snapshot> latest = store.latestSnapshot();
            Optional<Snapshot> existing =
                    findCommitted(
                            request.commitUser(),
                            request.commitIdentifier(),
                            request.kind(),
                            latest,
                            checkedUpTo);
            if (existing.isPresent()) {
                return existing.get();
            }
            checkedUpTo = latest.map(Snapshot::id).orElse(0L);
            Optional<Snapshot> committed = tryCommitOnce(request, latest);
            if (committed.isPresent()) {
                return committed.get();
            }
            if (attempt >= maxRetries) {
                throw Errors.conflict(
                        "Commit of "
                                + request.kind()
                                + " by '"
                                + request.commitUser()
                                + "' lost the race for a new snapshot "
                                + (attempt + 1)
                                + " times in a row on "
                                + paths.root()
                                + "; the table is unchanged. Retry later or raise '"
                                + TableOptions.COMMIT_MAX_RETRIES
                                + "'.");
            }
            backOff(attempt);
        }
    }

    private Optional<Snapshot> tryCommitOnce(CommitRequest request, Optional<Snapshot> latest) {
        hook.reached(Step.STARTED);
        TableSchema schema = store.latestSchema();
        TableState state = history.stateAt(latest, CommitScope.of(request.operation()));
        long id = state.snapshotId() + 1;
        List<Path> written = new ArrayList<>();
        Snapshot snapshot = null;
        try {
            CommitOperation operation = checkedAndRebased(request.operation(), state, written);
            if (operation != request.operation()) {
                // rebased files claim the merged ranges: load the files those overlap too (same L)
                state = history.stateAt(latest, CommitScope.of(operation));
            }
            LayoutCheck.checkClaimedRanges(
                    state, operation.dataChanges(), operation instanceof CommitOperation.Compact);
            RowTrackingAssigner.Result assigned =
                    RowTrackingAssigner.assign(operation.dataChanges(), id, state.nextRowId());
            checkRowIdsAssigned(assigned.entries());
            Collection<ManifestEntry> liveAfter = state.liveFilesAfter(assigned.entries());
            if (needsLayoutCheck(operation)) {
                LayoutCheck.checkMergedLayout(state.snapshotId(), liveAfter);
            }
            Set<String> droppedIndexes =
                    GlobalIndexUpdate.dropped(operation, state.indexFiles(), schema, fileFields);
            IndexComposition.Result index =
                    IndexComposition.compose(
                            state,
                            operation,
                            liveAfter,
                            droppedIndexes,
                            GlobalIndexUpdate.added(operation),
                            paths.indexDir());
            written.addAll(index.written());
            hook.reached(Step.CHECKED);
            String indexManifest = state.indexManifest();
            if (index.changed()) {
                WrittenFile file =
                        new IndexManifestFile(paths.manifestDir(), AvroCodec.DEFAULT)
                                .write(index.indexFiles());
                written.add(paths.manifestFile(file.fileName()));
                indexManifest = file.fileName();
            }
            hook.reached(Step.INDEX_MANIFEST_WRITTEN);
            List<ManifestFileMeta> delta =
                    manifestWriter(paths, partitionTypes(schema), schema.options())
                            .write(assigned.entries());
            delta.forEach(m -> written.add(paths.manifestFile(m.fileName())));
            hook.reached(Step.MANIFESTS_WRITTEN);
            ManifestListWriter lists = new ManifestListWriter(paths.manifestDir());
            List<ManifestFileMeta> base =
                    state.snapshot() == null
                            ? List.of()
                            : new ManifestMerge(paths, partitionTypes(schema), schema.options())
                                    .merge(store.files(state.snapshot()).dataManifests(), written);
            WrittenFile baseList = lists.write(base);
            written.add(paths.manifestFile(baseList.fileName()));
            WrittenFile deltaList = lists.write(delta);
            written.add(paths.manifestFile(deltaList.fileName()));
            hook.reached(Step.MANIFEST_LISTS_WRITTEN);

            long deltaRecords = deltaRecordCount(assigned.entries());
            long previousTotal = state.snapshot() == null ? 0 : state.snapshot().totalRecordCount();
            snapshot =
                    Snapshot.builder()
                            .id(id)
                            .schemaId(schema.id())
                            .baseManifestList(baseList.fileName())
                            .baseManifestListSize(baseList.fileSize())
                            .deltaManifestList(deltaList.fileName())
                            .deltaManifestListSize(deltaList.fileSize())
                            .indexManifest(indexManifest)
                            .commitUser(request.commitUser())
                            .commitIdentifier(request.commitIdentifier())
                            .commitKind(request.kind())
                            .timeMillis(System.currentTimeMillis())
                            .totalRecordCount(previousTotal + deltaRecords)
                            .deltaRecordCount(deltaRecords)
                            .nextRowId(assigned.nextRowId())
                            .build();
            hook.reached(Step.SNAPSHOT_PUBLISHING);
            if (store.snapshots().tryCommit(snapshot, TableOptions.writers(schema.options()))) {
                hook.reached(Step.SNAPSHOT_PUBLISHED);
                deleteReplacedStagedFiles(request.operation(), operation, snapshot);
                return Optional.of(snapshot);
            }
        } catch (RuntimeException e) {
            if (snapshot != null && landed(snapshot, e)) {
                return Optional.of(snapshot); // the failure came after the snapshot was published
            }
            written.forEach(FileIO::deleteQuietly);
            throw e;
        }
        written.forEach(FileIO::deleteQuietly);
        return Optional.empty();
    }

    /** A writer of manifests rolling at the table's {@code manifest.target-file-size}. */
    static ManifestFileWriter manifestWriter(
            TablePaths paths, List<LogicalType> partitionTypes, Map<String, String> options) {
        return new ManifestFileWriter(
                paths.manifestDir(),
                partitionTypes,
                AvroCodec.DEFAULT,
                ManifestMerge.targetFileSize(options));
    }

    /**
     * Runs the checks that come before the ranges are checked (C5/C6, then C1 and C7, see {@link
     * #tryCommitOnce}) and returns the operation to commit: a column update's staged files checked
     * for field conflicts (C9), then rebased if compaction moved their ranges (files written go to
     * {@code written}).
     */
    private CommitOperation checkedAndRebased(
            CommitOperation operation, TableState state, List<Path> written) {
        LayoutCheck.checkDeletes(state, operation.dataChanges());
        if (operation instanceof CommitOperation.ColumnUpdate update) {
            operation = checkedAndRebased(update, state, written);
        } else if (operation instanceof CommitOperation.Merge merge) {
            base(merge.baseSnapshotId(), state);
            CommitOperation.ColumnUpdate update = merge.columnUpdate();
            if (update != null) {
                CommitOperation.ColumnUpdate rebased = checkedAndRebased(update, state, written);
                if (rebased != update) {
                    operation =
                            new CommitOperation.Merge(
                                    merge.baseSnapshotId(),
                                    rebased.files(),
                                    merge.newFiles(),
                                    merge.deletionVectors());
                }
            }
        } else if (operation instanceof CommitOperation.Delete delete) {
            base(delete.baseSnapshotId(), state);
        } else if (operation instanceof CommitOperation.Materialize materialize) {
            Snapshot base = base(materialize.baseSnapshotId(), state);
            MaterializeConflictCheck.check(materialize, historySince(base, state));
        } else if (operation instanceof CommitOperation.GlobalIndexes indexes) {
            Snapshot base = base(indexes.baseSnapshotId(), state);
            GlobalIndexUpdate.checkBuilt(indexes, historySince(base, state), fileFields);
        }
        return operation;
    }

    /**
     * A column update's staged files checked for field conflicts (C9) against the snapshots since
     * its base, then rebased if compactions moved their ranges (files written go to {@code
     * written}); the update itself when no rebase was needed.
     */
    private CommitOperation.ColumnUpdate checkedAndRebased(
            CommitOperation.ColumnUpdate update, TableState state, List<Path> written) {
        Snapshot base = base(update.baseSnapshotId(), state);
        List<Map.Entry<Snapshot, List<ManifestEntry>>> since = historySince(base, state);
        fieldCheck.check(base, update.files(), since);
        CommitOperation.ColumnUpdate rebased = rebaser.rebase(update, state, since, written);
        if (rebased != update) {
            hook.reached(Step.STAGED_FILES_REBASED);
        }
        return rebased;
    }

    private static boolean needsLayoutCheck(CommitOperation operation) {
        return operation.dataChanges().stream()
                .anyMatch(e -> e.kind() == FileKind.DELETE || e.file().firstRowId() != null);
    }

    /** The base snapshot an operation was planned on; it must exist and not be after L. */
    private Snapshot base(long baseId, TableState state) {
        if (baseId < 1 || baseId > state.snapshotId()) {
            throw Errors.invalidArgument(
                    "Base snapshot "
                            + baseId
                            + " of the operation does not exist: the latest snapshot is "
                            + state.snapshotId()
                            + ".");
        }
        return history.read(baseId)
                .orElseThrow(
                        () ->
                                Errors.conflict(
                                        "Base snapshot "
                                                + baseId
                                                + " has expired, so the commits since it cannot"
                                                + " be checked for conflicts; the table is"
                                                + " unchanged. Plan the operation again."));
    }

    /** The snapshots (base, L] with their delta entries, in order. */
    private List<Map.Entry<Snapshot, List<ManifestEntry>>> historySince(
            Snapshot base, TableState state) {
        List<Map.Entry<Snapshot, List<ManifestEntry>>> snapshots = new ArrayList<>();
        for (long id = base.id() + 1; id <= state.snapshotId(); id++) {
            Snapshot snapshot =
                    id == state.snapshotId()
                            ? state.snapshot()
                            : history.read(id)
                                    .orElseThrow(
                                            () ->
                                                    Errors.conflict(
                                                            "A snapshot after the base snapshot "
                                                                    + base.id()
                                                                    + " has expired; the table is"
                                                                    + " unchanged. Plan the"
                                                                    + " operation again."));
            snapshots.add(
                    new AbstractMap.SimpleImmutableEntry<>(snapshot, history.delta(snapshot)));
        }
        return snapshots;
    }

    /**
     * Deletes the staged partial files a rebase replaced: no snapshot references them, and a replay
     * of the same commit finds it committed and reads nothing.
     */
    private void deleteReplacedStagedFiles(
            CommitOperation requested, CommitOperation committed, Snapshot snapshot) {
        List<ManifestEntry> staged;
        if (requested instanceof CommitOperation.ColumnUpdate update) {
            staged = update.files();
        } else if (requested instanceof CommitOperation.Merge merge) {
            staged = merge.partialFiles();
        } else {
            return;
        }
        if (requested == committed) {
            return;
        }
        SnapshotFiles files = store.files(snapshot);
        for (ManifestEntry entry : staged) {
            if (!committed.dataChanges().contains(entry)) {
                FileIO.deleteQuietly(files.dataFilePath(entry));
            }
        }
    }

    /**
     * Whether {@code snapshot} was published even though its attempt failed with {@code failure};
     * its delta manifest list name is unique to the attempt. If that cannot be told, the failure is
     * rethrown with the attempt's files kept (they may be referenced).
     */
    private boolean landed(Snapshot snapshot, RuntimeException failure) {
        try {
            return history.read(snapshot.id())
                    .map(s -> s.deltaManifestList().equals(snapshot.deltaManifestList()))
                    .orElse(false);
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
            throw failure;
        }
    }

    /**
     * The snapshot holding the commit of {@code commitUser} with {@code commitIdentifier} and
     * {@code kind}, if the table has it: an operation retried after an unknown outcome asks before
     * doing its work again.
     */
    public Optional<Snapshot> committed(String commitUser, long commitIdentifier, CommitKind kind) {
        return findCommitted(commitUser, commitIdentifier, kind, store.latestSnapshot(), 0);
    }

    /**
     * Looks for a snapshot newer than {@code checkedUpTo} holding the commit, newest first,
     * stopping at the committer's previous identifier (identifiers increase per user).
     */
    private Optional<Snapshot> findCommitted(
            String commitUser,
            long commitIdentifier,
            CommitKind kind,
            Optional<Snapshot> latest,
            long checkedUpTo) {
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        long earliest = store.snapshots().earliestId().orElse(1L);
        for (long id = latest.get().id(); id > Math.max(checkedUpTo, earliest - 1); id--) {
            Snapshot s = id == latest.get().id() ? latest.get() : store.snapshots().snapshot(id);
            if (!s.commitUser().equals(commitUser)) {
                continue;
            }
            if (s.commitIdentifier() == commitIdentifier && s.commitKind() == kind) {
                return Optional.of(s);
            }
            if (s.commitIdentifier() < commitIdentifier) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static void checkRowIdsAssigned(List<ManifestEntry> entries) {
        for (ManifestEntry entry : entries) {
            if (entry.kind() == FileKind.ADD && entry.file().firstRowId() == null) {
                throw Errors.invalidArgument(
                        "File "
                                + entry.file().fileName()
                                + " has no first row id and is not a new appended file; every"
                                + " data file of a data-evolution table needs a row-id range.");
            }
        }
    }

    private static long deltaRecordCount(List<ManifestEntry> entries) {
        long count = 0;
        for (ManifestEntry entry : entries) {
            long rows = entry.file().rowCount();
            count += entry.kind() == FileKind.ADD ? rows : -rows;
        }
        return count;
    }

    private static List<LogicalType> partitionTypes(TableSchema schema) {
        return schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList();
    }

    private static int maxRetries(TableSchema schema) {
        return TableOptions.intValue(
                schema.options(), TableOptions.COMMIT_MAX_RETRIES, DEFAULT_MAX_RETRIES, 0);
    }

    private static void backOff(int attempt) {
        long cap = Math.min(MAX_RETRY_WAIT_MS, MIN_RETRY_WAIT_MS << Math.min(attempt, 20));
        long wait = ThreadLocalRandom.current().nextLong(MIN_RETRY_WAIT_MS, cap + 1);
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Errors.conflict(
                    "Commit interrupted while waiting to retry; the table is unchanged.");
        }
    }
}
