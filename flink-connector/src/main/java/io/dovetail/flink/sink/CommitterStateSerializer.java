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

import io.dovetail.flink.state.VersionedSerializer;

import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Versioned bytes of a {@link CommitterState}, of the version of its committables (1 and 2 are
 * read): the commit user (UTF), the number of pending checkpoints, then per checkpoint its id and
 * its committables in the {@link CommittableSerializer} form of the same version.
 */
final class CommitterStateSerializer extends VersionedSerializer<CommitterState> {

    private final CommittableSerializer committables = new CommittableSerializer();

    CommitterStateSerializer() {
        super(1, CommittableSerializer.VERSION, "a Dovetail committer state");
    }

    @Override
    protected void write(CommitterState state, DataOutputView out) throws IOException {
        out.writeUTF(state.commitUser());
        out.writeInt(state.pending().size());
        for (Map.Entry<Long, List<Committable>> checkpoint : state.pending().entrySet()) {
            out.writeLong(checkpoint.getKey());
            out.writeInt(checkpoint.getValue().size());
            for (Committable committable : checkpoint.getValue()) {
                committables.write(committable, out);
            }
        }
    }

    @Override
    protected CommitterState read(DataInputView in) throws IOException {
        String commitUser = in.readUTF();
        int checkpoints = in.readInt();
        TreeMap<Long, List<Committable>> pending = new TreeMap<>();
        for (int i = 0; i < checkpoints; i++) {
            long checkpointId = in.readLong();
            int n = in.readInt();
            List<Committable> committables = new ArrayList<>(n);
            for (int j = 0; j < n; j++) {
                committables.add(this.committables.read(in));
            }
            pending.put(checkpointId, committables);
        }
        return new CommitterState(commitUser, pending);
    }
}
