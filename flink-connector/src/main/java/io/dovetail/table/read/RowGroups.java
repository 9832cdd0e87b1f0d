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
package io.dovetail.table.read;

import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Groups the files of one partition into row-range groups and checks the layout contract: normal
 * files overlapping each other cover the same range (N1), and every dedicated (BLOB or vector) file
 * lies inside one normal range (D1). Violations are errors naming the files. Sorting makes the cost
 * O(n log n) in the number of files.
 */
public final class RowGroups {

    private RowGroups() {}

    static boolean isNormal(DataFileMeta file) {
        return DataFileKinds.isNormal(file.fileName());
    }

    /**
     * The groups of a snapshot's live {@code files} over all partitions (files without a first row
     * id skipped), in row-id order.
     */
    public static List<List<ManifestEntry>> ofLiveFiles(List<ManifestEntry> files) {
        Map<ByteBuffer, List<ManifestEntry>> byPartition = new LinkedHashMap<>();
        for (ManifestEntry entry : files) {
            if (entry.file().firstRowId() != null) {
                byPartition
                        .computeIfAbsent(ByteBuffer.wrap(entry.partition()), p -> new ArrayList<>())
                        .add(entry);
            }
        }
        List<List<ManifestEntry>> groups = new ArrayList<>();
        byPartition.values().forEach(partition -> groups.addAll(of(partition)));
        groups.sort(Comparator.comparingLong(g -> g.get(0).file().firstRowId()));
        return groups;
    }

    /** The rows of the live files' groups (every position, deleted or not). */
    public static long rowCountOfLiveFiles(List<ManifestEntry> files) {
        long rows = 0;
        for (RowRange range : rangesOfLiveFiles(files)) {
            rows += range.count();
        }
        return rows;
    }

    /** The row range of each group of a snapshot's live {@code files}, in row-id order. */
    public static List<RowRange> rangesOfLiveFiles(List<ManifestEntry> files) {
        List<RowRange> ranges = new ArrayList<>();
        for (List<ManifestEntry> group : ofLiveFiles(files)) {
            ranges.add(rangeOf(group));
        }
        return ranges;
    }

    /** The row range of one group (its normal files' range). */
    public static RowRange rangeOf(List<ManifestEntry> group) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (ManifestEntry member : group) {
            RowRange range = RowRange.of(member.file());
            first = Math.min(first, range.first());
            last = Math.max(last, range.last());
        }
        return new RowRange(first, last);
    }

    /**
     * The groups of {@code files} (all of one partition, all with a first row id) in row-id order,
     * each listing its members in input order; files without rows belong to no group.
     */
    public static List<List<ManifestEntry>> of(List<ManifestEntry> files) {
        List<Integer> normal = new ArrayList<>();
        List<Integer> dedicated = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            DataFileMeta file = files.get(i).file();
            if (file.rowCount() > 0) {
                (isNormal(file) ? normal : dedicated).add(i);
            }
        }
        normal.sort(Comparator.comparingLong(i -> files.get(i).file().firstRowId()));
        List<List<Integer>> groups = new ArrayList<>();
        List<RowRange> ranges = new ArrayList<>();
        for (int i : normal) {
            RowRange range = range(files.get(i));
            RowRange last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (last != null && last.overlaps(range)) {
                if (!last.equals(range)) {
                    throw unequalRanges(
                            files.get(groups.get(groups.size() - 1).get(0)), files.get(i));
                }
                groups.get(groups.size() - 1).add(i);
            } else {
                groups.add(new ArrayList<>(List.of(i)));
                ranges.add(range);
            }
        }
        for (int i : dedicated) {
            groups.get(owner(ranges, files.get(i), files, groups)).add(i);
        }
        List<List<ManifestEntry>> out = new ArrayList<>();
        for (List<Integer> group : groups) {
            group.sort(Comparator.naturalOrder());
            List<ManifestEntry> members = new ArrayList<>();
            group.forEach(i -> members.add(files.get(i)));
            out.add(members);
        }
        return out;
    }

    /** The group whose normal range contains the dedicated file. */
    private static int owner(
            List<RowRange> ranges,
            ManifestEntry dedicated,
            List<ManifestEntry> files,
            List<List<Integer>> groups) {
        RowRange range = range(dedicated);
        int low = 0;
        int high = ranges.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (ranges.get(mid).last() < range.first()) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        if (low < ranges.size() && ranges.get(low).contains(range)) {
            return low;
        }
        String near =
                low < ranges.size() && ranges.get(low).overlaps(range)
                        ? " overlaps normal file "
                                + files.get(groups.get(low).get(0)).file().fileName()
                                + " "
                                + ranges.get(low)
                                + " without lying inside it"
                        : " has no normal data file owning its row ids";
        throw Errors.invalidLayout(
                "Dedicated file "
                        + dedicated.file().fileName()
                        + " "
                        + range
                        + near
                        + "; a BLOB or vector file must lie inside one normal file's range.");
    }

    private static RuntimeException unequalRanges(ManifestEntry a, ManifestEntry b) {
        return Errors.invalidLayout(
                "Normal data files "
                        + a.file().fileName()
                        + " "
                        + range(a)
                        + " and "
                        + b.file().fileName()
                        + " "
                        + range(b)
                        + " overlap without covering the same row ids; files of a"
                        + " data-evolution table must have equal or disjoint row ranges. The"
                        + " table was written by a faulty writer.");
    }

    private static RowRange range(ManifestEntry entry) {
        return RowRange.ofCount(entry.file().firstRowId(), entry.file().rowCount());
    }
}
