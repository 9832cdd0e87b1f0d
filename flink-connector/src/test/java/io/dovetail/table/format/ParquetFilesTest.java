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
package io.dovetail.table.format;

import org.apache.flink.core.fs.Path;

import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The buffered Parquet input: every read returns the file's bytes, wherever the reads jump. */
class ParquetFilesTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void smallAndLargeReadsBetweenSeeksInsideAndOutsideTheBufferReturnTheFilesBytes()
            throws Exception {
        byte[] bytes = new byte[300_000];
        new SplittableRandom(7).nextBytes(bytes);
        java.nio.file.Path file = dir.resolve("f.parquet");
        Files.write(file, bytes);

        SplittableRandom random = new SplittableRandom(11);
        try (SeekableInputStream in =
                ParquetFiles.inputFile(new Path(file.toUri()), bytes.length, "a test file")
                        .newStream()) {
            for (int i = 0; i < 2_000; i++) {
                long at =
                        switch (random.nextInt(3)) {
                            case 0 -> in.getPos(); // go on reading
                            case 1 -> Math.max(0, in.getPos() - random.nextInt(1, 40_000));
                            default -> random.nextInt(bytes.length);
                        };
                in.seek(at);
                assertThat(in.getPos()).isEqualTo(at);
                int length =
                        (int)
                                Math.min(
                                        bytes.length - at,
                                        random.nextBoolean()
                                                ? random.nextInt(1, 64)
                                                : random.nextInt(1, 100_000));
                byte[] read = new byte[length];
                if (random.nextBoolean()) {
                    in.readFully(read);
                } else {
                    ByteBuffer buffer = ByteBuffer.allocate(length);
                    in.readFully(buffer);
                    buffer.flip().get(read);
                }
                assertThat(read)
                        .as("%d bytes at %d", length, at)
                        .isEqualTo(Arrays.copyOfRange(bytes, (int) at, (int) at + length));
                assertThat(in.getPos()).isEqualTo(at + length);
                if (at + length < bytes.length) {
                    assertThat(in.read()).isEqualTo(bytes[(int) (at + length)] & 0xFF);
                }
            }
        }
    }
}
