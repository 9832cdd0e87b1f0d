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
import java.util.List;

/**
 * Versioned bytes of {@link PendingSplits}. Version 1: the number of splits, then each split in the
 * version-1 form of {@link DovetailSplitSerializer}.
 */
public final class PendingSplitsSerializer extends VersionedSerializer<PendingSplits> {

    public static final int VERSION = DovetailSplitSerializer.VERSION;

    private final DovetailSplitSerializer splits;

    public PendingSplitsSerializer(List<DataField> fields) {
        super(VERSION, "Dovetail enumerator state");
        this.splits = new DovetailSplitSerializer(fields);
    }

    @Override
    protected void write(PendingSplits state, DataOutputView out) throws IOException {
        out.writeInt(state.splits().size());
        for (DovetailSplit split : state.splits()) {
            splits.write(split, out);
        }
    }

    @Override
    protected PendingSplits read(DataInputView in) throws IOException {
        int n = in.readInt();
        List<DovetailSplit> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(splits.read(in));
        }
        return new PendingSplits(out);
    }
}
