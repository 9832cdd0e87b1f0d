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
package io.dovetail.flink.source;

import io.dovetail.table.TableStore;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.ChangePlanner;
import io.dovetail.table.read.ChangeRead;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.snapshot.Consumers;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * Plans a changelog read snapshot by snapshot on the JobManager and hands out its splits on
 * request, one at a time, to every reader in parallel, keeping each row's changes in order.
 *
 * <p>Ordering: a row's changes reach downstream in snapshot order, a {@code -U} before its {@code
 * +U} (one split emits both, in order). The splits of a row go through one reader for as long as
 * its earlier records may still be on their way ({@link RowClaims}): a split goes to the reader
 * that claims its rows, to any reader if none does, and waits while two readers (or a reader
 * unknown since a restore) claim them, until a checkpoint taken after their reports completed.
 * Pending splits are handed out in snapshot order, and a split never overtakes an earlier pending
 * split of the same rows. A reader holds at most one unfinished split, so a restore (at any
 * parallelism) never hands two splits of a row to two readers at once. Without checkpointing,
 * claims never end: a row's changes stay with the reader that read it first.
 *
 * <p>The next snapshot is planned as soon as every split of the previous one is handed out, so
 * readers go on with it while others finish theirs.
 *
 * <p>Split completion: readers report a finished split ({@link SplitProgress}) and keep the report
 * in their state until acknowledged, so a report lost to a restore is sent again.
 *
 * <p>With a consumer id, every completed checkpoint records in {@code consumer/consumer-<id>} the
 * next snapshot whose changes are not durably read (Paimon's {@code nextSnapshot}), so snapshot
 * expiry keeps it and the one before it, and a job started without state with that id goes on
 * there; the file is rewritten at least every {@link #CONSUMER_REFRESH} while the read runs.
 */
final class ChangelogSplitEnumerator
        implements SplitEnumerator<ChangeSplit, ChangeEnumeratorState> {

    /**
     * A consumer's file is rewritten at least this often while the read runs, unchanged or not, so
     * {@code consumer.expiration-time} removes only consumers that stopped.
     */
    static final Duration CONSUMER_REFRESH = Duration.ofMinutes(1);

    /** Planned splits in snapshot order, then in planned order. */
    private static final Comparator<ChangeSplit> PLANNED_ORDER =
            ChangelogSplitEnumerator::compareIds;

    private final SplitEnumeratorContext<ChangeSplit> context;
    private final ChangelogStart start;
    private final TableStore store;
    private final ReadRequest request;
    private final ChangePlanner planner;

    @Nullable private Long fullSnapshot;
    private long nextSnapshot;
    private final TreeSet<ChangeSplit> pending = new TreeSet<>(PLANNED_ORDER);
    private final RowClaims claims = new RowClaims();

    /** The consumer position of each checkpoint not yet completed. */
    private final NavigableMap<Long, Long> positions = new TreeMap<>();

    private final Set<Integer> waiting = new LinkedHashSet<>();
    private boolean planning;

    private long latestSnapshot;
    private long recordedPosition = -1;
    private long recordedAt;

    ChangelogSplitEnumerator(
            SplitEnumeratorContext<ChangeSplit> context,
            TableStore store,
            ReadRequest request,
            ChangelogStart start,
            ChangeEnumeratorState state) {
        this.context = context;
        this.start = start;
        this.store = store;
        this.request = request;
        this.planner = new ChangePlanner(store);
        this.fullSnapshot = state.fullSnapshot();
        this.nextSnapshot = state.nextSnapshot();
        this.pending.addAll(state.pending());
        claims.restore(state.inFlight());
    }

    @Override
    public void start() {
        long interval = start.discoveryInterval().toMillis();
        context.callAsync(
                () -> store.snapshots().latestId().orElse(0),
                (latest, error) -> {
                    if (error != null) {
                        throw new FlinkRuntimeException("Cannot list the table's snapshots", error);
                    }
                    latestSnapshot = Math.max(latestSnapshot, latest);
                    advance();
                },
                0,
                interval);
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        waiting.add(subtaskId);
        assignWaiting();
        advance();
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent event) {
        if (event instanceof SplitProgress.Finished report) {
            claims.reported(report.splitId(), subtaskId);
            context.sendEventToSourceReader(
                    subtaskId, new SplitProgress.Acknowledged(report.splitId()));
            assignWaiting();
            advance();
        }
    }

    @Override
    public void addSplitsBack(List<ChangeSplit> splits, int subtaskId) {
        for (ChangeSplit split : splits) {
            claims.released(split.splitId());
            if (!split.finished()) {
                pending.add(split);
            }
        }
        assignWaiting();
    }

    /** A (re)started reader: what it reported finished but is not durable is in flight again. */
    @Override
    public void addReader(int subtaskId) {
        claims.readerRestarted(subtaskId);
    }

    @Override
    public ChangeEnumeratorState snapshotState(long checkpointId) {
        claims.snapshot(checkpointId);
        positions.put(checkpointId, nextUnread());
        return new ChangeEnumeratorState(
                fullSnapshot, nextSnapshot, List.copyOf(pending), claims.inFlight());
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        claims.completed(checkpointId);
        Map.Entry<Long, Long> position = positions.floorEntry(checkpointId);
        positions.headMap(checkpointId, true).clear();
        long now = System.currentTimeMillis();
        if (start.consumerId() != null
                && position != null
                && position.getValue() >= 1
                && (position.getValue() != recordedPosition
                        || now - recordedAt >= CONSUMER_REFRESH.toMillis())) {
            new Consumers(store.paths()).record(start.consumerId(), position.getValue());
            recordedPosition = position.getValue();
            recordedAt = now;
        }
        assignWaiting(); // splits held back for claims that ended may go now
        advance();
    }

    /**
     * The first snapshot whose changes this read has not read as of now: the one after the full
     * snapshot while that is not planned, the oldest snapshot with a split pending or in flight, or
     * the next one to plan.
     */
    private long nextUnread() {
        if (fullSnapshot != null) {
            return fullSnapshot + 1;
        }
        long unread = nextSnapshot;
        if (!pending.isEmpty()) {
            unread = Math.min(unread, pending.first().read().snapshotId());
        }
        Long inFlight = claims.oldestInFlight();
        return inFlight == null ? unread : Math.min(unread, inFlight);
    }

    /** Plans the next snapshot once every split of the previous one was handed out. */
    private void advance() {
        if (planning || !pending.isEmpty()) {
            return;
        }
        int readers = Math.max(1, context.currentParallelism());
        if (fullSnapshot != null) {
            long snapshot = fullSnapshot;
            plan(snapshot, () -> planner.planFull(snapshot, request, readers));
        } else if (nextSnapshot <= latestSnapshot) {
            long snapshot = nextSnapshot;
            plan(
                    snapshot,
                    () ->
                            planner.planChanges(
                                    snapshot,
                                    request,
                                    start.scope(),
                                    start.readOverwrites(),
                                    readers));
        }
    }

    private void plan(long snapshot, Callable<List<ChangeRead>> planning) {
        this.planning = true;
        context.callAsync(
                planning,
                (reads, error) -> {
                    this.planning = false;
                    if (error != null) {
                        throw new FlinkRuntimeException(
                                "Cannot plan the changes of snapshot " + snapshot, error);
                    }
                    fullSnapshot = null; // a full read is planned before any change
                    nextSnapshot = snapshot + 1;
                    for (int i = 0; i < reads.size(); i++) {
                        pending.add(new ChangeSplit(snapshot + "-" + i, reads.get(i), 0, false));
                    }
                    assignWaiting();
                    advance();
                });
    }

    /**
     * Hands each waiting reader the first pending split it may read: one whose rows nobody or the
     * reader itself claims, and that no earlier pending split shares rows with. A split whose rows
     * two readers claim is cut into one split per claimant first ({@link #cut}).
     */
    private void assignWaiting() {
        waiting.removeIf(subtask -> !context.registeredReaders().containsKey(subtask));
        boolean split;
        do {
            split = false;
            List<RowRange> heldBack = new ArrayList<>();
            Iterator<ChangeSplit> it = pending.iterator();
            while (it.hasNext() && !waiting.isEmpty()) {
                ChangeSplit next = it.next();
                List<RowRange> rows = RowClaims.rowsOf(next);
                if (RowClaims.overlap(heldBack, rows)) {
                    heldBack.addAll(rows);
                    continue;
                }
                Set<Integer> holders = claims.holders(rows);
                if (holders.size() > 1 && !holders.contains(RowClaims.UNKNOWN)) {
                    List<ChangeSplit> pieces = cut(next);
                    if (pieces != null) {
                        pending.remove(next);
                        pending.addAll(pieces);
                        split = true;
                        break;
                    }
                }
                Integer reader = readerFor(holders);
                if (reader == null) {
                    heldBack.addAll(rows);
                    continue;
                }
                it.remove();
                waiting.remove(reader);
                claims.assigned(next, reader);
                context.assignSplit(next, reader);
            }
        } while (split);
    }

    /** The waiting reader that may read rows claimed by {@code holders} now, or null. */
    @Nullable
    private Integer readerFor(Set<Integer> holders) {
        if (holders.isEmpty()) {
            return waiting.iterator().next();
        }
        int holder = holders.iterator().next();
        return holders.size() == 1 && waiting.contains(holder) ? holder : null;
    }

    /**
     * {@code split} as one split per reader that claims some of its rows, each reading only those
     * rows (of both sides), the rows nobody claims going with the first: a compaction or a
     * materialization put rows that two readers read into one group. Each piece reads its groups'
     * files for its rows only. Null if a piece would still have two claimants (claims of two
     * readers never share rows, so it does not happen).
     */
    @Nullable
    private List<ChangeSplit> cut(ChangeSplit split) {
        List<RowRange> rows = RowClaims.rowsOf(split);
        List<List<RowRange>> pieces = new ArrayList<>();
        List<RowRange> unclaimed = rows;
        for (int reader : new TreeSet<>(claims.holders(rows))) {
            List<RowRange> claimed = claims.claimedBy(reader, rows);
            pieces.add(new ArrayList<>(claimed));
            unclaimed = RowClaims.subtract(unclaimed, claimed);
        }
        pieces.get(0).addAll(unclaimed);
        List<ChangeSplit> cut = new ArrayList<>();
        for (int i = 0; i < pieces.size(); i++) {
            List<RowRange> piece = RowRange.normalize(pieces.get(i));
            ChangeRead read = split.read();
            ChangeSplit one =
                    new ChangeSplit(
                            split.splitId() + "-" + i,
                            new ChangeRead(
                                    read.snapshotId(),
                                    restrict(read.before(), piece),
                                    restrict(read.after(), piece)),
                            0,
                            false);
            if (claims.holders(RowClaims.rowsOf(one)).size() > 1) {
                return null;
            }
            cut.add(one);
        }
        return cut;
    }

    /** The groups of {@code side} that hold rows of {@code rows}, selecting those rows only. */
    private static ReadSplit restrict(ReadSplit side, List<RowRange> rows) {
        List<FileGroup> groups = new ArrayList<>();
        for (FileGroup group : side.groups()) {
            List<RowRange> selected =
                    RowClaims.intersect(
                            group.selection() == null ? List.of(group.range()) : group.selection(),
                            rows);
            if (!selected.isEmpty()) {
                groups.add(
                        new FileGroup(
                                group.partition(),
                                group.range(),
                                group.anchor(),
                                group.files(),
                                group.sources(),
                                group.deletionFile(),
                                RowRange.normalize(selected)));
            }
        }
        return new ReadSplit(groups);
    }

    /**
     * The planned position of a split: split ids are {@code snapshot-index}, with {@code -piece}
     * appended for each {@link #cut}.
     */
    private static int compareIds(ChangeSplit a, ChangeSplit b) {
        String[] x = a.splitId().split("-");
        String[] y = b.splitId().split("-");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = Long.compare(Long.parseLong(x[i]), Long.parseLong(y[i]));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    }

    @Override
    public void close() {}
}
