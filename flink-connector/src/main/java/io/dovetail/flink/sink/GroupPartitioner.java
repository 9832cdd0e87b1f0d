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
package io.dovetail.flink.sink;

import io.dovetail.table.TableStore;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.RowGroups;

import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Routes updates by {@code _ROW_ID} to the writer that owns the row-range group holding the row, so
 * each group's partial-column file is written by exactly one writer. Groups of the base snapshot
 * are assigned to writers by their row counts, largest first to the least loaded writer (a
 * partial-column file costs the rows of its whole group), not by a hash of the first row id, which
 * stacks large groups on one writer. Every upstream subtask computes the same assignment from the
 * same snapshot. Row ids in no group go to writer 0, whose update reports them as stale.
 */
final class GroupPartitioner implements Partitioner<Long> {

    private static final long serialVersionUID = 1L;

    private final String table;
    private final long baseSnapshotId;

    /** The {@code _ROW_ID} of an update row (its first field); -1 for NULL. */
    static final class RowIdOfUpdate implements KeySelector<RowData, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long getKey(RowData row) {
            return row.isNullAt(0) ? -1L : row.getLong(0);
        }
    }

    private transient int channels;
    private transient TreeMap<Long, long[]> groups; // first row id -> {last row id, channel}

    GroupPartitioner(TablePaths table, long baseSnapshotId) {
        this.table = table.root().toString();
        this.baseSnapshotId = baseSnapshotId;
    }

    @Override
    public int partition(Long rowId, int numPartitions) {
        if (groups == null || channels != numPartitions) {
            groups = assign(numPartitions);
            channels = numPartitions;
        }
        Map.Entry<Long, long[]> floor = groups.floorEntry(rowId);
        return floor != null && rowId <= floor.getValue()[0] ? (int) floor.getValue()[1] : 0;
    }

    /** The {first, last} row ids of every row-range group of {@code snapshotId}. */
    static List<long[]> groupRanges(String table, long snapshotId) {
        TableStore store = TableStore.open(new TablePaths(new Path(table)));
        List<ManifestEntry> live = store.files(store.snapshots().snapshot(snapshotId)).liveFiles();
        List<long[]> ranges = new ArrayList<>();
        for (RowRange range : RowGroups.rangesOfLiveFiles(live)) {
            ranges.add(new long[] {range.first(), range.last()});
        }
        return ranges;
    }

    private TreeMap<Long, long[]> assign(int numPartitions) {
        List<long[]> ranges = groupRanges(table, baseSnapshotId);
        ranges.sort(
                Comparator.<long[]>comparingLong(r -> r[0] - r[1]) // largest first
                        .thenComparingLong(r -> r[0]));
        long[] load = new long[numPartitions];
        TreeMap<Long, long[]> assigned = new TreeMap<>();
        for (long[] range : ranges) {
            int channel = 0;
            for (int i = 1; i < numPartitions; i++) {
                if (load[i] < load[channel]) {
                    channel = i;
                }
            }
            load[channel] += range[1] - range[0] + 1;
            assigned.put(range[0], new long[] {range[1], channel});
        }
        return assigned;
    }
}
