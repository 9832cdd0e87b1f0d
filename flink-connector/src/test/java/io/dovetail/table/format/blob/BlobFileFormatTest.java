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
package io.dovetail.table.format.blob;

import io.dovetail.table.error.DovetailException;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code .blob} bytes of Paimon 1.4.2: the worked example of the format notes byte for byte
 * (records with the Java CRC rule, NULL as -1, the delta-ZigZag-varint index, the 5-byte trailer),
 * read back through the footer, and footers that do not fit their file refused.
 */
class BlobFileFormatTest {

    private static final String HELLO_NULL_YE =
            "cf114e58"
                    + "48656c6c6f"
                    + "1500000000000000"
                    + "3dbdd9e2"
                    + "cf114e58"
                    + "5945"
                    + "1200000000000000"
                    + "6e2fc1d8"
                    + "2a2b26"
                    + "03000000"
                    + "01";

    @TempDir java.nio.file.Path dir;

    @Test
    void writesTheBytesOfPaimon142() throws Exception {
        Path file = new Path(dir.resolve("a.blob").toUri());
        try (FSDataOutputStream out =
                FileSystem.getLocalFileSystem().create(file, FileSystem.WriteMode.NO_OVERWRITE)) {
            BlobFileWriter writer = new BlobFileWriter(out);
            writer.write("Hello".getBytes(StandardCharsets.US_ASCII));
            writer.writeNull();
            assertThat(writer.write(new ByteArrayInputStream(new byte[] {0x59, 0x45}), -1))
                    .isEqualTo(2);
            writer.finish();
            assertThat(writer.length()).isEqualTo(47);
            assertThat(writer.count()).isEqualTo(3);
        }
        byte[] bytes = Files.readAllBytes(dir.resolve("a.blob"));
        assertThat(HexFormat.of().formatHex(bytes)).isEqualTo(HELLO_NULL_YE);

        try (FSDataInputStream in = FileSystem.getLocalFileSystem().open(file)) {
            BlobFileIndex index = BlobFileIndex.read(in, file, bytes.length);
            assertThat(index.count()).isEqualTo(3);
            assertThat(index.isNull(1)).isTrue();
            assertThat(index.payloadOffset(0)).isEqualTo(4);
            assertThat(index.payloadLength(0)).isEqualTo(5);
            assertThat(index.payloadOffset(2)).isEqualTo(25);
            assertThat(index.payloadLength(2)).isEqualTo(2);
        }
    }

    @Test
    void anEmptyFileIsItsTrailer() {
        assertThat(HexFormat.of().formatHex(BlobFooter.encode(new long[0], 0)))
                .isEqualTo("0000000001");
    }

    @Test
    void placeholdersAndLargeDeltasRoundTrip() {
        long[] lengths = {BlobFooter.PLACEHOLDER, 1L << 40, BlobFooter.NULL, 16, 3_000_000_000L};
        byte[] footer = BlobFooter.encode(lengths, lengths.length);
        byte[] index = new byte[footer.length - BlobFooter.TRAILER_SIZE];
        System.arraycopy(footer, 0, index, 0, index.length);
        assertThat(BlobFooter.decode(index)).containsExactly(lengths);
    }

    @Test
    void footersThatDoNotFitTheirFileAreRefused() throws Exception {
        byte[] good = HexFormat.of().parseHex(HELLO_NULL_YE);
        byte[] shortRecord = good.clone();
        shortRecord[39] = 0x1e; // first length 15: shorter than a record
        assertRefused(shortRecord, "length 15");
        byte[] badVersion = good.clone();
        badVersion[46] = 2;
        assertRefused(badVersion, "version 2");
        byte[] truncated = new byte[good.length - 3];
        System.arraycopy(good, 3, truncated, 0, truncated.length); // data region 3 bytes short
        assertRefused(truncated, "outside");
        assertRefused(new byte[] {1, 2}, "shorter than a footer");
    }

    private void assertRefused(byte[] bytes, String problem) throws Exception {
        java.nio.file.Path local = Files.createTempFile(dir, "bad", ".blob");
        Files.write(local, bytes);
        Path file = new Path(local.toUri());
        try (FSDataInputStream in = FileSystem.getLocalFileSystem().open(file)) {
            assertThatThrownBy(() -> BlobFileIndex.read(in, file, bytes.length))
                    .isInstanceOf(DovetailException.class)
                    .hasMessageContaining("Corrupt")
                    .hasMessageContaining(problem);
        }
    }

    @Test
    void descriptorsRoundTripAndAreRecognisedByTheirMagic() {
        BlobDescriptor descriptor = new BlobDescriptor("s3://bucket/a.bin", 7, -1);
        byte[] bytes = descriptor.serialize();
        assertThat(HexFormat.of().formatHex(bytes, 0, 13))
                .isEqualTo("02" + "4353454442" + "4f4c42" + "11000000");
        assertThat(BlobDescriptor.isDescriptor(bytes)).isTrue();
        assertThat(BlobDescriptor.deserialize(bytes)).isEqualTo(descriptor);
        assertThat(BlobDescriptor.isDescriptor("plain bytes".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
        assertThat(descriptor.toString())
                .isEqualTo(
                        "BlobDescriptor{version=2, uri='s3://bucket/a.bin', offset=7,"
                                + " length=-1}");
        byte[] cut = new byte[bytes.length - 4];
        System.arraycopy(bytes, 0, cut, 0, cut.length);
        assertThatThrownBy(() -> BlobDescriptor.deserialize(cut))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("truncated");
    }
}
