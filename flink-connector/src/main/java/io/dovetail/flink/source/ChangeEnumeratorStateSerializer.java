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

import io.dovetail.flink.state.VersionedSerializer;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Versioned bytes of {@link ChangeEnumeratorState}. Version 2: whether a full snapshot follows
 * (boolean) and its id (long), the next snapshot (long), the number of pending splits and each in
 * the version-1 form of {@link ChangeSplitSerializer}, the number of splits in flight and for each
 * (sorted by id) its id (UTF), snapshot id (long), the number of its row ranges and each range's
 * first and last row id (longs). Version 1 (still read) had the in-flight split ids only, sorted;
 * their snapshot is the id's prefix and their rows are unknown.
 */
public final class ChangeEnumeratorStateSerializer
        extends VersionedSerializer<ChangeEnumeratorState> {

    public static final int VERSION = 2;

    private final ChangeSplitSerializer splits;

    public ChangeEnumeratorStateSerializer(List<DataField> fields) {
        super(1, VERSION, "Dovetail changelog enumerator state");
        this.splits = new ChangeSplitSerializer(fields);
    }

    @Override
    protected void write(ChangeEnumeratorState state, DataOutputView out) throws IOException {
        out.writeBoolean(state.fullSnapshot() != null);
        if (state.fullSnapshot() != null) {
            out.writeLong(state.fullSnapshot());
        }
        out.writeLong(state.nextSnapshot());
        out.writeInt(state.pending().size());
        for (ChangeSplit split : state.pending()) {
            splits.write(split, out);
        }
        List<ChangeEnumeratorState.AssignedSplit> inFlight = new ArrayList<>(state.inFlight());
        inFlight.sort(Comparator.comparing(ChangeEnumeratorState.AssignedSplit::splitId));
        out.writeInt(inFlight.size());
        for (ChangeEnumeratorState.AssignedSplit split : inFlight) {
            out.writeUTF(split.splitId());
            out.writeLong(split.snapshotId());
            List<RowRange> rows = split.rows() == null ? List.of() : split.rows();
            out.writeInt(split.rows() == null ? -1 : rows.size());
            for (RowRange range : rows) {
                out.writeLong(range.first());
                out.writeLong(range.last());
            }
        }
    }

    @Override
    protected ChangeEnumeratorState read(DataInputView in) throws IOException {
        return read(in, VERSION);
    }

    @Override
    protected ChangeEnumeratorState read(DataInputView in, int version) throws IOException {
        Long full = in.readBoolean() ? in.readLong() : null;
        long next = in.readLong();
        List<ChangeSplit> pending = new ArrayList<>();
        for (int n = in.readInt(); n > 0; n--) {
            pending.add(splits.read(in));
        }
        List<ChangeEnumeratorState.AssignedSplit> inFlight = new ArrayList<>();
        for (int n = in.readInt(); n > 0; n--) {
            String id = in.readUTF();
            if (version == 1) {
                long snapshot = Long.parseLong(id.substring(0, id.lastIndexOf('-')));
                inFlight.add(new ChangeEnumeratorState.AssignedSplit(id, snapshot, null));
                continue;
            }
            long snapshot = in.readLong();
            int count = in.readInt();
            List<RowRange> rows = count < 0 ? null : new ArrayList<>();
            for (int r = 0; r < count; r++) {
                rows.add(new RowRange(in.readLong(), in.readLong()));
            }
            inFlight.add(new ChangeEnumeratorState.AssignedSplit(id, snapshot, rows));
        }
        return new ChangeEnumeratorState(full, next, pending, inFlight);
    }
}
