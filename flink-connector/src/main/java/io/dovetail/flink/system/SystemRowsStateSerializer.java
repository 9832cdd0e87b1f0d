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

import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Versioned bytes of the enumerator state of a system table read: its unassigned splits. Version 1:
 * the number of splits, then each in the version-1 form of {@link SystemRowsSplitSerializer}.
 */
public final class SystemRowsStateSerializer
        extends VersionedSerializer<Collection<SystemRowsSplit>> {

    private final SystemRowsSplitSerializer splits = new SystemRowsSplitSerializer();

    public SystemRowsStateSerializer() {
        super(SystemRowsSplitSerializer.VERSION, "Dovetail system table enumerator state");
    }

    @Override
    protected void write(Collection<SystemRowsSplit> state, DataOutputView out) throws IOException {
        out.writeInt(state.size());
        for (SystemRowsSplit split : state) {
            splits.write(split, out);
        }
    }

    @Override
    protected Collection<SystemRowsSplit> read(DataInputView in) throws IOException {
        int n = in.readInt();
        List<SystemRowsSplit> read = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            read.add(splits.read(in));
        }
        return read;
    }
}
