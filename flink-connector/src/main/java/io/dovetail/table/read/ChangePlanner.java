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
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.error.Errors;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Plans the changelog of a data-evolution table snapshot by snapshot, as {@link ChangeRead}s that
 * the ordinary {@link ReadPlanner} and {@link SplitReader} read (§4.10 of the semantics: a partial
 * file alone is not a change row; the rows it touched, read whole before and after, are).
 *
 * <p>A {@link ChangelogScope#FULL full} changelog: the rows snapshot N touched are the row ranges
 * of the data files its commit added or removed (appends, partial-column files, overwrites) and the
 * rows whose deletion-vector bit changed; a {@code COMPACT} snapshot that keeps {@code nextRowId}
 * (a compaction) keeps every row id and value and touches nothing, one that moves it (a
 * deletion-vector materialization, which gives the survivors new row ids) touches its files' ranges
 * like any other commit, so each survivor is a delete of its old id and an insert of its new one.
 * Those ranges are planned at N - 1 and at N with the request's columns and partitions, but without
 * its statistics filter (a group pruned on one side only would turn an update into an insert or a
 * delete), and overlapping groups of the two plans are paired into one read.
 *
 * <p>An {@link ChangelogScope#INSERT_ONLY insert-only} changelog reads only the row ids snapshot N
 * assigned ({@code nextRowId} of N - 1 up to N's) at N, as inserts, nothing to compare: the rows of
 * appends and of a merge's inserts, and of an overwrite when overwrites are read; a compaction or a
 * materialization assigns ids to values that did not change and emits nothing.
 */
public final class ChangePlanner {

    private final TableStore store;
    private final ReadPlanner planner;

    public ChangePlanner(TableStore store) {
        this.store = store;
        this.planner = new ReadPlanner(store);
    }

    /**
     * Every row of snapshot {@code snapshotId} as an insert: the start of a full read, packed for
     * {@code readers} parallel readers ({@link ReadPlanner#plan(Snapshot, ReadRequest, int)}).
     */
    public List<ChangeRead> planFull(long snapshotId, ReadRequest request, int readers) {
        requireRowId(request);
        return whileKept(
                snapshotId,
                snapshotId,
                () -> {
                    ReadPlan plan =
                            planner.plan(readable(snapshotId, snapshotId), request, readers);
                    return plan.splits().stream()
                            .map(split -> new ChangeRead(snapshotId, ChangeRead.NOTHING, split))
                            .toList();
                });
    }

    /**
     * The changes snapshot {@code snapshotId} made to snapshot {@code snapshotId - 1}, in {@code
     * scope}; {@code readOverwrites}: whether an insert-only changelog emits the rows an overwrite
     * added (Paimon's {@code streaming-read-append-overwrite}; a full changelog always does). The
     * reads are packed for {@code readers} parallel readers: no fuller than an even share of the
     * snapshot's changes.
     */
    public List<ChangeRead> planChanges(
            long snapshotId,
            ReadRequest request,
            ChangelogScope scope,
            boolean readOverwrites,
            int readers) {
        requireRowId(request);
        return whileKept(
                Math.max(1, snapshotId - 1),
                snapshotId,
                () ->
                        scope == ChangelogScope.FULL
                                ? changes(snapshotId, request, readers)
                                : inserts(snapshotId, request, readOverwrites, readers));
    }

    /**
     * Checks before a read starts with the changes of snapshot {@code firstChangeSnapshot} that it
     * and its base were not expired; snapshots not committed yet are fine (the read waits).
     */
    public void requireKept(long firstChangeSnapshot) {
        for (long id = Math.max(1, firstChangeSnapshot - 1); id <= firstChangeSnapshot; id++) {
            if (expired(id)) {
                throw expiredError(id, firstChangeSnapshot);
            }
        }
    }

    /**
     * Runs a planning that reads the metadata of snapshots {@code oldest..reading}. Snapshot expiry
     * may delete them meanwhile (after the planning found them): a missing file of a snapshot that
     * has vanished since is the expired-snapshot error; a missing file of snapshots that are all
     * still there is damage and stays as it is.
     */
    private List<ChangeRead> whileKept(
            long oldest, long reading, Supplier<List<ChangeRead>> planning) {
        try {
            return planning.get();
        } catch (DovetailException e) {
            if (e.kind() != DovetailException.Kind.MISSING_FILE) {
                throw e;
            }
            for (long id = oldest; id <= reading; id++) {
                if (expired(id)) {
                    DovetailException expired = expiredError(id, reading);
                    expired.addSuppressed(e);
                    throw expired;
                }
            }
            throw e;
        }
    }

    private List<ChangeRead> changes(long snapshotId, ReadRequest request, int readers) {
        Snapshot after = readable(snapshotId, snapshotId);
        Snapshot before = snapshotId == 1 ? null : readable(snapshotId - 1, snapshotId);
        if (after.commitKind() == CommitKind.COMPACT && nextRowId(before) == nextRowId(after)) {
            return List.of();
        }
        SnapshotFiles afterFiles = store.files(after);
        List<RowRange> touched = new ArrayList<>();
        for (ManifestEntry entry : afterFiles.deltaEntries()) {
            if (entry.file().firstRowId() != null && entry.file().rowCount() > 0) {
                touched.add(RowRange.of(entry.file()));
            }
        }
        touched.addAll(deletionChanges(before == null ? null : store.files(before), afterFiles));
        List<RowRange> ranges =
                RowIdRanges.intersect(
                        RowRange.normalize(touched),
                        request.filter() == null
                                ? request.rowRanges()
                                : RowIdRanges.intersect(
                                        request.rowRanges(), RowIdRanges.of(request.filter())));
        if (ranges.isEmpty()) {
            return List.of();
        }
        ReadRequest touchedRows = request.withFilter(null).withRowRanges(ranges);
        List<FileGroup> beforeGroups =
                before == null ? List.of() : groups(planner.plan(before, touchedRows));
        List<FileGroup> afterGroups = groups(planner.plan(after, touchedRows));
        return pair(snapshotId, beforeGroups, afterGroups, request, readers);
    }

    private List<ChangeRead> inserts(
            long snapshotId, ReadRequest request, boolean readOverwrites, int readers) {
        Snapshot after = readable(snapshotId, snapshotId);
        CommitKind kind = after.commitKind();
        if (kind == CommitKind.COMPACT || (kind == CommitKind.OVERWRITE && !readOverwrites)) {
            return List.of();
        }
        Snapshot before = snapshotId == 1 ? null : readable(snapshotId - 1, snapshotId);
        long first = nextRowId(before);
        long end = nextRowId(after);
        if (end <= first) {
            return List.of();
        }
        List<RowRange> ranges =
                RowIdRanges.intersect(List.of(new RowRange(first, end - 1)), request.rowRanges());
        if (ranges.isEmpty()) {
            return List.of();
        }
        return planner.plan(after, request.withRowRanges(ranges), readers).splits().stream()
                .map(split -> new ChangeRead(snapshotId, ChangeRead.NOTHING, split))
                .toList();
    }

    /** The first row id {@code snapshot} had not assigned (0 before the first snapshot). */
    private static long nextRowId(@Nullable Snapshot snapshot) {
        return snapshot == null || snapshot.nextRowId() == null ? 0 : snapshot.nextRowId();
    }

    /**
     * The rows whose deletion-vector bit differs between the snapshots: only anchors whose vector
     * entry changed are read. An anchor the commit removed is covered by its removed file's range.
     */
    private List<RowRange> deletionChanges(@Nullable SnapshotFiles before, SnapshotFiles after) {
        if (before != null
                && Objects.equals(
                        before.snapshot().indexManifest(), after.snapshot().indexManifest())) {
            return List.of();
        }
        Map<String, DeletionFile> old = before == null ? Map.of() : planner.deletionFiles(before);
        Map<String, DeletionFile> now = planner.deletionFiles(after);
        Set<String> changed = new HashSet<>();
        for (String anchor : union(old.keySet(), now.keySet())) {
            if (!Objects.equals(old.get(anchor), now.get(anchor))) {
                changed.add(anchor);
            }
        }
        if (changed.isEmpty()) {
            return List.of();
        }
        List<RowRange> rows = new ArrayList<>();
        for (ManifestEntry entry : after.liveFiles()) {
            DataFileMeta file = entry.file();
            if (!changed.contains(file.fileName()) || file.firstRowId() == null) {
                continue;
            }
            DeletionVector was = vector(old.get(file.fileName()));
            DeletionVector is = vector(now.get(file.fileName()));
            for (long position : was.positionsDifferentFrom(is)) {
                rows.add(RowRange.ofCount(file.firstRowId() + position, 1));
            }
        }
        return rows;
    }

    private static DeletionVector vector(@Nullable DeletionFile file) {
        return file == null ? new DeletionVector() : file.read();
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }

    private static List<FileGroup> groups(ReadPlan plan) {
        List<FileGroup> groups = new ArrayList<>();
        plan.splits().forEach(split -> groups.addAll(split.groups()));
        return groups;
    }

    /**
     * Clusters the groups of both sides whose ranges overlap transitively (row ids belong to one
     * partition for good, so a cluster lies in one partition), then packs neighbouring clusters of
     * one partition into reads of about the target split size, or of an even share of all groups
     * for {@code readers} readers if that is less (at least the open-file cost).
     */
    private static List<ChangeRead> pair(
            long snapshotId,
            List<FileGroup> before,
            List<FileGroup> after,
            ReadRequest request,
            int readers) {
        record Sided(FileGroup group, boolean after) {}
        List<Sided> all = new ArrayList<>();
        long total = 0;
        for (FileGroup group : before) {
            all.add(new Sided(group, false));
            total += group.weight(request.openFileCost());
        }
        for (FileGroup group : after) {
            all.add(new Sided(group, true));
            total += group.weight(request.openFileCost());
        }
        long splitSize =
                Math.min(
                        request.targetSplitSize(),
                        Math.max(request.openFileCost(), (total + readers - 1) / readers));
        all.sort(Comparator.comparingLong((Sided s) -> s.group().range().first()));
        List<ChangeRead> reads = new ArrayList<>();
        List<FileGroup> beforeGroups = new ArrayList<>();
        List<FileGroup> afterGroups = new ArrayList<>();
        long clusterEnd = -1;
        long weight = 0;
        byte[] partition = null;
        for (Sided sided : all) {
            FileGroup group = sided.group();
            boolean startsCluster = group.range().first() > clusterEnd;
            boolean full = weight + group.weight(request.openFileCost()) > splitSize;
            if (partition != null
                    && startsCluster
                    && (full || !Arrays.equals(partition, group.partition()))) {
                reads.add(read(snapshotId, beforeGroups, afterGroups));
                beforeGroups = new ArrayList<>();
                afterGroups = new ArrayList<>();
                weight = 0;
            }
            (sided.after() ? afterGroups : beforeGroups).add(group);
            clusterEnd = Math.max(clusterEnd, group.range().last());
            weight += group.weight(request.openFileCost());
            partition = group.partition();
        }
        if (partition != null) {
            reads.add(read(snapshotId, beforeGroups, afterGroups));
        }
        return reads;
    }

    private static ChangeRead read(long snapshotId, List<FileGroup> before, List<FileGroup> after) {
        return new ChangeRead(snapshotId, new ReadSplit(before), new ReadSplit(after));
    }

    /**
     * Snapshot {@code id}, needed to read the changes of snapshot {@code reading}; an expired one
     * is a clear error that names the fix.
     */
    private Snapshot readable(long id, long reading) {
        try {
            return store.snapshots().snapshot(id);
        } catch (DovetailException e) {
            if (expired(id)) {
                throw expiredError(id, reading);
            }
            throw e; // not committed yet
        }
    }

    /** Whether snapshot {@code id} is gone although a later one was committed. */
    private boolean expired(long id) {
        return !store.snapshots().exists(id) && id <= store.snapshots().latestId().orElse(0);
    }

    private DovetailException expiredError(long id, long reading) {
        return Errors.expiredSnapshot(
                "read the changes of snapshot " + reading + " of table " + store.paths().root(),
                id,
                "this streaming read",
                store.snapshots().earliestId().orElse(0),
                "Set the 'consumer-id' option so that snapshot expiry keeps what a streaming read"
                        + " has not read yet, and restart the read from a snapshot that still"
                        + " exists.");
    }

    private static void requireRowId(ReadRequest request) {
        if (!request.fields().contains(SystemFields.ROW_ID)) {
            throw new IllegalArgumentException(
                    "A changelog read compares rows by _ROW_ID; read it: " + request.fields());
        }
    }
}
