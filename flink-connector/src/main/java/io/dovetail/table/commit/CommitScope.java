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

import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The live files a commit's checks look at: every live file of the partitions in which it deletes
 * files or changes deletion vectors, and, in the other partitions where it adds files for existing
 * rows, the live files whose row ranges overlap those files' ranges. Files of new rows need none:
 * they get row ids no existing file has.
 *
 * @param partitions partitions whose live files are all wanted
 * @param rows per other partition, the row ranges (normalized) whose overlapping files are wanted
 */
record CommitScope(Set<ByteBuffer> partitions, Map<ByteBuffer, List<RowRange>> rows) {

    static final CommitScope NONE = new CommitScope(Set.of(), Map.of());

    CommitScope {
        partitions = Set.copyOf(partitions);
        rows = Map.copyOf(rows);
    }

    /** What the checks of {@code operation} look at. */
    static CommitScope of(CommitOperation operation) {
        Set<ByteBuffer> partitions = new HashSet<>();
        for (ManifestEntry entry : operation.dataChanges()) {
            if (entry.kind() == FileKind.DELETE) {
                partitions.add(ByteBuffer.wrap(entry.partition()));
            }
        }
        IndexChanges index = operation.indexChanges();
        index.added().forEach(e -> partitions.add(ByteBuffer.wrap(e.partition())));
        index.removed().forEach(e -> partitions.add(ByteBuffer.wrap(e.partition())));
        Map<ByteBuffer, List<RowRange>> rows = new HashMap<>();
        for (ManifestEntry entry : operation.dataChanges()) {
            ByteBuffer partition = ByteBuffer.wrap(entry.partition());
            if (entry.kind() == FileKind.ADD
                    && entry.file().firstRowId() != null
                    && !partitions.contains(partition)) {
                rows.computeIfAbsent(partition, k -> new ArrayList<>())
                        .add(RowRange.of(entry.file()));
            }
        }
        rows.replaceAll((partition, ranges) -> RowRange.normalize(ranges));
        return new CommitScope(partitions, rows);
    }

    /** Every live file of {@code partitions}. */
    static CommitScope wholePartitions(Set<ByteBuffer> partitions) {
        return new CommitScope(partitions, Map.of());
    }

    boolean isEmpty() {
        return partitions.isEmpty() && rows.isEmpty();
    }

    /** Whether {@code entry} is one of the files this scope wants (its partition and rows). */
    boolean wants(ManifestEntry entry) {
        ByteBuffer partition = ByteBuffer.wrap(entry.partition());
        if (partitions.contains(partition)) {
            return true;
        }
        List<RowRange> ranges = rows.get(partition);
        return ranges != null
                && (entry.file().firstRowId() == null
                        || overlapsAny(ranges, RowRange.of(entry.file())));
    }

    /** Whether {@code range} overlaps one of the sorted, disjoint {@code ranges}. */
    static boolean overlapsAny(List<RowRange> ranges, RowRange range) {
        int floor = floor(ranges, range.last());
        return floor >= 0 && ranges.get(floor).last() >= range.first();
    }

    /** Whether {@code range} lies inside one of the sorted, disjoint {@code ranges}. */
    static boolean coveredBy(List<RowRange> ranges, RowRange range) {
        int floor = floor(ranges, range.first());
        return floor >= 0 && ranges.get(floor).last() >= range.last();
    }

    /** The index of the last of the sorted {@code ranges} starting at or before {@code id}. */
    private static int floor(List<RowRange> ranges, long id) {
        int low = 0;
        int high = ranges.size() - 1;
        int floor = -1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (ranges.get(mid).first() <= id) {
                floor = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return floor;
    }
}
