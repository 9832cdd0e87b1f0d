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
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.FileIdentity;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The row-range checks of a commit against the latest snapshot L (data-evolution semantics §7.3):
 *
 * <ul>
 *   <li>C2: the commit does not add and delete the same file;
 *   <li>C3/C4: every file it deletes is live in L with the row range it was planned with;
 *   <li>C5: a file claiming existing rows matches L's layout: a normal file equals a live normal
 *       range of its partition ("layout conflict" otherwise), a dedicated file lies inside one;
 *   <li>C6: compaction output lies inside the union of its partition's live normal ranges;
 *   <li>C7: after the commit, normal ranges of a partition are equal or disjoint and every
 *       dedicated file lies inside one normal range.
 * </ul>
 *
 * Each check looks only at the live files of L that can share rows with the files the commit adds
 * with row ids or deletes (those of the same partition overlapping their rows, all of a partition
 * where it deletes, see {@link CommitScope}): a file that shares no row with them keeps the layout
 * it had in L, and the normal range holding a dedicated file overlaps it.
 */
final class LayoutCheck {

    private LayoutCheck() {}

    static void checkDeletes(TableState latest, List<ManifestEntry> changes) {
        Set<FileIdentity> added = new HashSet<>();
        changes.stream()
                .filter(e -> e.kind() == FileKind.ADD)
                .forEach(e -> added.add(e.identity()));
        for (ManifestEntry delete : changes) {
            if (delete.kind() != FileKind.DELETE) {
                continue;
            }
            if (added.contains(delete.identity())) {
                throw Errors.invalidArgument(
                        "A commit both adds and deletes data file " + delete.identity() + ".");
            }
            ManifestEntry live = latest.liveFile(delete);
            if (live == null) {
                throw Errors.conflict(
                        "Commit deletes data file "
                                + delete.file().fileName()
                                + " which is no longer live in snapshot "
                                + latest.snapshotId()
                                + " (a concurrent commit removed it); the table is unchanged."
                                + " Plan the operation again on the latest snapshot.");
            }
            if (!Objects.equals(live.file().firstRowId(), delete.file().firstRowId())
                    || live.file().rowCount() != delete.file().rowCount()) {
                throw Errors.conflict(
                        "Commit deletes data file "
                                + delete.file().fileName()
                                + " with rows from "
                                + delete.file().firstRowId()
                                + " ("
                                + delete.file().rowCount()
                                + " rows), but in snapshot "
                                + latest.snapshotId()
                                + " it has rows from "
                                + live.file().firstRowId()
                                + " ("
                                + live.file().rowCount()
                                + " rows): its row ids were reassigned. The table is unchanged.");
            }
        }
    }

    /** C5 ({@code compaction} false) or C6 ({@code compaction} true) for every claimed range. */
    static void checkClaimedRanges(
            TableState latest, List<ManifestEntry> changes, boolean compaction) {
        Map<ByteBuffer, TreeMap<Long, RowRange>> normal = normalRanges(latest.liveFiles());
        for (ManifestEntry entry : changes) {
            if (entry.kind() != FileKind.ADD || entry.file().firstRowId() == null) {
                continue;
            }
            latest.requireLoaded(entry);
            RowRange range = RowRange.of(entry.file());
            if (range.last() >= latest.nextRowId()) {
                throw Errors.invalidArgument(
                        "File "
                                + entry.file().fileName()
                                + " claims rows "
                                + range
                                + " but snapshot "
                                + latest.snapshotId()
                                + " assigned row ids below "
                                + latest.nextRowId()
                                + " only.");
            }
            TreeMap<Long, RowRange> ranges =
                    normal.getOrDefault(ByteBuffer.wrap(entry.partition()), new TreeMap<>());
            if (compaction) {
                checkInsideUnion(latest, entry, range, joinAdjacent(ranges));
            } else if (DataFileKinds.isNormal(entry.file().fileName())) {
                if (!range.equals(ranges.get(range.first()))) {
                    throw layoutConflict(latest, entry, range, "no live normal file has exactly");
                }
            } else if (!containedInOne(ranges, range)) {
                throw layoutConflict(latest, entry, range, "no single live normal file contains");
            }
        }
    }

    /** C7 over the live files after the commit. */
    static void checkMergedLayout(long snapshotId, Collection<ManifestEntry> liveAfter) {
        Map<ByteBuffer, TreeMap<Long, RowRange>> normal = new HashMap<>();
        for (ManifestEntry entry : liveAfter) {
            if (entry.file().firstRowId() == null
                    || !DataFileKinds.isNormal(entry.file().fileName())) {
                continue;
            }
            RowRange range = RowRange.of(entry.file());
            TreeMap<Long, RowRange> ranges =
                    normal.computeIfAbsent(
                            ByteBuffer.wrap(entry.partition()), k -> new TreeMap<>());
            RowRange same = ranges.get(range.first());
            if (same != null && !same.equals(range)) {
                throw mergedConflict(snapshotId, same, range);
            }
            ranges.put(range.first(), range);
        }
        for (TreeMap<Long, RowRange> ranges : normal.values()) {
            RowRange previous = null;
            for (RowRange range : ranges.values()) {
                if (previous != null && range.first() <= previous.last()) {
                    throw mergedConflict(snapshotId, previous, range);
                }
                previous = range;
            }
        }
        for (ManifestEntry entry : liveAfter) {
            if (entry.file().firstRowId() == null
                    || DataFileKinds.isNormal(entry.file().fileName())) {
                continue;
            }
            RowRange range = RowRange.of(entry.file());
            TreeMap<Long, RowRange> ranges = normal.get(ByteBuffer.wrap(entry.partition()));
            if (ranges == null || !containedInOne(ranges, range)) {
                throw Errors.conflict(
                        "Layout conflict: after this commit on snapshot "
                                + snapshotId
                                + ", dedicated file "
                                + entry.file().fileName()
                                + " with rows "
                                + range
                                + " would not lie inside one normal row range. The table is"
                                + " unchanged; plan the operation again on the latest snapshot.");
            }
        }
    }

    /** The live normal ranges of every partition, by first row id. */
    static Map<ByteBuffer, TreeMap<Long, RowRange>> normalRanges(Collection<ManifestEntry> live) {
        Map<ByteBuffer, TreeMap<Long, RowRange>> ranges = new HashMap<>();
        for (ManifestEntry entry : live) {
            if (entry.file().firstRowId() != null
                    && DataFileKinds.isNormal(entry.file().fileName())) {
                RowRange range = RowRange.of(entry.file());
                ranges.computeIfAbsent(ByteBuffer.wrap(entry.partition()), k -> new TreeMap<>())
                        .merge(range.first(), range, (a, b) -> a.last() >= b.last() ? a : b);
            }
        }
        return ranges;
    }

    private static boolean containedInOne(TreeMap<Long, RowRange> ranges, RowRange range) {
        Map.Entry<Long, RowRange> floor = ranges.floorEntry(range.first());
        return floor != null && floor.getValue().contains(range);
    }

    private static TreeMap<Long, RowRange> joinAdjacent(TreeMap<Long, RowRange> ranges) {
        List<RowRange> runs = new ArrayList<>();
        for (RowRange range : ranges.values()) {
            RowRange last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && range.first() <= last.last() + 1) {
                runs.set(
                        runs.size() - 1,
                        new RowRange(last.first(), Math.max(last.last(), range.last())));
            } else {
                runs.add(range);
            }
        }
        TreeMap<Long, RowRange> joined = new TreeMap<>();
        runs.forEach(r -> joined.put(r.first(), r));
        return joined;
    }

    private static void checkInsideUnion(
            TableState latest, ManifestEntry entry, RowRange range, TreeMap<Long, RowRange> runs) {
        if (!containedInOne(runs, range)) {
            throw layoutConflict(
                    latest, entry, range, "the live normal ranges of its partition do not cover");
        }
    }

    private static RuntimeException layoutConflict(
            TableState latest, ManifestEntry entry, RowRange range, String problem) {
        return Errors.conflict(
                "Layout conflict: file "
                        + entry.file().fileName()
                        + " was written for rows "
                        + range
                        + ", but in snapshot "
                        + latest.snapshotId()
                        + " "
                        + problem
                        + " that range (it was compacted, reassigned or removed since the"
                        + " operation was planned). The table is unchanged; plan the operation"
                        + " again on the latest snapshot.");
    }

    private static RuntimeException mergedConflict(long snapshotId, RowRange a, RowRange b) {
        return Errors.conflict(
                "Layout conflict: after this commit on snapshot "
                        + snapshotId
                        + ", normal row ranges "
                        + a
                        + " and "
                        + b
                        + " would overlap without being equal. The table is unchanged; plan the"
                        + " operation again on the latest snapshot.");
    }
}
