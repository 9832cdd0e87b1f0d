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
package io.dovetail.actions;

import io.dovetail.table.manifest.ManifestEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The live files of a snapshot grouped by row range: a group is the files covering exactly the same
 * range (a full-row file and the partial-column files written over it). A reader stitches each
 * group into one set of logical rows.
 */
final class RowRangeGroups {

    private final TreeMap<RowRange, List<ManifestEntry>> groups = new TreeMap<>(RowRange.ORDER);
    private int filesWithoutRowIds;

    RowRangeGroups(List<ManifestEntry> liveFiles) {
        for (ManifestEntry entry : liveFiles) {
            Optional<RowRange> range = RowRange.of(entry.file());
            if (range.isPresent()) {
                groups.computeIfAbsent(range.get(), r -> new ArrayList<>()).add(entry);
            } else {
                filesWithoutRowIds++;
            }
        }
    }

    /** The groups in row-id order. */
    Map<RowRange, List<ManifestEntry>> groups() {
        return groups;
    }

    /** The number of logical rows: the sum of the distinct range sizes. */
    long logicalRows() {
        return groups.keySet().stream().mapToLong(RowRange::count).sum();
    }

    int filesWithoutRowIds() {
        return filesWithoutRowIds;
    }

    /**
     * Distinct ranges that overlap, e.g. {@code "[0, 5) and [3, 8)"}; a healthy data-evolution
     * table has none, and with overlaps {@link #logicalRows()} counts some rows twice.
     */
    List<String> overlaps() {
        List<String> overlaps = new ArrayList<>();
        RowRange reaching = null;
        for (RowRange range : groups.keySet()) {
            if (reaching != null && range.first() < reaching.end()) {
                overlaps.add(reaching + " and " + range);
            }
            if (reaching == null || range.end() > reaching.end()) {
                reaching = range;
            }
        }
        return overlaps;
    }
}
