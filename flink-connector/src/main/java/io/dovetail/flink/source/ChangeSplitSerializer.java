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
import io.dovetail.table.read.ChangeRead;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.List;

/**
 * Versioned bytes of a {@link ChangeSplit} of a changelog read of {@code fields}. Version 1: split
 * id (UTF), snapshot id (long), emitted change rows (long), finished (boolean), then the before and
 * the after side in the {@link ReadSplitCodec} form. Bump the version when that form or the
 * manifest's file record changes, and keep reading the old bytes.
 */
public final class ChangeSplitSerializer extends VersionedSerializer<ChangeSplit> {

    public static final int VERSION = 1;

    private final ReadSplitCodec codec;

    public ChangeSplitSerializer(List<DataField> fields) {
        super(VERSION, "a Dovetail change split");
        this.codec = new ReadSplitCodec(fields);
    }

    @Override
    protected void write(ChangeSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.splitId());
        out.writeLong(split.read().snapshotId());
        out.writeLong(split.emitted());
        out.writeBoolean(split.finished());
        codec.write(split.read().before(), out);
        codec.write(split.read().after(), out);
    }

    @Override
    protected ChangeSplit read(DataInputView in) throws IOException {
        String id = in.readUTF();
        long snapshotId = in.readLong();
        long emitted = in.readLong();
        boolean finished = in.readBoolean();
        ChangeRead read = new ChangeRead(snapshotId, codec.read(in), codec.read(in));
        return new ChangeSplit(id, read, emitted, finished);
    }
}
