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

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Versioned bytes of a {@link CommitterState}. Version 1: the commit user (UTF), the number of
 * pending checkpoints, then per checkpoint its id and its committables in the {@link
 * CommittableSerializer} form of the same version.
 */
final class CommitterStateSerializer implements SimpleVersionedSerializer<CommitterState> {

    @Override
    public int getVersion() {
        return CommittableSerializer.VERSION;
    }

    @Override
    public byte[] serialize(CommitterState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeUTF(state.commitUser());
        out.writeInt(state.pending().size());
        for (Map.Entry<Long, List<Committable>> checkpoint : state.pending().entrySet()) {
            out.writeLong(checkpoint.getKey());
            out.writeInt(checkpoint.getValue().size());
            for (Committable committable : checkpoint.getValue()) {
                CommittableSerializer.write(committable, out);
            }
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public CommitterState deserialize(int version, byte[] serialized) throws IOException {
        CommittableSerializer.checkVersion(version, "committer state");
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        String commitUser = in.readUTF();
        int checkpoints = in.readInt();
        TreeMap<Long, List<Committable>> pending = new TreeMap<>();
        for (int i = 0; i < checkpoints; i++) {
            long checkpointId = in.readLong();
            int n = in.readInt();
            List<Committable> committables = new ArrayList<>(n);
            for (int j = 0; j < n; j++) {
                committables.add(CommittableSerializer.read(in));
            }
            pending.put(checkpointId, committables);
        }
        if (in.available() > 0) {
            throw new IOException(in.available() + " bytes left after a Dovetail committer state");
        }
        return new CommitterState(commitUser, pending);
    }
}
