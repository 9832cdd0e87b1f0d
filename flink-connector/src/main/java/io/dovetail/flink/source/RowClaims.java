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
package io.dovetail.flink.source;

import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.FileGroup;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which reader emitted, or is emitting, the changes of which rows, for as long as that matters to
 * the order of a row's changes downstream: a split's rows are claimed by its reader from assignment
 * until a checkpoint taken after its finished report completed. Until then the reader's records of
 * those rows may still be on their way (one channel keeps them in order; two channels do not), so a
 * later change of a claimed row must go through the same reader; afterwards every record of the
 * split was processed downstream before the checkpoint's barrier, and any reader may take the rows.
 *
 * <p>A claim whose reader is {@link #UNKNOWN} (restored in flight: after a rescale any reader may
 * hold it) lets no other split of its rows go anywhere until its reader reports it.
 */
final class RowClaims {

    /** The reader of a split restored in flight, until it reports the split finished. */
    static final int UNKNOWN = -1;

    /** Every row id: the rows of a split restored from state that did not record them. */
    private static final List<RowRange> EVERY_ROW = List.of(new RowRange(0, Long.MAX_VALUE));

    private record Claim(int reader, long snapshotId, List<RowRange> rows) {}

    /** Assigned and not reported finished, by split id. */
    private final Map<String, Claim> inFlight = new LinkedHashMap<>();

    /** Reported finished since the last enumerator snapshot. */
    private final Map<String, Claim> reported = new HashMap<>();

    /** Reported finished before the enumerator snapshot of a checkpoint not yet completed. */
    private final NavigableMap<Long, Map<String, Claim>> reportedBy = new TreeMap<>();

    /** The rows {@code split} reads of the groups of both sides (their selections), merged. */
    static List<RowRange> rowsOf(ChangeSplit split) {
        List<RowRange> rows = new ArrayList<>();
        for (FileGroup group : split.read().before().groups()) {
            rows.addAll(rowsOf(group));
        }
        for (FileGroup group : split.read().after().groups()) {
            rows.addAll(rowsOf(group));
        }
        return RowRange.normalize(rows);
    }

    private static List<RowRange> rowsOf(FileGroup group) {
        return group.selection() == null ? List.of(group.range()) : group.selection();
    }

    /** Splits restored in flight: their readers are unknown until they report. */
    void restore(Collection<ChangeEnumeratorState.AssignedSplit> splits) {
        for (ChangeEnumeratorState.AssignedSplit split : splits) {
            List<RowRange> rows = split.rows() == null ? EVERY_ROW : split.rows();
            inFlight.put(split.splitId(), new Claim(UNKNOWN, split.snapshotId(), rows));
        }
    }

    void assigned(ChangeSplit split, int reader) {
        inFlight.put(split.splitId(), new Claim(reader, split.read().snapshotId(), rowsOf(split)));
    }

    /**
     * Records that {@code reader} read {@code splitId} to the end; false if it was not in flight.
     */
    boolean reported(String splitId, int reader) {
        Claim claim = inFlight.remove(splitId);
        if (claim == null) {
            return false;
        }
        reported.put(splitId, new Claim(reader, claim.snapshotId(), claim.rows()));
        return true;
    }

    /** A split back from a failed reader: it claims nothing until assigned again. */
    void released(String splitId) {
        inFlight.remove(splitId);
        reported.remove(splitId);
        reportedBy.values().forEach(m -> m.remove(splitId));
    }

    /**
     * A (re)started reader: what it reported after the checkpoint it restores from is in flight
     * again (it re-reads or re-reports it).
     */
    void readerRestarted(int reader) {
        backInFlight(reported, reader);
        reportedBy.values().forEach(m -> backInFlight(m, reader));
    }

    private void backInFlight(Map<String, Claim> reports, int reader) {
        Iterator<Map.Entry<String, Claim>> it = reports.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Claim> report = it.next();
            if (report.getValue().reader() == reader) {
                inFlight.put(report.getKey(), report.getValue());
                it.remove();
            }
        }
    }

    /** The enumerator snapshot of checkpoint {@code checkpointId}. */
    void snapshot(long checkpointId) {
        if (!reported.isEmpty()) {
            reportedBy.put(checkpointId, new HashMap<>(reported));
            reported.clear();
        }
    }

    /** Checkpoint {@code checkpointId} completed: the splits reported before it claim nothing. */
    void completed(long checkpointId) {
        reportedBy.headMap(checkpointId, true).clear();
    }

    /**
     * The readers that claim a row of {@code rows}; {@link #UNKNOWN} among them if a split restored
     * in flight does.
     */
    Set<Integer> holders(List<RowRange> rows) {
        Set<Integer> holders = new HashSet<>();
        allClaims().forEach(claims -> collect(claims, rows, holders));
        return holders;
    }

    /** The rows of {@code rows} that {@code reader} claims, normalized. */
    List<RowRange> claimedBy(int reader, List<RowRange> rows) {
        List<RowRange> claimed = new ArrayList<>();
        for (Map<String, Claim> claims : allClaims()) {
            for (Claim claim : claims.values()) {
                if (claim.reader() == reader) {
                    claimed.addAll(intersect(claim.rows(), rows));
                }
            }
        }
        return RowRange.normalize(claimed);
    }

    private List<Map<String, Claim>> allClaims() {
        List<Map<String, Claim>> all = new ArrayList<>();
        all.add(inFlight);
        all.add(reported);
        all.addAll(reportedBy.values());
        return all;
    }

    /** The ids in both normalized {@code a} and {@code b}. */
    static List<RowRange> intersect(List<RowRange> a, List<RowRange> b) {
        List<RowRange> out = new ArrayList<>();
        for (RowRange range : a) {
            out.addAll(range.intersect(b));
        }
        return out;
    }

    /** The ids of normalized {@code a} that are not in normalized {@code b}. */
    static List<RowRange> subtract(List<RowRange> a, List<RowRange> b) {
        List<RowRange> out = new ArrayList<>();
        for (RowRange range : a) {
            long next = range.first();
            for (RowRange cut : b) {
                if (cut.last() < next || cut.first() > range.last()) {
                    continue;
                }
                if (cut.first() > next) {
                    out.add(new RowRange(next, cut.first() - 1));
                }
                if (cut.last() >= range.last()) {
                    next = -1;
                    break;
                }
                next = cut.last() + 1;
            }
            if (next >= 0) {
                out.add(new RowRange(next, range.last()));
            }
        }
        return out;
    }

    private static void collect(Map<String, Claim> claims, List<RowRange> rows, Set<Integer> out) {
        for (Claim claim : claims.values()) {
            if (!out.contains(claim.reader()) && overlap(claim.rows(), rows)) {
                out.add(claim.reader());
            }
        }
    }

    static boolean overlap(List<RowRange> a, List<RowRange> b) {
        for (RowRange x : a) {
            for (RowRange y : b) {
                if (x.overlaps(y)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The splits in flight, for the enumerator's state. */
    List<ChangeEnumeratorState.AssignedSplit> inFlight() {
        List<ChangeEnumeratorState.AssignedSplit> splits = new ArrayList<>();
        inFlight.forEach(
                (id, claim) ->
                        splits.add(
                                new ChangeEnumeratorState.AssignedSplit(
                                        id, claim.snapshotId(), claim.rows())));
        return splits;
    }

    /** The oldest snapshot of a split in flight, if any. */
    @Nullable
    Long oldestInFlight() {
        return inFlight.values().stream().map(Claim::snapshotId).min(Long::compare).orElse(null);
    }
}
