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
package io.dovetail.flink.system;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Versioned bytes of the enumerator state of a system table read: its unassigned splits. Version 1:
 * the number of splits, then each in the version-1 form of {@link SystemRowsSplitSerializer}.
 */
public final class SystemRowsStateSerializer
        implements SimpleVersionedSerializer<Collection<SystemRowsSplit>> {

    @Override
    public int getVersion() {
        return SystemRowsSplitSerializer.VERSION;
    }

    @Override
    public byte[] serialize(Collection<SystemRowsSplit> splits) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeInt(splits.size());
        for (SystemRowsSplit split : splits) {
            SystemRowsSplitSerializer.write(split, out);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public Collection<SystemRowsSplit> deserialize(int version, byte[] serialized)
            throws IOException {
        SystemRowsSplitSerializer.checkVersion(version);
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int n = in.readInt();
        List<SystemRowsSplit> splits = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            splits.add(SystemRowsSplitSerializer.read(in));
        }
        if (in.available() > 0) {
            throw new IOException(in.available() + " bytes left after system table state");
        }
        return splits;
    }
}
