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
package io.dovetail.table.index;

import io.dovetail.table.error.DovetailException;

import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** DV index files: golden bytes of section 6.2 and Appendix A.3, and damaged files. */
class DeletionVectorIndexFileTest {

    private static final HexFormat HEX = HexFormat.of();

    @TempDir java.nio.file.Path tempDir;

    @Test
    void singleVectorFileMatchesPaimonBytes() throws IOException {
        IndexFileMeta meta = writeOne("data-0.parquet", DeletionVector.of(0, 1, 2));

        assertThat(HEX.formatHex(Files.readAllBytes(tempDir.resolve(meta.fileName()))))
                .isEqualTo(
                        "01"
                                + "0000001a"
                                + "5e43f2d0"
                                + "3a300000010000000000020010000000000001000200"
                                + "dd861c02");
        assertThat(meta.fileName()).matches("index-[0-9a-f-]{36}-\\d+");
        assertThat(meta.indexType()).isEqualTo("DELETION_VECTORS");
        assertThat(meta.fileSize()).isEqualTo(35);
        assertThat(meta.rowCount()).isEqualTo(1);
        assertThat(meta.deletionVectors())
                .containsExactly(new DeletionVectorMeta("data-0.parquet", 1, 26, 3L));
    }

    @Test
    void arrayAndRunContainersMatchAppendixA3() throws IOException {
        IndexFileMeta arrays = writeOne("a", DeletionVector.of(1, 5, 100_000));
        DeletionVector range = new DeletionVector();
        for (int i = 0; i < 1000; i++) {
            range.add(i);
        }
        IndexFileMeta runs = writeOne("b", range);

        assertThat(entryHex(arrays))
                .isEqualTo(
                        "00000022"
                                + "5e43f2d0"
                                + "3a300000"
                                + "02000000"
                                + "00000100"
                                + "01000000"
                                + "18000000"
                                + "1c000000"
                                + "01000500"
                                + "a086"
                                + "038d4e4d");
        assertThat(entryHex(runs))
                .isEqualTo(
                        "00000013"
                                + "5e43f2d0"
                                + "3b300000"
                                + "01"
                                + "0000e703"
                                + "0100"
                                + "0000e703"
                                + "5d08589f");
        assertThat(runs.deletionVectors().get(0).length()).isEqualTo(0x13);
        assertThat(read(runs, 0)).isEqualTo(range);
    }

    @Test
    void vectorsAreReadBackByOffsetAndAltogether() {
        Map<String, DeletionVector> vectors = new LinkedHashMap<>();
        vectors.put("data-1", DeletionVector.of(7));
        vectors.put("data-2", DeletionVector.of(0, 65_536, Integer.MAX_VALUE));
        vectors.put("data-3", new DeletionVector());

        List<IndexFileMeta> metas = new DeletionVectorIndexFile(dir()).write(vectors);

        assertThat(metas).hasSize(1);
        IndexFileMeta meta = metas.get(0);
        assertThat(DeletionVectorIndexFile.readAll(dir(), meta)).isEqualTo(vectors);
        assertThat(read(meta, 1)).isEqualTo(vectors.get("data-2"));
        assertThat(meta.deletionVectors().get(1).cardinality()).isEqualTo(3);
    }

    @Test
    void rollsAtTheTargetSize() {
        Map<String, DeletionVector> vectors = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            vectors.put("data-" + i, DeletionVector.of(i, i + 100_000));
        }

        List<IndexFileMeta> metas = new DeletionVectorIndexFile(dir(), 100).write(vectors);

        assertThat(metas).hasSizeGreaterThan(2);
        Map<String, DeletionVector> readBack = new LinkedHashMap<>();
        for (IndexFileMeta meta : metas) {
            assertThat(meta.fileSize())
                    .isEqualTo(tempDir.resolve(meta.fileName()).toFile().length());
            readBack.putAll(DeletionVectorIndexFile.readAll(dir(), meta));
        }
        assertThat(readBack).isEqualTo(vectors);
        assertThat(new DeletionVectorIndexFile(dir()).write(Map.of())).isEmpty();
    }

    @Test
    void badCrcIsCorrupt() throws IOException {
        IndexFileMeta meta = writeOne("data-0", DeletionVector.of(1, 2));
        byte[] bytes = Files.readAllBytes(tempDir.resolve(meta.fileName()));
        bytes[bytes.length - 1] ^= 1;
        Files.write(tempDir.resolve(meta.fileName()), bytes);

        assertThatThrownBy(() -> read(meta, 0))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(meta.fileName())
                .hasMessageContaining("data-0")
                .hasMessageContaining("CRC-32 mismatch");
    }

    @Test
    void badMagicIsCorrupt() throws IOException {
        byte[] payload = DeletionVector.of(3).serialize();
        payload[0] = 0x11;
        IndexFileMeta meta = writeRaw("bad-magic", payload, payload.length);

        assertThatThrownBy(() -> read(meta, 0))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("magic number");
    }

    @Test
    void sixtyFourBitVectorIsNotSupported() throws IOException {
        ByteBuffer payload = ByteBuffer.allocate(68).order(ByteOrder.LITTLE_ENDIAN);
        payload.putInt(DeletionVector.MAGIC_64).putLong(2);
        payload.putInt(0).put(portable(RoaringBitmap.bitmapOf(1, 5, 100_000)));
        payload.putInt(1).put(portable(RoaringBitmap.bitmapOf(705_032_704)));
        assertThat(payload.remaining()).isZero();
        IndexFileMeta meta = writeRaw("data-64", payload.array(), 4 + 68 + 4);

        assertThat(HEX.formatHex(payload.array(), 0, 4)).isEqualTo("d1d33964");
        assertThatThrownBy(() -> read(meta, 0))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("64-bit deletion vector")
                .hasMessageContaining("data-64")
                .satisfies(
                        e ->
                                assertThat(((DovetailException) e).kind())
                                        .isEqualTo(DovetailException.Kind.UNSUPPORTED));
        assertThatThrownBy(() -> DeletionVectorIndexFile.readAll(dir(), meta))
                .hasMessageContaining("64-bit deletion vector");
    }

    @Test
    void truncatedFilesAndWrongVersionsAreCorrupt() throws IOException {
        IndexFileMeta meta = writeOne("data-0", DeletionVector.of(1, 2, 3));
        java.nio.file.Path file = tempDir.resolve(meta.fileName());
        byte[] bytes = Files.readAllBytes(file);

        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 3));
        assertThatThrownBy(() -> read(meta, 0)).hasMessageContaining("truncated");
        assertThatThrownBy(() -> DeletionVectorIndexFile.readAll(dir(), meta))
                .hasMessageContaining("the file has 32 bytes but the index manifest records 35");

        bytes[0] = 2;
        Files.write(file, bytes);
        assertThatThrownBy(() -> DeletionVectorIndexFile.readAll(dir(), meta))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("version is 2");
    }

    @Test
    void recordedLengthAndCardinalityMustAgree() {
        IndexFileMeta meta = writeOne("data-0", DeletionVector.of(1, 2, 3));
        DeletionVectorMeta range = meta.deletionVectors().get(0);

        assertThatThrownBy(
                        () ->
                                DeletionVectorIndexFile.read(
                                        file(meta),
                                        new DeletionVectorMeta(
                                                "data-0", 1, range.length() + 1, 3L)))
                .hasMessageContaining("differs from recorded");
        assertThatThrownBy(
                        () ->
                                DeletionVectorIndexFile.read(
                                        file(meta),
                                        new DeletionVectorMeta("data-0", 1, range.length(), 4L)))
                .hasMessageContaining("records 4");
    }

    private IndexFileMeta writeOne(String dataFile, DeletionVector vector) {
        List<IndexFileMeta> metas =
                new DeletionVectorIndexFile(dir()).write(Map.of(dataFile, vector));
        assertThat(metas).hasSize(1);
        return metas.get(0);
    }

    /** An index file with one hand-made entry (valid CRC) and the given recorded length. */
    private IndexFileMeta writeRaw(String dataFile, byte[] payload, int recordedLength)
            throws IOException {
        CRC32 crc = new CRC32();
        crc.update(payload);
        ByteBuffer file = ByteBuffer.allocate(1 + 4 + payload.length + 4);
        file.put((byte) 1).putInt(payload.length).put(payload).putInt((int) crc.getValue());
        String name = "index-raw-" + System.nanoTime();
        Files.write(tempDir.resolve(name), file.array());
        return new IndexFileMeta(
                DeletionVectorIndexFile.INDEX_TYPE,
                name,
                file.capacity(),
                1,
                List.of(new DeletionVectorMeta(dataFile, 1, recordedLength, null)),
                null,
                null);
    }

    private String entryHex(IndexFileMeta meta) throws IOException {
        byte[] bytes = Files.readAllBytes(tempDir.resolve(meta.fileName()));
        return HEX.formatHex(bytes, 1, bytes.length);
    }

    private DeletionVector read(IndexFileMeta meta, int index) {
        return DeletionVectorIndexFile.read(file(meta), meta.deletionVectors().get(index));
    }

    private Path file(IndexFileMeta meta) {
        return meta.path(dir());
    }

    private Path dir() {
        return new Path(tempDir.toUri());
    }

    private static byte[] portable(RoaringBitmap bitmap) {
        ByteBuffer buffer = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
        bitmap.serialize(buffer);
        return buffer.array();
    }
}
