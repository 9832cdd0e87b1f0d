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

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.index.DeletionVectorMeta;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.DeletionFile;
import io.dovetail.table.read.FieldSource;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.GroupFile;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Split and enumerator state bytes of version 1, stored in {@code src/test/resources/serializer}:
 * today's serializers must write exactly these bytes and read them back to the same split. A change
 * that fails here needs a new version that still reads the stored bytes.
 */
class DovetailSplitSerializerTest {

    private static final DataField ID = new DataField(0, "id", DataTypes.BIGINT());
    private static final DataField NAME = new DataField(1, "name", DataTypes.STRING());
    private static final DataField DT = new DataField(3, "dt", DataTypes.STRING());
    static final List<DataField> FIELDS =
            List.of(ID, NAME, DT, SystemFields.ROW_ID, SystemFields.SEQUENCE_NUMBER);

    private final DovetailSplitSerializer serializer = new DovetailSplitSerializer(FIELDS);

    @Test
    void writesTheStoredVersion1Bytes() throws IOException {
        assertThat(serializer.getVersion()).isEqualTo(1);
        assertThat(serializer.serialize(split())).isEqualTo(stored("dovetail-split-v1.bin"));
    }

    @Test
    void readsTheStoredVersion1Bytes() throws IOException {
        byte[] stored = stored("dovetail-split-v1.bin");
        DovetailSplit split = serializer.deserialize(1, stored);

        assertThat(split.splitId()).isEqualTo("3");
        assertThat(split.recordsToSkip()).isEqualTo(42);
        FileGroup group = split.split().groups().get(0);
        FileGroup expected = split().split().groups().get(0);
        assertThat(group.partition()).isEqualTo(expected.partition());
        assertThat(group.range()).isEqualTo(expected.range());
        assertThat(group.anchor()).isEqualTo(expected.anchor());
        assertThat(group.files()).isEqualTo(expected.files());
        assertThat(group.sources()).isEqualTo(expected.sources());
        assertThat(group.deletionFile()).isEqualTo(expected.deletionFile());
        assertThat(group.selection()).isEqualTo(expected.selection());
        assertThat(serializer.serialize(split)).isEqualTo(stored);
    }

    @Test
    void enumeratorStateReadsAndWritesTheStoredVersion1Bytes() throws IOException {
        PendingSplitsSerializer state = new PendingSplitsSerializer(FIELDS);
        byte[] stored = stored("dovetail-enumerator-v1.bin");
        PendingSplits pending = new PendingSplits(List.of(split(), split()));

        assertThat(state.serialize(pending)).isEqualTo(stored);
        assertThat(state.deserialize(1, stored).splits())
                .extracting(DovetailSplit::splitId, DovetailSplit::recordsToSkip)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("3", 42L),
                        org.assertj.core.groups.Tuple.tuple("3", 42L));
        assertThat(state.serialize(new PendingSplits(List.of())))
                .isEqualTo(new byte[] {0, 0, 0, 0});
    }

    @Test
    void otherVersionsAndTrailingBytesAreClearErrors() throws IOException {
        byte[] stored = stored("dovetail-split-v1.bin");
        assertThatThrownBy(() -> serializer.deserialize(2, stored))
                .hasMessageContaining("Cannot read a Dovetail split of version 2");
        byte[] longer = java.util.Arrays.copyOf(stored, stored.length + 1);
        assertThatThrownBy(() -> serializer.deserialize(1, longer))
                .hasMessageContaining("1 bytes left after a Dovetail split");
        PendingSplitsSerializer state = new PendingSplitsSerializer(FIELDS);
        byte[] pending = stored("dovetail-enumerator-v1.bin");
        assertThatThrownBy(() -> state.deserialize(2, pending))
                .hasMessageContaining("Cannot read Dovetail enumerator state of version 2");
        assertThatThrownBy(
                        () ->
                                state.deserialize(
                                        1, java.util.Arrays.copyOf(pending, pending.length + 1)))
                .hasMessageContaining("1 bytes left after Dovetail enumerator state");
    }

    private static DovetailSplit split() {
        return new DovetailSplit("3", new ReadSplit(List.of(group())), 42);
    }

    /**
     * A group of a read of {@link #FIELDS} with every kind of column source, a DV and a selection.
     */
    static FileGroup group() {
        DataFileMeta base =
                DataFileMeta.builder("data-base.parquet")
                        .fileSize(4096)
                        .rowCount(100)
                        .sequenceNumbers(1, 1)
                        .schemaId(0)
                        .creationTime(1_700_000_000_000L)
                        .firstRowId(100L)
                        .build();
        DataFileMeta names =
                DataFileMeta.builder("data-names.parquet")
                        .fileSize(1024)
                        .rowCount(100)
                        .sequenceNumbers(7, 7)
                        .schemaId(1)
                        .creationTime(1_700_000_100_000L)
                        .firstRowId(100L)
                        .writeCols(List.of("name"))
                        .build();
        String dir = "file:/warehouse/default.db/t/dt=a/bucket-0/";
        return new FileGroup(
                BinaryRowCodec.of(new VarCharType(VarCharType.MAX_LENGTH))
                        .serialize(GenericRowData.of(StringData.fromString("a"))),
                new RowRange(100, 199),
                base,
                List.of(
                        new GroupFile(new Path(dir + "data-base.parquet"), base, List.of(ID)),
                        new GroupFile(new Path(dir + "data-names.parquet"), names, List.of(NAME))),
                List.of(
                        new FieldSource.FromFile(0, 0, ID),
                        new FieldSource.FromFile(1, 0, NAME),
                        new FieldSource.PartitionValue(StringData.fromString("a")),
                        new FieldSource.RowId(0, -1),
                        new FieldSource.SequenceNumber(7)),
                new DeletionFile(
                        new Path("file:/warehouse/default.db/t/index/index-1"),
                        new DeletionVectorMeta("data-base.parquet", 1, 24, 2L)),
                List.of(new RowRange(100, 120), new RowRange(150, 199)));
    }

    private static byte[] stored(String name) throws IOException {
        try (InputStream in =
                DovetailSplitSerializerTest.class.getResourceAsStream("/serializer/" + name)) {
            assertThat(in).as("stored bytes " + name).isNotNull();
            return in.readAllBytes();
        }
    }
}
