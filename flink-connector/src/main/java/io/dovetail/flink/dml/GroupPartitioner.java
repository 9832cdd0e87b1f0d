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
package io.dovetail.flink.dml;

import io.dovetail.table.TableLoader;
import io.dovetail.table.TableStore;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.RowGroups;

import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.table.data.RowData;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Routes updates by {@code _ROW_ID} to the writer that owns the row-range group holding the row, so
 * each group's partial-column file is written by exactly one writer. Groups of the base snapshot
 * are assigned to writers by their row counts, largest first to the least loaded writer (a
 * partial-column file costs the rows of its whole group), not by a hash of the first row id, which
 * stacks large groups on one writer. Every upstream subtask computes the same assignment from the
 * same snapshot. Row ids in no group go to writer 0, whose update reports them as stale.
 *
 * <p>By group key (streaming updates, {@link #byGroupKey}): the key is the first row id of the
 * update's group in the layout {@link ColumnUpdateRouter} follows. A group of the base snapshot
 * goes to its writer as above; any other group (appended later, or a base snapshot that expired) to
 * the writer a hash of its key picks. A group that a compaction merged keeps the key, and so the
 * writer, of its first part. The assignment depends only on the base, the key and the number of
 * writers, so every subtask agrees, after a restore at any parallelism too.
 */
public final class GroupPartitioner implements Partitioner<Long> {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final long baseSnapshotId;
    private final boolean byKey;
    private final boolean wholePartitions;

    /** The {@code _ROW_ID} of an update row (its first field); -1 for NULL. */
    public static final class RowIdOfUpdate implements KeySelector<RowData, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long getKey(RowData row) {
            return row.isNullAt(0) ? -1L : row.getLong(0);
        }
    }

    /** The group key {@link ColumnUpdateRouter} gave an update. */
    public static final class GroupKeyOfUpdate implements KeySelector<Tuple2<Long, RowData>, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long getKey(Tuple2<Long, RowData> keyed) {
            return keyed.f0;
        }
    }

    private static final Comparator<long[]> LARGEST_FIRST =
            Comparator.<long[]>comparingLong(r -> r[0] - r[1]).thenComparingLong(r -> r[0]);

    private transient int channels;
    private transient TreeMap<Long, long[]> groups; // first row id -> {last row id, channel}
    private transient long[] load;

    /** Routes by the groups of {@code baseSnapshotId} (0: none, the table is empty). */
    public GroupPartitioner(TablePaths table, long baseSnapshotId) {
        this(table, baseSnapshotId, false, false);
    }

    private GroupPartitioner(
            TablePaths table, long baseSnapshotId, boolean byKey, boolean wholePartitions) {
        this.table = TableLoader.of(table);
        this.baseSnapshotId = baseSnapshotId;
        this.byKey = byKey;
        this.wholePartitions = wholePartitions;
    }

    /**
     * Routes group keys (first row ids, {@link ColumnUpdateRouter}): the groups of {@code
     * baseSnapshotId} (if it still exists) balanced by rows, every other key by its hash.
     */
    public static GroupPartitioner byGroupKey(TablePaths table, long baseSnapshotId) {
        return new GroupPartitioner(table, baseSnapshotId, true, false);
    }

    /**
     * Gives every group of one table partition to the same writer (partitions balanced by their
     * rows, largest first), for writers of deletion vectors: a partition's vectors share its index
     * files, which one writer alone may replace.
     */
    public static GroupPartitioner byTablePartition(TablePaths table, long baseSnapshotId) {
        return new GroupPartitioner(table, baseSnapshotId, false, true);
    }

    @Override
    public int partition(Long rowId, int numPartitions) {
        if (groups == null || channels != numPartitions) {
            groups = new TreeMap<>();
            load = new long[numPartitions];
            channels = numPartitions;
            if (baseSnapshotId >= 1 && wholePartitions) {
                assignWholePartitions();
            } else if (baseSnapshotId >= 1 && (!byKey || baseExists())) {
                List<long[]> ranges = groupRanges(table, baseSnapshotId);
                ranges.sort(LARGEST_FIRST);
                ranges.forEach(this::assign);
            }
        }
        Map.Entry<Long, long[]> floor = groups.floorEntry(rowId);
        if (byKey) {
            return floor != null && floor.getKey().equals(rowId)
                    ? (int) floor.getValue()[1]
                    : Math.floorMod(Long.hashCode(mix(rowId)), numPartitions);
        }
        return floor != null && rowId <= floor.getValue()[0] ? (int) floor.getValue()[1] : 0;
    }

    private boolean baseExists() {
        return table.open().snapshots().exists(baseSnapshotId);
    }

    /** MurmurHash3's 64-bit finalizer: neighbouring keys land on unrelated writers. */
    private static long mix(long key) {
        long h = key;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** The {first, last} row ids of every row-range group of {@code snapshotId}. */
    private static List<long[]> groupRanges(TableLoader table, long snapshotId) {
        TableStore store = table.open();
        List<ManifestEntry> live = store.files(store.snapshots().snapshot(snapshotId)).liveFiles();
        List<long[]> ranges = new ArrayList<>();
        for (RowRange range : RowGroups.rangesOfLiveFiles(live)) {
            ranges.add(new long[] {range.first(), range.last()});
        }
        return ranges;
    }

    /**
     * The first row ids of the groups of {@code ranges} that writer {@code writer} of {@code
     * writers} owns, by the assignment this partitioner makes of the base snapshot's groups.
     */
    public static Set<Long> groupsOf(int writer, int writers, List<long[]> ranges) {
        List<long[]> sorted = new ArrayList<>(ranges);
        sorted.sort(LARGEST_FIRST);
        long[] load = new long[writers];
        Set<Long> owned = new HashSet<>();
        for (long[] range : sorted) {
            if (leastLoaded(load, range) == writer) {
                owned.add(range[0]);
            }
        }
        return owned;
    }

    /** Gives the groups of each table partition of the base to one writer, largest first. */
    private void assignWholePartitions() {
        TableStore store = table.open();
        List<ManifestEntry> live =
                store.files(store.snapshots().snapshot(baseSnapshotId)).liveFiles();
        Map<ByteBuffer, List<long[]>> byPartition = new HashMap<>();
        Map<ByteBuffer, Long> rows = new HashMap<>();
        for (ManifestEntry entry : live) {
            DataFileMeta file = entry.file();
            if (file.firstRowId() != null && DataFileKinds.isNormal(file.fileName())) {
                ByteBuffer partition = ByteBuffer.wrap(entry.partition());
                byPartition
                        .computeIfAbsent(partition, k -> new ArrayList<>())
                        .add(
                                new long[] {
                                    file.firstRowId(), file.firstRowId() + file.rowCount() - 1
                                });
                rows.merge(partition, file.rowCount(), Long::sum);
            }
        }
        List<ByteBuffer> largestFirst = new ArrayList<>(byPartition.keySet());
        largestFirst.sort(Comparator.comparingLong((ByteBuffer b) -> -rows.get(b)));
        for (ByteBuffer partition : largestFirst) {
            long[] total = {0, rows.get(partition) - 1};
            int channel = leastLoaded(load, total);
            for (long[] range : byPartition.get(partition)) {
                groups.merge(
                        range[0],
                        new long[] {range[1], channel},
                        (a, b) -> new long[] {Math.max(a[0], b[0]), a[1]});
            }
        }
    }

    /** Gives the group {@code range} to the least loaded writer. */
    private void assign(long[] range) {
        int channel = leastLoaded(load, range);
        groups.put(range[0], new long[] {range[1], channel});
    }

    /** The least loaded writer of {@code load}, which takes on the rows of {@code range}. */
    private static int leastLoaded(long[] load, long[] range) {
        int channel = 0;
        for (int i = 1; i < load.length; i++) {
            if (load[i] < load[channel]) {
                channel = i;
            }
        }
        load[channel] += range[1] - range[0] + 1;
        return channel;
    }
}
