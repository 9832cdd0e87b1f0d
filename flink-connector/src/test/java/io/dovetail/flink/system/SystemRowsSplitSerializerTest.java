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

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * System table split and enumerator state bytes of version 1, stored in {@code
 * src/test/resources/serializer}: today's serializers write exactly these bytes and read them back
 * to the same splits. A change that fails here needs a new version that still reads them.
 */
class SystemRowsSplitSerializerTest {

    private static final SystemRowsSplit FILES =
            new SystemRowsSplit(TableLoader.at("file:/warehouse/default.db/t"), "files", 7L, 42);
    private static final SystemRowsSplit SNAPSHOTS =
            new SystemRowsSplit(
                    TableLoader.at("file:/warehouse/default.db/t"), "snapshots", null, 0);

    @Test
    void splitsHaveStoredVersion1Bytes() throws IOException {
        SystemRowsSplitSerializer serializer = new SystemRowsSplitSerializer();
        byte[] stored = stored("system-rows-split-v1.bin");
        assertThat(serializer.getVersion()).isEqualTo(1);
        assertThat(serializer.serialize(FILES)).isEqualTo(stored);
        assertThat(serializer.deserialize(1, stored)).isEqualTo(FILES);
    }

    @Test
    void enumeratorStateHasStoredVersion1Bytes() throws IOException {
        SystemRowsStateSerializer serializer = new SystemRowsStateSerializer();
        byte[] stored = stored("system-rows-enumerator-v1.bin");
        assertThat(serializer.getVersion()).isEqualTo(1);
        assertThat(serializer.serialize(List.of(FILES, SNAPSHOTS))).isEqualTo(stored);
        Collection<SystemRowsSplit> read = serializer.deserialize(1, stored);
        assertThat(read).containsExactly(FILES, SNAPSHOTS);
    }

    @Test
    void otherVersionsAndTrailingBytesAreClearErrors() throws IOException {
        SystemRowsSplitSerializer splits = new SystemRowsSplitSerializer();
        byte[] split = stored("system-rows-split-v1.bin");
        assertThatThrownBy(() -> splits.deserialize(2, split))
                .hasMessageContaining("Cannot read a Dovetail system table split of version 2");
        assertThatThrownBy(() -> splits.deserialize(1, Arrays.copyOf(split, split.length + 1)))
                .hasMessageContaining("1 bytes left after a Dovetail system table split");
        SystemRowsStateSerializer states = new SystemRowsStateSerializer();
        byte[] state = stored("system-rows-enumerator-v1.bin");
        assertThatThrownBy(() -> states.deserialize(0, state))
                .hasMessageContaining(
                        "Cannot read Dovetail system table enumerator state of version 0");
        assertThatThrownBy(() -> states.deserialize(1, Arrays.copyOf(state, state.length + 3)))
                .hasMessageContaining("3 bytes left after Dovetail system table enumerator state");
    }

    private static byte[] stored(String name) throws IOException {
        try (InputStream in =
                SystemRowsSplitSerializerTest.class.getResourceAsStream("/serializer/" + name)) {
            assertThat(in).as("stored bytes " + name).isNotNull();
            return in.readAllBytes();
        }
    }
}
