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

import io.dovetail.flink.state.VersionedSerializer;
import io.dovetail.table.TableLoader;

import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Versioned bytes of a {@link SystemRowsSplit}. Version 1: the table root and the system table name
 * (modified UTF-8), a presence byte and the snapshot id, the rows emitted (long).
 */
public final class SystemRowsSplitSerializer extends VersionedSerializer<SystemRowsSplit> {

    public static final int VERSION = 1;

    public SystemRowsSplitSerializer() {
        super(VERSION, "a Dovetail system table split");
    }

    @Override
    protected void write(SystemRowsSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.table().location());
        out.writeUTF(split.systemTable());
        out.writeBoolean(split.snapshotId() != null);
        if (split.snapshotId() != null) {
            out.writeLong(split.snapshotId());
        }
        out.writeLong(split.emitted());
    }

    @Override
    protected SystemRowsSplit read(DataInputView in) throws IOException {
        TableLoader table = TableLoader.at(in.readUTF());
        String systemTable = in.readUTF();
        Long snapshotId = in.readBoolean() ? in.readLong() : null;
        return new SystemRowsSplit(table, systemTable, snapshotId, in.readLong());
    }
}
