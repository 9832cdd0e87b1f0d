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
package io.dovetail.flink.sink;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.index.DeletionVectorMeta;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Committable and committer-state bytes of versions 1 and 2, stored in {@code
 * src/test/resources/serializer}: today's serializers must write exactly these bytes (version 2
 * writes the committables of version 1 unchanged) and read them back to equal values. A change that
 * fails here needs a new version that still reads them.
 */
class CommittableSerializerTest {

    private final CommittableSerializer committables = new CommittableSerializer();
    private final CommitterStateSerializer states = new CommitterStateSerializer();

    @Test
    void committablesReadAndWriteTheStoredVersion1Bytes() throws IOException {
        byte[] stored = stored("dovetail-committable-v1.bin");
        assertThat(committables.getVersion()).isEqualTo(2);
        assertThat(committables.serialize(newFiles())).isEqualTo(stored);
        assertThat(committables.deserialize(1, stored)).isEqualTo(newFiles());
    }

    @Test
    void columnFilesAndDeletedRowsReadAndWriteTheirStoredVersion1Bytes() throws IOException {
        byte[] columns = stored("dovetail-committable-column-files-v1.bin");
        assertThat(committables.serialize(columnFiles())).isEqualTo(columns);
        assertThat(committables.deserialize(1, columns)).isEqualTo(columnFiles());
        byte[] deletes = stored("dovetail-committable-deleted-rows-v1.bin");
        assertThat(committables.serialize(deletedRows())).isEqualTo(deletes);
        assertThat(committables.deserialize(1, deletes)).isEqualTo(deletedRows());
    }

    @Test
    void deletionVectorsReadAndWriteTheirStoredVersion1Bytes() throws IOException {
        byte[] bytes = committables.serialize(deletionVectors());
        byte[] stored = stored("dovetail-committable-deletion-vectors-v1.bin");
        assertThat(bytes).isEqualTo(stored);
        assertThat(committables.deserialize(1, stored)).isEqualTo(deletionVectors());
    }

    @Test
    void rowUpdateFilesReadAndWriteTheirStoredVersion2Bytes() throws IOException {
        byte[] stored = stored("dovetail-committable-row-update-files-v2.bin");
        assertThat(committables.serialize(rowUpdateFiles())).isEqualTo(stored);
        assertThat(committables.deserialize(2, stored)).isEqualTo(rowUpdateFiles());
        CommitterState state =
                new CommitterState(
                        "dovetail-job-2", new TreeMap<>(Map.of(3L, List.of(rowUpdateFiles()))));
        assertThat(states.deserialize(2, states.serialize(state)).pending())
                .isEqualTo(state.pending());
    }

    @Test
    void committerStateReadsAndWritesTheStoredVersion1Bytes() throws IOException {
        byte[] stored = stored("dovetail-committer-state-v1.bin");
        assertThat(states.serialize(state())).isEqualTo(stored);
        CommitterState read = states.deserialize(1, stored);
        assertThat(read.commitUser()).isEqualTo("dovetail-job-1");
        assertThat(read.pending()).isEqualTo(state().pending());
    }

    @Test
    void otherVersionsAndTrailingBytesAreClearErrors() throws IOException {
        byte[] stored = stored("dovetail-committable-v1.bin");
        assertThatThrownBy(() -> committables.deserialize(3, stored))
                .hasMessageContaining("Cannot read a Dovetail committable of version 3");
        assertThatThrownBy(
                        () -> committables.deserialize(1, Arrays.copyOf(stored, stored.length + 1)))
                .hasMessageContaining("1 bytes left after a Dovetail committable");
        assertThatThrownBy(() -> states.deserialize(3, stored(("dovetail-committer-state-v1.bin"))))
                .hasMessageContaining("Cannot read a Dovetail committer state of version 3");
        byte[] state = stored("dovetail-committer-state-v1.bin");
        assertThatThrownBy(() -> states.deserialize(1, Arrays.copyOf(state, state.length + 1)))
                .hasMessageContaining("1 bytes left after a Dovetail committer state");
    }

    /** Two files of partition dt=a, one with statistics-free minimal metadata. */
    private static Committable newFiles() {
        byte[] partition =
                BinaryRowCodec.of(new VarCharType(VarCharType.MAX_LENGTH))
                        .serialize(GenericRowData.of(StringData.fromString("a")));
        DataFileMeta first =
                DataFileMeta.builder("data-1.parquet")
                        .fileSize(4096)
                        .rowCount(100)
                        .schemaId(2)
                        .creationTime(1_700_000_000_000L)
                        .build();
        DataFileMeta second =
                DataFileMeta.builder("data-2.orc")
                        .fileSize(512)
                        .rowCount(3)
                        .schemaId(2)
                        .creationTime(1_700_000_100_000L)
                        .build();
        return new Committable.NewFiles(
                List.of(
                        new ManifestEntry(FileKind.ADD, partition, 0, -1, first),
                        new ManifestEntry(FileKind.ADD, partition, 0, -1, second)));
    }

    /** A partial-column file of column 'caption' for rows 100..199, planned on snapshot 7. */
    private static Committable columnFiles() {
        DataFileMeta partial =
                DataFileMeta.builder("data-3.parquet")
                        .fileSize(900)
                        .rowCount(100)
                        .schemaId(3)
                        .creationTime(1_700_000_200_000L)
                        .firstRowId(100L)
                        .writeCols(List.of("caption"))
                        .build();
        return new Committable.ColumnFiles(
                7,
                List.of(
                        new ManifestEntry(
                                FileKind.ADD, BinaryRowCodec.emptyRow(), 0, -1, partial)));
    }

    /** The partial-column file of {@link #columnFiles()}, which updated rows 100, 150 .. 159. */
    static Committable rowUpdateFiles() {
        Roaring64NavigableMap rows = new Roaring64NavigableMap();
        rows.addLong(100);
        rows.addRange(150, 160);
        return new Committable.RowUpdateFiles(
                7, ((Committable.ColumnFiles) columnFiles()).files(), rows);
    }

    /** Row ids 3, 5 .. 9 and 2^33 of snapshot 4. */
    private static Committable deletedRows() {
        Roaring64NavigableMap rows = new Roaring64NavigableMap();
        rows.addLong(3);
        rows.addRange(5, 10);
        rows.addLong(1L << 33);
        return new Committable.DeletedRows(4, rows);
    }

    /** A DV index file of partition dt=a replacing an older one, planned on snapshot 5. */
    private static Committable deletionVectors() {
        byte[] partition =
                BinaryRowCodec.of(new VarCharType(VarCharType.MAX_LENGTH))
                        .serialize(GenericRowData.of(StringData.fromString("a")));
        IndexManifestEntry added =
                new IndexManifestEntry(
                        FileKind.ADD,
                        partition,
                        0,
                        new IndexFileMeta(
                                "DELETION_VECTORS",
                                "index-new-0",
                                77,
                                2,
                                List.of(
                                        new DeletionVectorMeta("data-1.parquet", 1, 30, 3L),
                                        new DeletionVectorMeta("data-2.orc", 35, 30, null)),
                                null,
                                null));
        IndexManifestEntry removed =
                new IndexManifestEntry(
                        FileKind.ADD,
                        partition,
                        0,
                        new IndexFileMeta(
                                "DELETION_VECTORS",
                                "index-old-0",
                                40,
                                1,
                                List.of(new DeletionVectorMeta("data-1.parquet", 1, 30, 1L)),
                                "file:/elsewhere/index-old-0",
                                null));
        return new Committable.DeletionVectors(
                5, new IndexChanges(List.of(added), List.of(removed)));
    }

    private static CommitterState state() {
        Map<Long, List<Committable>> pending = new TreeMap<>();
        pending.put(7L, List.of(newFiles(), newFiles()));
        pending.put(9L, List.of(newFiles()));
        return new CommitterState("dovetail-job-1", new TreeMap<>(pending));
    }

    private static byte[] stored(String name) throws IOException {
        try (InputStream in =
                CommittableSerializerTest.class.getResourceAsStream("/serializer/" + name)) {
            assertThat(in).as("stored bytes " + name).isNotNull();
            return in.readAllBytes();
        }
    }
}
