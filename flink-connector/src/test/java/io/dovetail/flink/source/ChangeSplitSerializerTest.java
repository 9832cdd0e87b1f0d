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

import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.ChangeRead;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.ReadSplit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import static io.dovetail.flink.source.DovetailSplitSerializerTest.FIELDS;
import static io.dovetail.flink.source.DovetailSplitSerializerTest.group;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Changelog split bytes of version 1 and enumerator state bytes of versions 1 and 2, stored in
 * {@code src/test/resources/serializer}: today's serializers must write exactly the bytes of their
 * version, read them back to the same values and still read the older version. A change that fails
 * here needs a new version that still reads them.
 */
class ChangeSplitSerializerTest {

    private final ChangeSplitSerializer serializer = new ChangeSplitSerializer(FIELDS);

    @Test
    void splitsReadAndWriteTheStoredVersion1Bytes() throws IOException {
        byte[] stored = stored("change-split-v1.bin");
        assertThat(serializer.getVersion()).isEqualTo(1);
        assertThat(serializer.serialize(split())).isEqualTo(stored);

        ChangeSplit read = serializer.deserialize(1, stored);
        assertThat(read.splitId()).isEqualTo("7-2");
        assertThat(read.emitted()).isEqualTo(11);
        assertThat(read.finished()).isFalse();
        assertThat(read.read().snapshotId()).isEqualTo(7);
        assertSameGroup(read.read().before().groups().get(0));
        assertSameGroup(read.read().after().groups().get(0));
        assertThat(serializer.serialize(read)).isEqualTo(stored);
    }

    @Test
    void enumeratorStateReadsTheStoredVersion1Bytes() throws IOException {
        ChangeEnumeratorStateSerializer states = new ChangeEnumeratorStateSerializer(FIELDS);
        ChangeEnumeratorState read = states.deserialize(1, stored("change-enumerator-v1.bin"));
        assertThat(read.fullSnapshot()).isEqualTo(6L);
        assertThat(read.nextSnapshot()).isEqualTo(7);
        assertThat(read.pending())
                .extracting(ChangeSplit::splitId, ChangeSplit::finished)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("7-2", false),
                        org.assertj.core.groups.Tuple.tuple("7-2", true));
        assertThat(read.pending().get(1).read().after().groups()).isEmpty();
        assertThat(read.inFlight())
                .as("version 1 kept no rows: unknown, so they hold every row")
                .containsExactly(
                        new ChangeEnumeratorState.AssignedSplit("7-0", 7, null),
                        new ChangeEnumeratorState.AssignedSplit("7-1", 7, null));
    }

    @Test
    void enumeratorStateReadsAndWritesTheStoredVersion2Bytes() throws IOException {
        ChangeEnumeratorStateSerializer states = new ChangeEnumeratorStateSerializer(FIELDS);
        assertThat(states.getVersion()).isEqualTo(2);
        ChangeEnumeratorState state =
                new ChangeEnumeratorState(
                        null,
                        8,
                        List.of(split()),
                        List.of(
                                new ChangeEnumeratorState.AssignedSplit(
                                        "7-1",
                                        7,
                                        List.of(new RowRange(0, 9), new RowRange(20, 29))),
                                new ChangeEnumeratorState.AssignedSplit("6-0", 6, null)));
        byte[] stored = stored("change-enumerator-v2.bin");
        assertThat(states.serialize(state)).isEqualTo(stored);

        ChangeEnumeratorState read = states.deserialize(2, stored);
        assertThat(read.fullSnapshot()).isNull();
        assertThat(read.nextSnapshot()).isEqualTo(8);
        assertThat(read.pending()).extracting(ChangeSplit::splitId).containsExactly("7-2");
        assertSameGroup(read.pending().get(0).read().after().groups().get(0));
        assertThat(read.inFlight())
                .as("sorted by split id")
                .containsExactly(state.inFlight().get(1), state.inFlight().get(0));
        assertThat(states.serialize(read)).isEqualTo(stored);
        ChangeEnumeratorState empty = new ChangeEnumeratorState(6L, 1, List.of(), List.of());
        assertThat(states.deserialize(2, states.serialize(empty))).isEqualTo(empty);
        assertThatThrownBy(() -> states.deserialize(3, stored))
                .hasMessageContaining("enumerator state of version 3");
    }

    @Test
    void otherVersionsAndTrailingBytesAreClearErrors() throws IOException {
        byte[] stored = stored("change-split-v1.bin");
        assertThatThrownBy(() -> serializer.deserialize(2, stored))
                .hasMessageContaining("Cannot read a Dovetail change split of version 2");
        byte[] longer = java.util.Arrays.copyOf(stored, stored.length + 1);
        assertThatThrownBy(() -> serializer.deserialize(1, longer))
                .hasMessageContaining("1 bytes left after a Dovetail change split");
        ChangeEnumeratorStateSerializer states = new ChangeEnumeratorStateSerializer(FIELDS);
        byte[] state = stored("change-enumerator-v1.bin");
        assertThatThrownBy(() -> states.deserialize(3, state))
                .hasMessageContaining(
                        "Cannot read Dovetail changelog enumerator state of version 3; this"
                                + " connector reads versions 1 to 2");
        assertThatThrownBy(
                        () ->
                                states.deserialize(
                                        1, java.util.Arrays.copyOf(state, state.length + 2)))
                .hasMessageContaining("2 bytes left after Dovetail changelog enumerator state");
    }

    private static ChangeSplit split() {
        ReadSplit side = new ReadSplit(List.of(group()));
        return new ChangeSplit("7-2", new ChangeRead(7, side, side), 11, false);
    }

    private static void assertSameGroup(FileGroup group) {
        FileGroup expected = group();
        assertThat(group.partition()).isEqualTo(expected.partition());
        assertThat(group.range()).isEqualTo(expected.range());
        assertThat(group.anchor()).isEqualTo(expected.anchor());
        assertThat(group.files()).isEqualTo(expected.files());
        assertThat(group.sources()).isEqualTo(expected.sources());
        assertThat(group.deletionFile()).isEqualTo(expected.deletionFile());
        assertThat(group.selection()).isEqualTo(expected.selection());
    }

    private static byte[] stored(String name) throws IOException {
        try (InputStream in =
                ChangeSplitSerializerTest.class.getResourceAsStream("/serializer/" + name)) {
            assertThat(in).as("stored bytes " + name).isNotNull();
            return in.readAllBytes();
        }
    }
}
