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
package io.dovetail.table.error;

import io.dovetail.table.error.DovetailException.Kind;

/**
 * The error factory: every user-visible failure of the table layer is built here, so messages share
 * one shape: what happened, where, and (when there is one) what to do.
 */
public final class Errors {

    private Errors() {}

    /** A metadata or index file exists but cannot be decoded, or decodes to impossible values. */
    public static DovetailException corruptFile(Object file, String problem) {
        return corruptFile(file, problem, null);
    }

    public static DovetailException corruptFile(Object file, String problem, Throwable cause) {
        return new DovetailException(
                Kind.CORRUPT_METADATA,
                "Corrupt or unreadable file "
                        + file
                        + ": "
                        + problem
                        + ". The table metadata is damaged or was written by an incompatible"
                        + " writer; nothing was changed.",
                cause);
    }

    /** A file that metadata refers to does not exist. */
    public static DovetailException missingFile(Object file, String referencedBy) {
        return new DovetailException(
                Kind.MISSING_FILE,
                "Missing file " + file + " (referenced by " + referencedBy + ").",
                null);
    }

    /** A valid input that Dovetail does not (yet) handle. */
    public static DovetailException unsupported(String what, String hint) {
        return new DovetailException(
                Kind.UNSUPPORTED,
                "Not supported: " + what + (hint == null || hint.isEmpty() ? "" : ". " + hint),
                null);
    }

    /** A wrong argument, option or value supplied by the caller. */
    public static DovetailException invalidArgument(String message) {
        return new DovetailException(Kind.INVALID_ARGUMENT, message, null);
    }

    /** An invalid table definition or an incompatible schema change. */
    public static DovetailException invalidSchema(String message) {
        return new DovetailException(Kind.INVALID_SCHEMA, message, null);
    }

    /** Table files whose row ranges or placement break the data-evolution layout contract. */
    public static DovetailException invalidLayout(String message) {
        return new DovetailException(Kind.INVALID_LAYOUT, message, null);
    }

    /** A commit that cannot be applied because a concurrent commit changed what it relies on. */
    public static DovetailException conflict(String message) {
        return new DovetailException(Kind.CONFLICT, message, null);
    }

    /** A valid write that a table option tells Dovetail to refuse. */
    public static DovetailException refusedByOption(String message) {
        return new DovetailException(Kind.REFUSED_BY_OPTION, message, null);
    }

    /**
     * The base snapshot of a job expired before the job pinned it: a conflict (nothing was changed;
     * running the job again reads a newer base).
     */
    public static DovetailException baseSnapshotExpired(long snapshotId, String what) {
        return conflict(
                "Base snapshot "
                        + snapshotId
                        + " of "
                        + what
                        + " expired before its job started; the table is unchanged. Run it"
                        + " again.");
    }

    /**
     * Snapshot {@code id} of {@code table} does not exist; {@code existing} are the ids that do.
     */
    public static DovetailException noSuchSnapshot(long id, Object table, long[] existing) {
        return new DovetailException(
                Kind.NO_SUCH_SNAPSHOT,
                "Snapshot "
                        + id
                        + " does not exist in table "
                        + table
                        + (existing.length == 0
                                ? "; the table has no snapshots."
                                : "; available range "
                                        + existing[0]
                                        + ".."
                                        + existing[existing.length - 1]
                                        + "."),
                null);
    }

    /**
     * Snapshot expiry removed snapshot {@code id} before {@code reader} got to it, so it cannot
     * {@code cannot} ("read the changes of snapshot 7 of table t"); {@code fix} says what to do.
     */
    public static DovetailException expiredSnapshot(
            String cannot, long id, String reader, long earliestKept, String fix) {
        return new DovetailException(
                Kind.EXPIRED_SNAPSHOT,
                "Cannot "
                        + cannot
                        + ": snapshot "
                        + id
                        + " was expired before "
                        + reader
                        + " got to it (earliest kept: "
                        + earliestKept
                        + "). "
                        + fix,
                null);
    }

    /**
     * A {@code _ROW_ID} (null: NULL) in no live row range of base snapshot {@code baseSnapshotId}:
     * the row was rewritten or removed since the id was read, or the id was never the table's.
     *
     * @param why what more is known (may be empty), e.g. {@code "; its range was removed"}
     * @param fix what to do, a sentence
     */
    public static DovetailException staleRowId(
            Long rowId, long baseSnapshotId, String why, String fix) {
        return new DovetailException(
                Kind.STALE_ROW_ID,
                "Stale row id "
                        + (rowId == null ? "NULL" : rowId)
                        + ": it is in no live row range of base snapshot "
                        + baseSnapshotId
                        + why
                        + ". "
                        + fix,
                null);
    }

    /**
     * Target row {@code rowId} is matched by two source rows of a merge (described by {@code first}
     * and {@code second}).
     */
    public static DovetailException duplicateMatch(long rowId, String first, String second) {
        return new DovetailException(
                Kind.DUPLICATE_MATCH,
                "Target row with _ROW_ID "
                        + rowId
                        + " is matched by more than one source row: one "
                        + first
                        + ", another "
                        + second
                        + ". Make the merge condition match at most one source row per target"
                        + " row; nothing was committed.",
                null);
    }

    /** A column update gives row {@code rowId} two new values. */
    public static DovetailException duplicateUpdate(long rowId) {
        return new DovetailException(
                Kind.DUPLICATE_MATCH,
                "Row id " + rowId + " is updated twice; give each row at most one new value.",
                null);
    }

    /**
     * A broadcast key join's copy of the merge source ({@code rows} rows in {@code bytes} bytes of
     * heap) outgrew its {@code budget}: typed, so the merge reruns as a SQL join.
     */
    public static SourceTooLargeToBroadcast sourceTooLargeToBroadcast(
            int rows, long bytes, long budget) {
        return new SourceTooLargeToBroadcast(
                String.format(
                        "The merge source is too large for a broadcast key join: %d source"
                                + " rows took %d bytes of heap, over %d",
                        rows, bytes, budget));
    }

    /**
     * Table files or metadata in a layout Dovetail does not handle (yet), valid for Paimon: vector
     * store files, changelogs, 64-bit deletion vectors, inline BLOB descriptors.
     */
    public static DovetailException unsupportedLayout(String what, String hint) {
        return unsupported(what, hint);
    }

    /** An I/O failure of the underlying file system. */
    public static DovetailException io(String action, Object file, Throwable cause) {
        return new DovetailException(
                Kind.IO, "I/O error while trying to " + action + " " + file + ": " + cause, cause);
    }
}
