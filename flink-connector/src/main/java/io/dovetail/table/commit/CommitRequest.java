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
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.snapshot.CommitKind;

import java.util.List;

/**
 * One {@link CommitOperation} and who commits it. {@code commitUser} + {@code commitIdentifier}
 * make the commit idempotent: a request whose pair is already in the table is not applied again
 * (Flink replays committables after recovery), so identifiers must increase per user and every job
 * should use its own commit user.
 */
public record CommitRequest(String commitUser, long commitIdentifier, CommitOperation operation) {

    /** Identifier Paimon uses for batch commits and end of input. */
    public static final long BATCH_IDENTIFIER = Long.MAX_VALUE;

    public CommitRequest {
        if (commitUser == null || commitUser.isEmpty()) {
            throw Errors.invalidArgument("A commit needs a non-empty commit user.");
        }
        if (operation == null) {
            throw Errors.invalidArgument("A commit needs an operation.");
        }
    }

    public CommitKind kind() {
        return operation.kind();
    }

    /**
     * New files (row ids and sequence numbers are assigned at commit); see {@link
     * CommitOperation.Append}.
     */
    public static CommitRequest append(
            String commitUser, long commitIdentifier, List<ManifestEntry> newFiles) {
        return new CommitRequest(
                commitUser, commitIdentifier, new CommitOperation.Append(newFiles));
    }

    /** Partial-column files for existing ranges, planned on snapshot {@code baseSnapshotId}. */
    public static CommitRequest columnUpdate(
            String commitUser,
            long commitIdentifier,
            long baseSnapshotId,
            List<ManifestEntry> partialFiles) {
        return new CommitRequest(
                commitUser,
                commitIdentifier,
                new CommitOperation.ColumnUpdate(baseSnapshotId, partialFiles));
    }

    /** Deletion-vector changes planned on snapshot {@code baseSnapshotId}. */
    public static CommitRequest delete(
            String commitUser,
            long commitIdentifier,
            long baseSnapshotId,
            IndexChanges deletionVectors) {
        return new CommitRequest(
                commitUser,
                commitIdentifier,
                new CommitOperation.Delete(baseSnapshotId, deletionVectors));
    }

    /**
     * Partial-column files, new rows and deletion-vector changes of one merge planned on snapshot
     * {@code baseSnapshotId}, as one snapshot.
     */
    public static CommitRequest merge(
            String commitUser,
            long commitIdentifier,
            long baseSnapshotId,
            List<ManifestEntry> partialFiles,
            List<ManifestEntry> newFiles,
            IndexChanges deletionVectors) {
        return new CommitRequest(
                commitUser,
                commitIdentifier,
                new CommitOperation.Merge(baseSnapshotId, partialFiles, newFiles, deletionVectors));
    }

    /** Removes live files (and their deletion vectors) and adds new rows. */
    public static CommitRequest overwrite(
            String commitUser,
            long commitIdentifier,
            List<ManifestEntry> removed,
            List<ManifestEntry> added) {
        return new CommitRequest(
                commitUser, commitIdentifier, new CommitOperation.Overwrite(removed, added));
    }

    /** Replaces live files by files that keep their row ids, moving deletion vectors. */
    public static CommitRequest compact(
            String commitUser,
            long commitIdentifier,
            List<ManifestEntry> before,
            List<ManifestEntry> after,
            IndexChanges deletionVectors) {
        return new CommitRequest(
                commitUser,
                commitIdentifier,
                new CommitOperation.Compact(before, after, deletionVectors));
    }

    /**
     * Replaces the live files of groups with deletion vectors by their surviving rows, which get
     * new row ids, dropping the vectors.
     */
    public static CommitRequest materialize(
            String commitUser,
            long commitIdentifier,
            long baseSnapshotId,
            List<ManifestEntry> removed,
            List<ManifestEntry> added,
            IndexChanges deletionVectors) {
        return new CommitRequest(
                commitUser,
                commitIdentifier,
                new CommitOperation.Materialize(baseSnapshotId, removed, added, deletionVectors));
    }

    /** Global index files built on {@code baseSnapshotId} and live ones dropped. */
    public static CommitRequest globalIndexes(
            String commitUser,
            long commitIdentifier,
            long baseSnapshotId,
            List<IndexManifestEntry> added,
            List<IndexManifestEntry> dropped) {
        return new CommitRequest(
                commitUser,
                commitIdentifier,
                new CommitOperation.GlobalIndexes(baseSnapshotId, added, dropped));
    }
}
