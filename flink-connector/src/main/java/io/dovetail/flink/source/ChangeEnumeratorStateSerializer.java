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
import io.dovetail.table.types.DataField;

import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Versioned bytes of {@link ChangeEnumeratorState}. Version 1: whether a full snapshot follows
 * (boolean) and its id (long), the next snapshot (long), the number of pending splits and each in
 * the version-1 form of {@link ChangeSplitSerializer}, the number of in-flight split ids and each
 * id (UTF, sorted).
 */
public final class ChangeEnumeratorStateSerializer
        extends VersionedSerializer<ChangeEnumeratorState> {

    public static final int VERSION = ChangeSplitSerializer.VERSION;

    private final ChangeSplitSerializer splits;

    public ChangeEnumeratorStateSerializer(List<DataField> fields) {
        super(VERSION, "Dovetail changelog enumerator state");
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
        Set<String> inFlight = new TreeSet<>(state.inFlight());
        out.writeInt(inFlight.size());
        for (String id : inFlight) {
            out.writeUTF(id);
        }
    }

    @Override
    protected ChangeEnumeratorState read(DataInputView in) throws IOException {
        Long full = in.readBoolean() ? in.readLong() : null;
        long next = in.readLong();
        List<ChangeSplit> pending = new ArrayList<>();
        for (int n = in.readInt(); n > 0; n--) {
            pending.add(splits.read(in));
        }
        Set<String> inFlight = new LinkedHashSet<>();
        for (int n = in.readInt(); n > 0; n--) {
            inFlight.add(in.readUTF());
        }
        return new ChangeEnumeratorState(full, next, pending, inFlight);
    }
}
