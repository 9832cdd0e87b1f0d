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
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.LiveFileSet;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.manifest.ManifestFileWriter;
import io.dovetail.table.manifest.ManifestListWriter;
import io.dovetail.table.manifest.WrittenFile;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.types.logical.LogicalType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Commits one {@link CommitRequest} as one new snapshot, optimistically:
 *
 * <ol>
 *   <li>read the latest snapshot L (N = L + 1) and stop if the request is already in the table;
 *   <li>check that every file the request deletes is live in L (else a conflict: not retried);
 *   <li>assign sequence numbers and row ids from L's {@code nextRowId};
 *   <li>write the delta manifests, the base list (L's base + delta manifests, carried by reference)
 *       and the delta list;
 *   <li>publish snapshot-N create-if-absent. If another writer took N, delete this attempt's files
 *       and retry from 1 after a randomized back-off.
 * </ol>
 *
 * Nothing references an attempt's files before its snapshot is published, so a failure at any step
 * leaves the table as it was.
 */
public final class TableCommit {

    private static final int DEFAULT_MAX_RETRIES = 10;
    private static final long MIN_RETRY_WAIT_MS = 10;
    private static final long MAX_RETRY_WAIT_MS = 10_000;

    private final TableStore store;
    private final TablePaths paths;

    public TableCommit(TableStore store) {
        this.store = store;
        this.paths = store.paths();
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
            Optional<Snapshot> existing = findCommitted(request, latest, checkedUpTo);
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
        TableSchema schema = store.latestSchema();
        long id = latest.map(s -> s.id() + 1).orElse(1L);
        List<ManifestFileMeta> previous = new ArrayList<>();
        if (latest.isPresent()) {
            SnapshotFiles files = store.files(latest.get());
            checkDeletedFilesAreLive(request, files);
            previous.addAll(files.dataManifests());
        } else {
            checkDeletedFilesAreLive(request, null);
        }
        long previousNextRowId = latest.map(s -> orZero(s.nextRowId())).orElse(0L);
        RowTrackingAssigner.Result assigned =
                RowTrackingAssigner.assign(request.changes(), id, previousNextRowId);
        checkRowIdsAssigned(assigned.entries());

        List<String> written = new ArrayList<>();
        try {
            List<ManifestFileMeta> delta =
                    new ManifestFileWriter(paths.manifestDir(), partitionTypes(schema))
                            .write(assigned.entries());
            delta.forEach(m -> written.add(m.fileName()));
            ManifestListWriter lists = new ManifestListWriter(paths.manifestDir());
            WrittenFile baseList = lists.write(previous);
            written.add(baseList.fileName());
            WrittenFile deltaList = lists.write(delta);
            written.add(deltaList.fileName());

            long deltaRecords = deltaRecordCount(assigned.entries());
            long previousTotal = latest.map(Snapshot::totalRecordCount).orElse(0L);
            Snapshot snapshot =
                    Snapshot.builder()
                            .id(id)
                            .schemaId(schema.id())
                            .baseManifestList(baseList.fileName())
                            .baseManifestListSize(baseList.fileSize())
                            .deltaManifestList(deltaList.fileName())
                            .deltaManifestListSize(deltaList.fileSize())
                            .indexManifest(latest.map(Snapshot::indexManifest).orElse(null))
                            .commitUser(request.commitUser())
                            .commitIdentifier(request.commitIdentifier())
                            .commitKind(request.kind())
                            .timeMillis(System.currentTimeMillis())
                            .totalRecordCount(previousTotal + deltaRecords)
                            .deltaRecordCount(deltaRecords)
                            .nextRowId(assigned.nextRowId())
                            .build();
            if (store.snapshots().tryCommit(snapshot)) {
                return Optional.of(snapshot);
            }
        } catch (RuntimeException e) {
            deleteQuietly(written);
            throw e;
        }
        deleteQuietly(written);
        return Optional.empty();
    }

    /**
     * Looks for a snapshot newer than {@code checkedUpTo} holding this request, newest first,
     * stopping at the committer's previous identifier (identifiers increase per user).
     */
    private Optional<Snapshot> findCommitted(
            CommitRequest request, Optional<Snapshot> latest, long checkedUpTo) {
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        long earliest = store.snapshots().earliestId().orElse(1L);
        for (long id = latest.get().id(); id > Math.max(checkedUpTo, earliest - 1); id--) {
            Snapshot s = id == latest.get().id() ? latest.get() : store.snapshots().snapshot(id);
            if (!s.commitUser().equals(request.commitUser())) {
                continue;
            }
            if (s.commitIdentifier() == request.commitIdentifier()
                    && s.commitKind() == request.kind()) {
                return Optional.of(s);
            }
            if (s.commitIdentifier() < request.commitIdentifier()) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static void checkDeletedFilesAreLive(CommitRequest request, SnapshotFiles latest) {
        List<ManifestEntry> deletes =
                request.changes().stream().filter(e -> e.kind() == FileKind.DELETE).toList();
        if (deletes.isEmpty()) {
            return;
        }
        LiveFileSet live = new LiveFileSet();
        if (latest != null) {
            live.applyAll(latest.liveFiles());
        }
        for (ManifestEntry delete : deletes) {
            if (!live.contains(delete.identity())) {
                throw Errors.conflict(
                        "Commit deletes file "
                                + delete.file().fileName()
                                + " which is no longer live (a concurrent commit removed it);"
                                + " the table is unchanged.");
            }
        }
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
        String value = schema.options().get(TableOptions.COMMIT_MAX_RETRIES);
        if (value == null) {
            return DEFAULT_MAX_RETRIES;
        }
        try {
            int retries = Integer.parseInt(value.trim());
            if (retries >= 0) {
                return retries;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw Errors.invalidArgument(
                "Option "
                        + TableOptions.COMMIT_MAX_RETRIES
                        + " must be a non-negative integer, got '"
                        + value
                        + "'.");
    }

    private void deleteQuietly(List<String> manifestNames) {
        for (String name : manifestNames) {
            FileIO.deleteQuietly(paths.manifestFile(name));
        }
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

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }
}
