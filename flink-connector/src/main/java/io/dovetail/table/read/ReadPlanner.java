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

import io.dovetail.table.TableStore;
import io.dovetail.table.delete.DeletionVectorAnchors;
import io.dovetail.table.error.Errors;
import io.dovetail.table.index.DeletionVectorIndexFile;
import io.dovetail.table.index.DeletionVectorMeta;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.predicate.BoundsCheck;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;

import javax.annotation.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Plans a data-evolution read of one snapshot, with cost proportional to the number of live files:
 *
 * <ol>
 *   <li>live files → partition filter → {@code _ROW_ID} range pruning by the requested row ranges,
 *       those the filter implies ({@link RowIdRanges}) and, per partition, those the global indexes
 *       allow for the filter's equalities and INs ({@link GlobalIndexRowIds});
 *   <li>groups: files of a partition whose row ranges overlap transitively ({@link RowGroups},
 *       which also validates the layout);
 *   <li>per group: the filter's statistics check ({@link GroupStatistics}, {@link BoundsCheck})
 *       drops groups that cannot hold a passing row; the anchor (oldest normal file by
 *       (maxSequenceNumber, file name)) and its deletion vector, then {@link ProviderSelection}
 *       keeps only the files that provide a requested column;
 *   <li>splits: whole groups of one partition in row-id order, packed up to the target size.
 * </ol>
 */
public final class ReadPlanner {

    private final TableStore store;

    public ReadPlanner(TableStore store) {
        this.store = store;
    }

    /** Plans {@code request} over the latest snapshot; an empty table has no splits. */
    public ReadPlan planLatest(ReadRequest request) {
        return store.latestSnapshot()
                .map(s -> plan(s, request))
                .orElseGet(() -> new ReadPlan(request.fields(), List.of()));
    }

    public ReadPlan plan(Snapshot snapshot, ReadRequest request) {
        return plan(snapshot, request, 1);
    }

    /**
     * Plans {@code request} for {@code readers} parallel readers: splits are packed up to the
     * request's target size, but no fuller than an even share of the whole read (at least the
     * open-file cost), so that a read of fewer bytes than {@code readers} target sizes still gives
     * each reader a split when there are groups enough. One reader packs as {@link #plan(Snapshot,
     * ReadRequest)} does.
     */
    public ReadPlan plan(Snapshot snapshot, ReadRequest request, int readers) {
        if (readers < 1) {
            throw new IllegalArgumentException("readers must be positive, got " + readers);
        }
        SnapshotFiles files = store.files(snapshot);
        TableSchema snapshotSchema = store.schemas().schema(snapshot.schemaId());
        Function<byte[], PartitionValues> partitionDecoder =
                PartitionValues.decoder(snapshotSchema);
        Map<ByteBuffer, PartitionValues> partitions = new HashMap<>();
        Map<ByteBuffer, Boolean> partitionAccepted = new HashMap<>();
        Map<ByteBuffer, List<ManifestEntry>> byPartition = new LinkedHashMap<>();
        List<RowRange> rowRanges = rowRanges(request);
        Map<ByteBuffer, List<RowRange>> indexed = new HashMap<>();
        if (request.filter() != null && request.globalIndexes()) {
            GlobalIndexRowIds.of(store, files, request.filter())
                    .forEach((p, r) -> indexed.put(p, RowIdRanges.intersect(rowRanges, r)));
        }
        for (ManifestEntry entry : files.liveFiles()) {
            DataFileMeta file = entry.file();
            if (file.firstRowId() == null) {
                throw Errors.invalidLayout(
                        "Data file "
                                + file.fileName()
                                + " has no first row id; every file of a data-evolution table"
                                + " needs one (was the table written without row tracking?).");
            }
            ByteBuffer partition = ByteBuffer.wrap(entry.partition());
            boolean accepted =
                    partitionAccepted.computeIfAbsent(
                            partition,
                            p -> {
                                PartitionValues values = partitionDecoder.apply(entry.partition());
                                partitions.put(p, values);
                                return request.partitionFilter().test(values.row());
                            });
            if (accepted && inRowRanges(file, indexed.getOrDefault(partition, rowRanges))) {
                byPartition.computeIfAbsent(partition, p -> new ArrayList<>()).add(entry);
            }
        }
        Map<String, DeletionFile> deletionFiles = deletionFiles(files);
        Map<Long, TableSchema> schemaCache = new HashMap<>();
        LongFunction<TableSchema> schemas =
                id -> schemaCache.computeIfAbsent(id, store.schemas()::schema);
        GroupStatistics statistics = new GroupStatistics(schemas);
        List<List<FileGroup>> groupsByPartition = new ArrayList<>();
        long weight = 0;
        for (Map.Entry<ByteBuffer, List<ManifestEntry>> partition : byPartition.entrySet()) {
            PartitionValues values = partitions.get(partition.getKey());
            List<FileGroup> groups = new ArrayList<>();
            for (List<ManifestEntry> group : RowGroups.of(partition.getValue())) {
                FileGroup planned =
                        planGroup(
                                group,
                                values,
                                files,
                                request,
                                indexed.getOrDefault(partition.getKey(), rowRanges),
                                deletionFiles,
                                schemas,
                                statistics);
                if (planned != null) {
                    groups.add(planned);
                    weight += planned.weight(request.openFileCost());
                }
            }
            groupsByPartition.add(groups);
        }
        long splitSize =
                Math.min(
                        request.targetSplitSize(),
                        Math.max(request.openFileCost(), (weight + readers - 1) / readers));
        List<ReadSplit> splits = new ArrayList<>();
        for (List<FileGroup> groups : groupsByPartition) {
            splits.addAll(pack(groups, splitSize, request.openFileCost()));
        }
        return new ReadPlan(request.fields(), splits);
    }

    /**
     * The row ids to read: the request's row ranges and those its filter's {@code _ROW_ID}
     * predicates imply ({@link RowIdRanges}), or null for all.
     */
    @Nullable
    private static List<RowRange> rowRanges(ReadRequest request) {
        return request.filter() == null
                ? request.rowRanges()
                : RowIdRanges.intersect(request.rowRanges(), RowIdRanges.of(request.filter()));
    }

    private static boolean inRowRanges(DataFileMeta file, List<RowRange> ranges) {
        if (ranges == null) {
            return true;
        }
        if (file.rowCount() == 0) {
            return false;
        }
        RowRange range = RowRange.ofCount(file.firstRowId(), file.rowCount());
        return ranges.stream().anyMatch(range::overlaps);
    }

    /** The group as read, or null when the filter proves that no row of it passes. */
    @Nullable
    private static FileGroup planGroup(
            List<ManifestEntry> group,
            PartitionValues partition,
            SnapshotFiles files,
            ReadRequest request,
            @Nullable List<RowRange> rowRanges,
            Map<String, DeletionFile> deletionFiles,
            LongFunction<TableSchema> schemas,
            GroupStatistics statistics) {
        List<ProviderSelection.Candidate> normal = new ArrayList<>();
        List<ProviderSelection.Candidate> dedicated = new ArrayList<>();
        for (ManifestEntry entry : group) {
            ProviderSelection.Candidate candidate =
                    new ProviderSelection.Candidate(files.dataFilePath(entry), entry.file());
            (RowGroups.isNormal(entry.file()) ? normal : dedicated).add(candidate);
        }
        DataFileMeta anchor =
                normal.stream()
                        .map(ProviderSelection.Candidate::meta)
                        .min(DeletionVectorAnchors.ANCHOR_ORDER)
                        .orElseThrow();
        RowRange range = RowRange.ofCount(anchor.firstRowId(), anchor.rowCount());
        ProviderSelection.Providers providers =
                ProviderSelection.of(normal, dedicated, partition, schemas);
        if (request.filter() != null
                && !BoundsCheck.mayMatch(request.filter(), statistics.of(providers, range))) {
            return null;
        }
        List<RowRange> selection = null;
        if (rowRanges != null) {
            List<RowRange> inside = range.intersect(rowRanges);
            if (!(inside.size() == 1 && inside.get(0).equals(range))) {
                selection = inside;
            }
        }
        ProviderSelection.Selected selected =
                providers.select(request.fields(), request.blobsAsDescriptors());
        return new FileGroup(
                group.get(0).partition(),
                range,
                anchor,
                selected.files(),
                selected.sources(),
                deletionFiles.get(anchor.fileName()),
                selection);
    }

    private static List<ReadSplit> pack(List<FileGroup> groups, long splitSize, long openFileCost) {
        groups.sort(Comparator.comparingLong(g -> g.range().first()));
        List<ReadSplit> splits = new ArrayList<>();
        List<FileGroup> current = new ArrayList<>();
        long weight = 0;
        for (FileGroup group : groups) {
            long w = group.weight(openFileCost);
            if (!current.isEmpty() && weight + w > splitSize) {
                splits.add(new ReadSplit(current));
                current = new ArrayList<>();
                weight = 0;
            }
            current.add(group);
            weight += w;
        }
        if (!current.isEmpty()) {
            splits.add(new ReadSplit(current));
        }
        return splits;
    }

    /** The live deletion vectors of the snapshot, by the data file (anchor) they belong to. */
    public Map<String, DeletionFile> deletionFiles(SnapshotFiles files) {
        Map<String, DeletionFile> out = new HashMap<>();
        for (IndexManifestEntry entry : files.indexFiles()) {
            if (entry.kind() != FileKind.ADD
                    || !DeletionVectorIndexFile.INDEX_TYPE.equals(entry.indexFile().indexType())
                    || entry.indexFile().deletionVectors() == null) {
                continue;
            }
            for (DeletionVectorMeta meta : entry.indexFile().deletionVectors()) {
                out.put(
                        meta.dataFileName(),
                        new DeletionFile(entry.indexFile().path(store.paths().indexDir()), meta));
            }
        }
        return out;
    }
}
