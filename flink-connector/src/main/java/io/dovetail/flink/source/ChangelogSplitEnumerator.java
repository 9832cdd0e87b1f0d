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
import io.dovetail.table.read.ChangePlanner;
import io.dovetail.table.read.ChangeRead;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.snapshot.Consumers;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * Plans a changelog read snapshot by snapshot on the JobManager and hands out its splits on
 * request, one at a time.
 *
 * <p>Ordering: the splits of snapshot N are handed out only after every split of the snapshots
 * before it was read to the end <em>and</em> a checkpoint taken after the last such report
 * completed. So the changes of snapshot N of a row reach downstream before those of N + 1 at any
 * parallelism, and a failover can never make a reader re-read part of N while another reader
 * already emits N + 1 (a restored reader would re-emit the rows of N after its checkpoint). The
 * price is at most one checkpoint interval of idleness between snapshots.
 *
 * <p>Split completion: readers report a finished split ({@link SplitProgress}) and keep the report
 * in their state until acknowledged, so a report lost to a restore is sent again. A report received
 * after checkpoint C's enumerator snapshot is durable once checkpoint C + 1 completes; when a
 * reader restarts first, its reported splits count as in flight again (it re-reads or re-reports
 * them). Until the job's first checkpoint (and without checkpointing) a report is durable when it
 * arrives: there is no checkpoint a failover could go back to. But without a checkpoint barrier
 * behind the reported rows nothing says they reached downstream, so until a checkpoint taken after
 * such reports completes (without checkpointing: always) every split goes to one reader, {@link
 * #SOLE_READER}, whose single channel keeps each snapshot's rows ahead of the next one's.
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

    /** The reader that gets every split while reports have no checkpoint barrier behind them. */
    static final int SOLE_READER = 0;

    private final SplitEnumeratorContext<ChangeSplit> context;
    private final ChangelogStart start;
    private final TableStore store;
    private final ReadRequest request;
    private final ChangePlanner planner;

    @Nullable private Long fullSnapshot;
    private long nextSnapshot;
    private final Deque<ChangeSplit> pending;

    /** Splits handed out and not reported finished, by id: the reader (-1: unknown, restored). */
    private final Map<String, Integer> inFlight = new HashMap<>();

    /** Reported finished after the last enumerator snapshot. */
    private final Map<String, Integer> finished = new HashMap<>();

    /** Reported finished before the enumerator snapshot of a checkpoint not yet completed. */
    private final NavigableMap<Long, Map<String, Integer>> finishedBy = new TreeMap<>();

    /** The consumer position of each checkpoint not yet completed. */
    private final NavigableMap<Long, Long> positions = new TreeMap<>();

    private final Set<Integer> waiting = new LinkedHashSet<>();
    private boolean planning;

    /** Whether a checkpoint was taken since start; without, a report is durable at once. */
    private boolean checkpointing;

    /** Reports were counted before any checkpoint; only {@link #SOLE_READER} gets splits. */
    private boolean unbarriered;

    /** The first checkpoint taken after the unbarriered reports (-1: none yet). */
    private long barrier = -1;

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
        this.pending = new ArrayDeque<>(state.pending());
        state.inFlight().forEach(id -> inFlight.put(id, -1));
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
            if (inFlight.remove(report.splitId()) != null) {
                if (checkpointing) {
                    finished.put(report.splitId(), subtaskId);
                } else {
                    unbarriered = true;
                }
            }
            context.sendEventToSourceReader(
                    subtaskId, new SplitProgress.Acknowledged(report.splitId()));
            advance();
        }
    }

    @Override
    public void addSplitsBack(List<ChangeSplit> splits, int subtaskId) {
        List<ChangeSplit> reversed = new ArrayList<>(splits);
        Collections.reverse(reversed);
        for (ChangeSplit split : reversed) {
            inFlight.remove(split.splitId());
            finished.remove(split.splitId());
            finishedBy.values().forEach(m -> m.remove(split.splitId()));
            if (!split.finished()) {
                pending.addFirst(split);
            }
        }
        assignWaiting();
    }

    /** A (re)started reader: what it reported finished but is not durable is in flight again. */
    @Override
    public void addReader(int subtaskId) {
        backInFlight(finished, subtaskId);
        finishedBy.values().forEach(m -> backInFlight(m, subtaskId));
    }

    private void backInFlight(Map<String, Integer> reports, int subtaskId) {
        Iterator<Map.Entry<String, Integer>> it = reports.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Integer> report = it.next();
            if (report.getValue() == subtaskId) {
                inFlight.put(report.getKey(), subtaskId);
                it.remove();
            }
        }
    }

    @Override
    public ChangeEnumeratorState snapshotState(long checkpointId) {
        checkpointing = true;
        if (unbarriered && barrier < 0) {
            barrier = checkpointId;
        }
        if (!finished.isEmpty()) {
            finishedBy.put(checkpointId, new HashMap<>(finished));
            finished.clear();
        }
        positions.put(checkpointId, nextUnread());
        return new ChangeEnumeratorState(
                fullSnapshot, nextSnapshot, List.copyOf(pending), inFlight.keySet());
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        finishedBy.headMap(checkpointId, true).clear();
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
        if (unbarriered && barrier >= 0 && checkpointId >= barrier) {
            unbarriered = false;
        }
        assignWaiting(); // readers held back for the sole reader may get splits now
        advance();
    }

    /**
     * The first snapshot whose changes this read has not read as of now: the one after the full
     * snapshot while that is read, the snapshot being read, or the next one.
     */
    private long nextUnread() {
        if (fullSnapshot != null) {
            return fullSnapshot + 1;
        }
        boolean reading = !pending.isEmpty() || !inFlight.isEmpty();
        return reading ? nextSnapshot - 1 : nextSnapshot;
    }

    /** Plans the next snapshot once the current one is durably read. */
    private void advance() {
        boolean busy =
                planning
                        || !pending.isEmpty()
                        || !inFlight.isEmpty()
                        || !finished.isEmpty()
                        || !finishedBy.isEmpty();
        if (busy) {
            return;
        }
        if (fullSnapshot != null) {
            long snapshot = fullSnapshot;
            plan(snapshot, () -> planner.planFull(snapshot, request));
        } else if (nextSnapshot <= latestSnapshot) {
            long snapshot = nextSnapshot;
            plan(
                    snapshot,
                    () ->
                            planner.planChanges(
                                    snapshot, request, start.scope(), start.readOverwrites()));
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

    private void assignWaiting() {
        boolean sole = !checkpointing || unbarriered;
        Iterator<Integer> it = waiting.iterator();
        while (it.hasNext() && !pending.isEmpty()) {
            int subtask = it.next();
            if (sole && subtask != SOLE_READER) {
                continue;
            }
            it.remove();
            if (context.registeredReaders().containsKey(subtask)) {
                ChangeSplit split = pending.poll();
                inFlight.put(split.splitId(), subtask);
                context.assignSplit(split, subtask);
            }
        }
    }

    @Override
    public void close() {}
}
