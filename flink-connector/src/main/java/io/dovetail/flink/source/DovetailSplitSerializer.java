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
import java.util.List;

/**
 * Versioned bytes of a {@link DovetailSplit} of a read of {@code fields}. Version 1: split id
 * (UTF), records to skip (long), then the {@link ReadSplitCodec} form. Bump the version when that
 * form or the manifest's file record changes, and keep reading the old bytes.
 */
public final class DovetailSplitSerializer extends VersionedSerializer<DovetailSplit> {

    public static final int VERSION = 1;

    private final ReadSplitCodec codec;

    public DovetailSplitSerializer(List<DataField> fields) {
        super(VERSION, "a Dovetail split");
        this.codec = new ReadSplitCodec(fields);
    }

    @Override
    protected void write(DovetailSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.splitId());
        out.writeLong(split.recordsToSkip());
        codec.write(split.split(), out);
    }

    @Override
    protected DovetailSplit read(DataInputView in) throws IOException {
        String id = in.readUTF();
        long skip = in.readLong();
        return new DovetailSplit(id, codec.read(in), skip);
    }
}
