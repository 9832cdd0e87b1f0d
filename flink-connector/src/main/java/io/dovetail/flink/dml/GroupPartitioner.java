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
 * stacks large groups on one writer. The base's groups are read once, where the job is built, and
 * shipped inside the partitioner as row ranges: no subtask reads the table's manifests, and every
 * subtask makes the same assignment. Row ids in no group go to writer 0, whose update reports them
 * as stale.
 *
 * <p>By group key (streaming updates, {@link #byGroupKey}): the key is the first row id of the
 * update's group in the layout {@link ColumnUpdateRouter} follows. A group of the base snapshot
 * goes to its writer as above; any other group (appended later, or a base snapshot that expired
 * before the job was built) to the writer a hash of its key picks. A group that a compaction merged
 * keeps the key, and so the writer, of its first part. The assignment depends only on the base, the
 * key and the number of writers, so every subtask agrees, after a restore at any parallelism too.
 */
public final class GroupPartitioner implements Partitioner<Long> {

    private static final long serialVersionUID = 1L;

    private final boolean byKey;

    /**
     * The base's groups as {first, last} row ids, in the order they are given out: largest first
     * (or, by table partition, the partitions largest first, each partition's groups together).
     */
    private final long[] firsts;

    private final long[] lasts;

    /**
     * By table partition: where each partition's groups start in {@link #firsts}, and its rows;
     * null otherwise.
     */
    private final int[] partitionStarts;

    private final long[] partitionRows;

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

    /** Routes by the groups of {@code baseSnapshotId} (0: none, the table is empty). */
    public GroupPartitioner(TablePaths table, long baseSnapshotId) {
        this(baseSnapshotId >= 1 ? groupRanges(table, baseSnapshotId) : List.of(), false);
    }

    private GroupPartitioner(List<long[]> ranges, boolean byKey) {
        List<long[]> sorted = new ArrayList<>(ranges);
        sorted.sort(LARGEST_FIRST);
        this.byKey = byKey;
        this.firsts = sorted.stream().mapToLong(r -> r[0]).toArray();
        this.lasts = sorted.stream().mapToLong(r -> r[1]).toArray();
        this.partitionStarts = null;
        this.partitionRows = null;
    }

    private GroupPartitioner(List<List<long[]>> largestPartitionsFirst) {
        this.byKey = false;
        int groupCount = largestPartitionsFirst.stream().mapToInt(List::size).sum();
        this.firsts = new long[groupCount];
        this.lasts = new long[groupCount];
        this.partitionStarts = new int[largestPartitionsFirst.size()];
        this.partitionRows = new long[largestPartitionsFirst.size()];
        int next = 0;
        for (int p = 0; p < largestPartitionsFirst.size(); p++) {
            partitionStarts[p] = next;
            for (long[] range : largestPartitionsFirst.get(p)) {
                firsts[next] = range[0];
                lasts[next++] = range[1];
                partitionRows[p] += range[1] - range[0] + 1;
            }
        }
    }

    /**
     * Routes group keys (first row ids, {@link ColumnUpdateRouter}): the groups of {@code
     * baseSnapshotId} (if it still exists) balanced by rows, every other key by its hash.
     */
    public static GroupPartitioner byGroupKey(TablePaths table, long baseSnapshotId) {
        boolean base =
                baseSnapshotId >= 1
                        && TableLoader.of(table).open().snapshots().exists(baseSnapshotId);
        return new GroupPartitioner(
                base ? groupRanges(table, baseSnapshotId) : List.<long[]>of(), true);
    }

    /**
     * Gives every group of one table partition to the same writer (partitions balanced by their
     * rows, largest first), for writers of deletion vectors: a partition's vectors share its index
     * files, which one writer alone may replace.
     */
    public static GroupPartitioner byTablePartition(TablePaths table, long baseSnapshotId) {
        return new GroupPartitioner(
                baseSnapshotId >= 1 ? partitionRanges(table, baseSnapshotId) : List.of());
    }

    @Override
    public int partition(Long rowId, int numPartitions) {
        if (groups == null || channels != numPartitions) {
            groups =
                    partitionStarts != null
                            ? assignPartitions(numPartitions)
                            : assign(numPartitions);
            channels = numPartitions;
        }
        Map.Entry<Long, long[]> floor = groups.floorEntry(rowId);
        if (byKey) {
            return floor != null && floor.getKey().equals(rowId)
                    ? (int) floor.getValue()[1]
                    : Math.floorMod(Long.hashCode(mix(rowId)), numPartitions);
        }
        return floor != null && rowId <= floor.getValue()[0] ? (int) floor.getValue()[1] : 0;
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
    private static List<long[]> groupRanges(TablePaths table, long snapshotId) {
        TableStore store = TableLoader.of(table).open();
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
            if (leastLoaded(load, range[1] - range[0] + 1) == writer) {
                owned.add(range[0]);
            }
        }
        return owned;
    }

    /**
     * The {first, last} row ids of the base's groups by table partition, the partitions with the
     * most rows first (a group's files of several columns count once, with its longest range).
     */
    private static List<List<long[]>> partitionRanges(TablePaths table, long snapshotId) {
        TableStore store = TableLoader.of(table).open();
        List<ManifestEntry> live = store.files(store.snapshots().snapshot(snapshotId)).liveFiles();
        Map<ByteBuffer, TreeMap<Long, Long>> byPartition = new HashMap<>();
        for (ManifestEntry entry : live) {
            DataFileMeta file = entry.file();
            if (file.firstRowId() != null && DataFileKinds.isNormal(file.fileName())) {
                byPartition
                        .computeIfAbsent(ByteBuffer.wrap(entry.partition()), k -> new TreeMap<>())
                        .merge(
                                file.firstRowId(),
                                file.firstRowId() + file.rowCount() - 1,
                                Math::max);
            }
        }
        List<List<long[]>> partitions = new ArrayList<>();
        for (TreeMap<Long, Long> ranges : byPartition.values()) {
            List<long[]> groups = new ArrayList<>();
            ranges.forEach((first, last) -> groups.add(new long[] {first, last}));
            partitions.add(groups);
        }
        partitions.sort(Comparator.comparingLong(p -> -rows(p)));
        return partitions;
    }

    private static long rows(List<long[]> ranges) {
        return ranges.stream().mapToLong(r -> r[1] - r[0] + 1).sum();
    }

    /** Gives out the groups, largest first, each to the least loaded writer. */
    private TreeMap<Long, long[]> assign(int writers) {
        TreeMap<Long, long[]> assigned = new TreeMap<>();
        long[] load = new long[writers];
        for (int g = 0; g < firsts.length; g++) {
            int channel = leastLoaded(load, lasts[g] - firsts[g] + 1);
            assigned.put(firsts[g], new long[] {lasts[g], channel});
        }
        return assigned;
    }

    /** Gives out the table partitions, largest first, each to the least loaded writer. */
    private TreeMap<Long, long[]> assignPartitions(int writers) {
        TreeMap<Long, long[]> assigned = new TreeMap<>();
        long[] load = new long[writers];
        for (int p = 0; p < partitionStarts.length; p++) {
            int channel = leastLoaded(load, partitionRows[p]);
            int end = p + 1 < partitionStarts.length ? partitionStarts[p + 1] : firsts.length;
            for (int g = partitionStarts[p]; g < end; g++) {
                assigned.put(firsts[g], new long[] {lasts[g], channel});
            }
        }
        return assigned;
    }

    /** The least loaded writer of {@code load}, which takes on {@code rows} rows. */
    private static int leastLoaded(long[] load, long rows) {
        int channel = 0;
        for (int i = 1; i < load.length; i++) {
            if (load[i] < load[channel]) {
                channel = i;
            }
        }
        load[channel] += rows;
        return channel;
    }
}
