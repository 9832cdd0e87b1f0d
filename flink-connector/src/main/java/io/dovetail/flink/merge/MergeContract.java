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
package io.dovetail.flink.merge;

import io.dovetail.flink.dml.StaleRowIds;
import io.dovetail.table.TableStore;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.types.Row;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.util.List;
import java.util.Optional;

/**
 * The contract between a merge's query, its operators and its result, kept in one place: the action
 * code each change row carries (the query writes them into its {@code CASE} text, the router and
 * writers read them), the accumulators the operators count in, and the result row the procedure
 * returns, built from those counts and the commit.
 */
public final class MergeContract {

    /** Action codes, the second field of every change row ({@code _ROW_ID}, action, values). */
    static final byte UPDATE = 1;

    static final byte DELETE = 2;
    static final byte INSERT = 3;
    static final byte MATCHED_NO_ACTION = 4;
    static final byte NOT_MATCHED_NO_ACTION = 5;
    static final byte DELETE_NOT_MATCHED_BY_SOURCE = 6;

    /** Accumulator names, by action code (index = action), counting the router's input rows. */
    static final List<String> ACCUMULATORS =
            List.of(
                    "",
                    "dovetail-merge-updated",
                    "dovetail-merge-deleted",
                    "dovetail-merge-inserted",
                    "dovetail-merge-matched-unchanged",
                    "dovetail-merge-not-matched-ignored",
                    "dovetail-merge-deleted-not-matched-by-source");

    /** Stale row ids of updates and of deletes dropped ({@link StaleRowIds#SKIP}). */
    static final String SKIPPED_UPDATES = "dovetail-merge-skipped-updates";

    static final String SKIPPED_DELETES = "dovetail-merge-skipped-deletes";

    /** Of a broadcast key join: the source rows, and those some target row matched. */
    static final String SOURCE_ROWS = "dovetail-merge-source-rows";

    static final String MATCHED_SOURCE_ROWS = "dovetail-merge-matched-source-rows";

    /** The result row of a merge. */
    public static final String RESULT_TYPE =
            "ROW<source_rows BIGINT, matched BIGINT, updated BIGINT, inserted BIGINT, deleted"
                    + " BIGINT, skipped BIGINT, groups_rewritten BIGINT, files_written BIGINT,"
                    + " bytes_written BIGINT, snapshot_id BIGINT>";

    private MergeContract() {}

    /**
     * The result row ({@link #RESULT_TYPE}) of the merge job that ran as {@code commitUser} on
     * {@code base}: source rows read, matched target rows, rows updated, inserted and deleted,
     * stale row ids skipped, groups rewritten, data files and bytes written, and the new snapshot
     * (NULL when nothing changed).
     */
    static Row resultRow(
            TableStore store, Optional<Snapshot> base, String commitUser, JobExecutionResult job) {
        long updated = count(job, UPDATE);
        long deleted = count(job, DELETE);
        long unchanged = count(job, MATCHED_NO_ACTION);
        long skippedUpdates = counter(job, SKIPPED_UPDATES);
        long skippedDeletes = counter(job, SKIPPED_DELETES);
        long matched = updated + deleted + unchanged - skippedUpdates - skippedDeletes;
        long sourceRows =
                updated + deleted + unchanged + count(job, INSERT) + notMatchedSourceRows(job);
        long groups = 0;
        long files = 0;
        long bytes = 0;
        Optional<Snapshot> committed = store.snapshots().latestCommitOf(commitUser);
        if (committed.isPresent()) {
            long existingRows =
                    base.map(b -> b.nextRowId() == null ? 0L : b.nextRowId()).orElse(0L);
            for (ManifestEntry entry : store.files(committed.get()).deltaEntries()) {
                if (entry.kind() == FileKind.ADD) {
                    files++;
                    bytes += entry.file().fileSize();
                    if (entry.file().firstRowId() < existingRows) {
                        groups++;
                    }
                }
            }
        }
        return Row.of(
                sourceRows,
                matched,
                updated - skippedUpdates,
                count(job, INSERT),
                deleted - skippedDeletes + count(job, DELETE_NOT_MATCHED_BY_SOURCE),
                skippedUpdates + skippedDeletes,
                groups,
                files,
                bytes,
                committed.map(Snapshot::id).orElse(null));
    }

    /**
     * The source rows no target row matched, counted by the router or, for a broadcast key join, as
     * the source rows less those matched.
     */
    private static long notMatchedSourceRows(JobExecutionResult job) {
        Roaring64NavigableMap matched = job.getAccumulatorResult(MATCHED_SOURCE_ROWS);
        return count(job, NOT_MATCHED_NO_ACTION)
                + counter(job, SOURCE_ROWS)
                - (matched == null ? 0 : matched.getLongCardinality());
    }

    private static long count(JobExecutionResult job, byte action) {
        return counter(job, ACCUMULATORS.get(action));
    }

    private static long counter(JobExecutionResult job, String name) {
        Object value = job.getAccumulatorResult(name);
        return value == null ? 0 : ((Number) value).longValue();
    }
}
