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

import io.dovetail.table.TableLoader;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Versioned bytes of a {@link SystemRowsSplit}. Version 1: the table root and the system table name
 * (modified UTF-8), a presence byte and the snapshot id, the rows emitted (long).
 */
public final class SystemRowsSplitSerializer implements SimpleVersionedSerializer<SystemRowsSplit> {

    public static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(SystemRowsSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public SystemRowsSplit deserialize(int version, byte[] serialized) throws IOException {
        checkVersion(version);
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        SystemRowsSplit split = read(in);
        if (in.available() > 0) {
            throw new IOException(in.available() + " bytes left after a system table split");
        }
        return split;
    }

    static void write(SystemRowsSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.table().location());
        out.writeUTF(split.systemTable());
        out.writeBoolean(split.snapshotId() != null);
        if (split.snapshotId() != null) {
            out.writeLong(split.snapshotId());
        }
        out.writeLong(split.emitted());
    }

    static SystemRowsSplit read(DataInputView in) throws IOException {
        TableLoader table = TableLoader.at(in.readUTF());
        String systemTable = in.readUTF();
        Long snapshotId = in.readBoolean() ? in.readLong() : null;
        return new SystemRowsSplit(table, systemTable, snapshotId, in.readLong());
    }

    static void checkVersion(int version) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "System table split state of version "
                            + version
                            + " is unknown to this Dovetail (it reads version "
                            + VERSION
                            + "); restore with the Dovetail version that wrote it.");
        }
    }
}
