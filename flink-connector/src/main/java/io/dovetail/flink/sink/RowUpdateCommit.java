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
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.RowGroups;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.update.UpdatedRowsMerge;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Commits the row-update files of one checkpoint ({@link Committable.RowUpdateFiles}) as one column
 * update on the latest snapshot L. A write (one writer's files over one group: its partial-column
 * file with the {@code .blob} and vector-store files of the same rows, or those alone for an update
 * of BLOB or VECTOR columns only) goes in as written when it is alone in a live range of L that
 * equals its own and no commit since its base (but a compaction) added a file over that range;
 * every other write is merged row by row ({@link UpdatedRowsMerge}) into one new file per live
 * range: files of ranges a compaction merged since, several files of one range (writers whose
 * routing a compaction changed, or one writer's flushes by memory), and files an earlier commit of
 * the same rows overtook (the previous checkpoint's, committed after this one was written, or
 * another job's). Only the rows each write updated are taken, so nothing another commit wrote is
 * reverted; but a vector-store file carries all the columns of its bunch, so the other VECTOR
 * columns of those rows keep the values the write read (at its base). A compaction that commits
 * between reading L and the commit (one that split a range the commit cannot rebase onto) makes it
 * plan again on the new latest snapshot, at most {@value #MAX_REPLANS} times.
 */
final class RowUpdateCommit {

    private static final Logger LOG = LoggerFactory.getLogger(RowUpdateCommit.class);

    /** Re-plans of one checkpoint's commit after compactions that overtook it. */
    private static final int MAX_REPLANS = 10;

    private final TableStore store;
    private final TableCommit commit;
    private final String commitUser;

    RowUpdateCommit(TableStore store, TableCommit commit, String commitUser) {
        this.store = store;
        this.commit = commit;
        this.commitUser = commitUser;
    }

    /**
     * One write of one group (its partial-column file and its {@code .blob} and vector-store files,
     * or only the latter) and the base it was planned on.
     */
    private record Planned(UpdatedRowsMerge.Write write, long base) {}

    Snapshot commit(long identifier, List<Committable.RowUpdateFiles> updates) {
        List<Planned> writes = new ArrayList<>();
        Set<String> columns = new LinkedHashSet<>();
        for (Committable.RowUpdateFiles update : updates) {
            Map<Long, List<ManifestEntry>> byRange = new LinkedHashMap<>();
            for (ManifestEntry file : update.files()) {
                if (file.file().writeCols() != null) {
                    columns.addAll(file.file().writeCols());
                }
                byRange.computeIfAbsent(file.file().firstRowId(), k -> new ArrayList<>()).add(file);
            }
            for (List<ManifestEntry> files : byRange.values()) {
                writes.add(
                        new Planned(
                                new UpdatedRowsMerge.Write(files, update.updatedRows()),
                                update.baseSnapshotId()));
            }
        }
        for (int replans = 0; ; replans++) {
            Snapshot latest = store.latestSnapshot().orElseThrow();
            // a column update commits as APPEND
            Optional<Snapshot> done = commit.committed(commitUser, identifier, CommitKind.APPEND);
            if (done.isPresent()) {
                return done.get(); // a replay after recovery
            }
            try {
                return commitOnto(latest, identifier, writes, List.copyOf(columns));
            } catch (DovetailException e) {
                if (replans >= MAX_REPLANS || !compactedSince(latest)) {
                    throw e;
                }
                LOG.info(
                        "Checkpoint {}'s column update, planned on snapshot {}, lost to a"
                                + " compaction; planning it again on the latest snapshot",
                        identifier,
                        latest.id(),
                        e);
            }
        }
    }

    /**
     * Commits {@code writes} onto {@code latest}: as written where nothing changed their range
     * since their base, else merged row by row into files planned on {@code latest}. A refused
     * commit deletes the files it wrote and leaves the staged ones.
     */
    private Snapshot commitOnto(
            Snapshot latest, long identifier, List<Planned> writes, List<String> columns) {
        SnapshotFiles files = store.files(latest);
        TreeMap<Long, RowRange> live = new TreeMap<>();
        RowGroups.rangesOfLiveFiles(files.liveFiles()).forEach(r -> live.put(r.first(), r));
        Map<Long, Integer> writesPerRange = new HashMap<>();
        Map<Planned, RowRange> rangeOf = new HashMap<>();
        for (Planned planned : writes) {
            RowRange range = liveRange(live, planned.write().range());
            if (range != null) {
                rangeOf.put(planned, range);
                writesPerRange.merge(range.first(), 1, Integer::sum);
            }
        }
        ChangedRanges changed = new ChangedRanges(writes, latest);
        List<ManifestEntry> kept = new ArrayList<>();
        List<UpdatedRowsMerge.Write> merged = new ArrayList<>();
        List<ManifestEntry> replaced = new ArrayList<>();
        for (Planned planned : writes) {
            RowRange range = rangeOf.get(planned);
            boolean asWritten =
                    range != null
                            && range.equals(planned.write().range())
                            && writesPerRange.get(range.first()) == 1
                            && !changed.since(planned.base(), range);
            if (asWritten) {
                kept.addAll(planned.write().files());
            } else {
                merged.add(planned.write());
                replaced.addAll(planned.write().files());
            }
        }
        List<ManifestEntry> rewritten =
                merged.isEmpty()
                        ? List.of()
                        : UpdatedRowsMerge.onto(store, latest, columns).write(merged);
        List<ManifestEntry> all = new ArrayList<>(kept);
        all.addAll(rewritten);
        Snapshot snapshot;
        try {
            snapshot =
                    commit.commit(
                            CommitRequest.columnUpdate(commitUser, identifier, latest.id(), all));
        } catch (DovetailException e) {
            delete(files, rewritten);
            throw e;
        }
        if (snapshot.id() > latest.id()) {
            delete(files, replaced); // this commit made it: no snapshot references them
        }
        return snapshot;
    }

    /**
     * Whether a compaction committed after {@code snapshot}: between planning on it and the commit
     * (which rebases onto compactions that merged ranges, but not onto ones that split them).
     */
    private boolean compactedSince(Snapshot snapshot) {
        long latest = store.snapshots().latestId().orElse(snapshot.id());
        for (long id = snapshot.id() + 1; id <= latest; id++) {
            if (store.snapshots().exists(id)
                    && store.snapshots().snapshot(id).commitKind() == CommitKind.COMPACT) {
                return true;
            }
        }
        return false;
    }

    /** The live range of L that holds {@code range}, or null if none does (stale rows). */
    private static RowRange liveRange(TreeMap<Long, RowRange> live, RowRange range) {
        Map.Entry<Long, RowRange> floor = live.floorEntry(range.first());
        return floor != null && floor.getValue().contains(range) ? floor.getValue() : null;
    }

    private static void delete(SnapshotFiles files, List<ManifestEntry> entries) {
        entries.forEach(e -> FileIO.deleteQuietly(files.dataFilePath(e)));
    }

    /** The row ranges each non-COMPACT snapshot after the oldest base added files over. */
    private final class ChangedRanges {

        private static final List<RowRange> EVERY_ROW = List.of(new RowRange(0, Long.MAX_VALUE));

        private final TreeMap<Long, List<RowRange>> bySnapshot = new TreeMap<>();

        ChangedRanges(List<Planned> writes, Snapshot latest) {
            long oldest = writes.stream().mapToLong(Planned::base).min().orElse(latest.id());
            for (long id = oldest + 1; id <= latest.id(); id++) {
                if (id < latest.id() && !store.snapshots().exists(id)) {
                    bySnapshot.put(id, EVERY_ROW); // expired: assume it changed everything
                    continue;
                }
                Snapshot snapshot = id == latest.id() ? latest : store.snapshots().snapshot(id);
                if (snapshot.commitKind() == CommitKind.COMPACT) {
                    continue;
                }
                List<RowRange> ranges = new ArrayList<>();
                for (ManifestEntry entry : store.files(snapshot).deltaEntries()) {
                    if (entry.file().firstRowId() != null && entry.file().rowCount() > 0) {
                        ranges.add(RowRange.of(entry.file()));
                    }
                }
                bySnapshot.put(id, ranges);
            }
        }

        /** Whether a snapshot after {@code base} added a file over rows of {@code range}. */
        boolean since(long base, RowRange range) {
            for (List<RowRange> ranges : bySnapshot.tailMap(base, false).values()) {
                for (RowRange changed : ranges) {
                    if (changed.overlaps(range)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }
}
