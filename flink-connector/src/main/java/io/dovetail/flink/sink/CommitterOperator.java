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

import io.dovetail.table.TableLoader;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.snapshot.SnapshotPins;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The one committer of a write job (parallelism 1). Committables received before checkpoint N's
 * barrier are kept under N in operator state and committed as one snapshot, with identifier N, once
 * N completes. A restored committer first commits every checkpoint in its state (they completed, or
 * it would not have been restored from them), skipping those its commit user had already committed.
 * Without checkpoints (batch, or bounded input without checkpointing) it commits everything at the
 * end of input, with Paimon's batch identifier, then releases the job's pin of its base snapshot
 * ({@link SnapshotPins}), if it has one, also when the table refuses the commit (a conflict): only
 * an I/O failure, which a restarted attempt may get past, keeps it until its lease ends.
 */
final class CommitterOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<Committable, Void>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private static final CommitterStateSerializer STATE_SERIALIZER = new CommitterStateSerializer();

    private final TableLoader table;
    private final String initialCommitUser;
    @Nullable private final OverwriteScope overwrite;
    private final boolean commitAtEndOfInput;
    @Nullable private final String pin;

    private transient TableCommitter committer;
    private transient ListState<byte[]> state;
    private transient List<Committable> received;
    private transient NavigableMap<Long, List<Committable>> pending;
    private transient Counter snapshotsCommitted;
    private transient Counter filesCommitted;
    private transient Counter rowsDeleted;
    private transient volatile long lastCommitDurationMs;
    private transient volatile long lastCommittedSnapshotId;

    CommitterOperator(
            TablePaths table,
            String commitUser,
            @Nullable OverwriteScope overwrite,
            boolean commitAtEndOfInput,
            @Nullable String pin) {
        this.table = TableLoader.of(table);
        this.initialCommitUser = commitUser;
        this.overwrite = overwrite;
        this.commitAtEndOfInput = commitAtEndOfInput;
        this.pin = pin;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        snapshotsCommitted = getMetricGroup().counter(SinkMetrics.SNAPSHOTS_COMMITTED);
        filesCommitted = getMetricGroup().counter(SinkMetrics.FILES_COMMITTED);
        rowsDeleted = getMetricGroup().counter(SinkMetrics.ROWS_DELETED);
        getMetricGroup().gauge(SinkMetrics.LAST_COMMIT_DURATION, () -> lastCommitDurationMs);
        getMetricGroup().gauge(SinkMetrics.LAST_COMMITTED_SNAPSHOT, () -> lastCommittedSnapshotId);
        state =
                context.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "dovetail-committer",
                                        BytePrimitiveArraySerializer.INSTANCE));
        String commitUser = initialCommitUser;
        pending = new TreeMap<>();
        received = new ArrayList<>();
        if (context.isRestored()) {
            for (byte[] bytes : state.get()) {
                CommitterState restored =
                        SimpleVersionedSerialization.readVersionAndDeSerialize(
                                STATE_SERIALIZER, bytes);
                commitUser = restored.commitUser();
                pending.putAll(restored.pending());
            }
        }
        committer = new TableCommitter(table.open(), commitUser, overwrite);
        if (!pending.isEmpty()) {
            long committedUpTo = committer.lastCommittedIdentifier();
            pending.headMap(committedUpTo, true).clear();
            commitUpTo(Long.MAX_VALUE);
        }
    }

    @Override
    public void processElement(StreamRecord<Committable> element) {
        received.add(element.getValue());
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (!received.isEmpty()) {
            pending.put(context.getCheckpointId(), received);
            received = new ArrayList<>();
        }
        state.update(
                List.of(
                        SimpleVersionedSerialization.writeVersionAndSerialize(
                                STATE_SERIALIZER,
                                new CommitterState(committer.commitUser(), pending))));
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        commitUpTo(checkpointId);
    }

    @Override
    public void endInput() {
        if (commitAtEndOfInput) {
            List<Committable> all = new ArrayList<>();
            pending.values().forEach(all::addAll);
            all.addAll(received);
            pending.clear();
            received = new ArrayList<>();
            boolean committed;
            try {
                committed = commit(CommitRequest.BATCH_IDENTIFIER, all);
            } catch (DovetailException e) {
                if (e.kind() != DovetailException.Kind.IO) {
                    releasePin(); // refused (a conflict): no attempt of the job can commit
                }
                throw e;
            }
            releasePin();
            if (committed) {
                committer.expireSnapshots();
            }
        }
    }

    /** Releases the job's pin of its base snapshot, if it has one: it need not stay any longer. */
    private void releasePin() {
        if (pin != null) {
            new SnapshotPins(table.paths()).release(pin);
        }
    }

    private void commitUpTo(long checkpointId) {
        Map<Long, List<Committable>> due = pending.headMap(checkpointId, true);
        boolean committed = false;
        for (Map.Entry<Long, List<Committable>> checkpoint : due.entrySet()) {
            committed |= commit(checkpoint.getKey(), checkpoint.getValue());
        }
        due.clear();
        if (committed) {
            committer.expireSnapshots();
        }
    }

    private boolean commit(long identifier, List<Committable> committables) {
        long start = System.nanoTime();
        Optional<Snapshot> snapshot = committer.commit(identifier, committables);
        if (snapshot.isEmpty()) {
            return false;
        }
        lastCommitDurationMs = (System.nanoTime() - start) / 1_000_000;
        lastCommittedSnapshotId = snapshot.get().id();
        snapshotsCommitted.inc();
        filesCommitted.inc(committables.stream().mapToLong(Committable::fileCount).sum());
        for (Committable committable : committables) {
            if (committable instanceof Committable.DeletedRows deleted) {
                rowsDeleted.inc(deleted.rowIds().getLongCardinality());
            }
        }
        return true;
    }
}
