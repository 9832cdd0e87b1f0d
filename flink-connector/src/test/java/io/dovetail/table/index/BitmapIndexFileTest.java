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
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bitmap index files written by {@link BitmapIndexWriter} and looked up by {@link BitmapIndexFile}:
 * the bytes of a small file are Paimon 1.4.2's version 2 layout; every value of a file of many
 * index blocks finds exactly its rows, absent values none, NULLs no value; numbers sort as numbers
 * across blocks; version 1 files (Paimon's older layout) are read; an unknown version is
 * unsupported.
 */
class BitmapIndexFileTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void aSmallFileHasPaimonsVersion2Layout() throws IOException {
        BTreeKeys keys = BTreeKeys.of(new IntType()).orElseThrow();
        BitmapIndexWriter writer = new BitmapIndexWriter(new Path(dir.toUri()), keys);
        writer.add(keys.encode(5), 0);
        writer.add(keys.encode(5), 1);
        writer.add(null, 2);
        writer.add(keys.encode(7), 3);
        IndexFileMeta meta = writer.finish(100, 103, 4);

        byte[] nullBitmap = serialized(RoaringBitmap.bitmapOf(2));
        byte[] fives = serialized(RoaringBitmap.bitmapOf(0, 1));
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(expected);
        out.writeByte(2); // version
        out.writeInt(4); // rows
        out.writeInt(2); // distinct values
        out.writeBoolean(true); // NULLs
        out.writeInt(-1 - 2); // the single NULL row
        out.writeInt(nullBitmap.length);
        out.writeInt(1); // one index block
        out.writeInt(5); // its first value
        out.writeInt(0); // its offset
        out.writeInt(4 + 2 * (4 + 4 + 4)); // the blocks' length
        out.writeInt(2); // entries
        out.writeInt(5);
        out.writeInt(0);
        out.writeInt(fives.length);
        out.writeInt(7);
        out.writeInt(-1 - 3);
        out.writeInt(-1);
        out.write(fives);
        assertThat(Files.readAllBytes(dir.resolve(meta.fileName())))
                .isEqualTo(expected.toByteArray());
        assertThat(meta.fileName()).startsWith("bitmap-global-index-").endsWith(".index");
        assertThat(meta.indexType()).isEqualTo("bitmap");
        assertThat(meta.rowCount()).isEqualTo(4);
        assertThat(meta.globalIndex()).isEqualTo(new GlobalIndexMeta(100, 103, 4, null, null));
        assertThat(lookUp(keys, meta, List.of(keys.encode(5), keys.encode(7))))
                .containsExactly(0L, 1L, 3L);
    }

    @Test
    void everyValueOfAManyBlockFileFindsExactlyItsRows() {
        BTreeKeys keys = BTreeKeys.of(new VarCharType(VarCharType.MAX_LENGTH)).orElseThrow();
        Random random = new Random(7);
        TreeMap<byte[], TreeSet<Long>> rows = new TreeMap<>(keys);
        BitmapIndexWriter writer = new BitmapIndexWriter(new Path(dir.toUri()), keys);
        for (long row = 0; row < 60_000; row++) {
            if (row % 97 == 0) {
                writer.add(null, row);
                continue;
            }
            byte[] key = ("key-" + random.nextInt(20_000)).getBytes();
            rows.computeIfAbsent(key, k -> new TreeSet<>()).add(row);
            writer.add(key, row);
        }
        IndexFileMeta meta = writer.finish(0, 59_999, 1);

        assertThat(rows).as("values with one row and with several").hasSizeGreaterThan(15_000);
        int n = 0;
        for (byte[] key : rows.keySet()) {
            if (n++ % 25 != 0) {
                continue;
            }
            assertThat(lookUp(keys, meta, List.of(key)))
                    .as(new String(key))
                    .isEqualTo(rows.get(key));
        }
        TreeSet<Long> expected = new TreeSet<>(rows.firstEntry().getValue());
        expected.addAll(rows.lastEntry().getValue());
        assertThat(lookUp(keys, meta, List.of(rows.firstKey(), rows.lastKey(), "kez".getBytes())))
                .isEqualTo(expected);
        assertThat(lookUp(keys, meta, List.of("a".getBytes(), "key-".getBytes(), "zzz".getBytes())))
                .isEmpty();
        TreeSet<Long> withNulls = new TreeSet<>();
        BitmapIndexFile.lookup(
                new Path(dir.resolve(meta.fileName()).toUri()),
                keys,
                List.of(rows.firstKey()),
                true,
                withNulls::add);
        TreeSet<Long> expectedWithNulls = new TreeSet<>(rows.firstEntry().getValue());
        for (long row = 0; row < 60_000; row += 97) {
            expectedWithNulls.add(row);
        }
        assertThat(withNulls).isEqualTo(expectedWithNulls);
    }

    @Test
    void numbersSortAsNumbersAcrossBlocks() {
        BTreeKeys keys = BTreeKeys.of(new BigIntType()).orElseThrow();
        BitmapIndexWriter writer = new BitmapIndexWriter(new Path(dir.toUri()), keys);
        for (long row = 0; row < 5_000; row++) {
            writer.add(keys.encode(row * 1_000_003 - 2_500_000_000L), row);
        }
        IndexFileMeta meta = writer.finish(0, 4_999, 0);

        List<byte[]> probe = new ArrayList<>();
        for (long row : List.of(0L, 1L, 2_499L, 2_500L, 3_000L, 4_999L)) {
            probe.add(keys.encode(row * 1_000_003 - 2_500_000_000L));
        }
        probe.add(keys.encode(-1L));
        probe.sort(keys);
        assertThat(lookUp(keys, meta, probe))
                .containsExactly(0L, 1L, 2_499L, 2_500L, 3_000L, 4_999L);
    }

    @Test
    void version1FilesAreRead() throws IOException {
        BTreeKeys keys = BTreeKeys.of(new VarCharType(VarCharType.MAX_LENGTH)).orElseThrow();
        byte[] nulls = serialized(RoaringBitmap.bitmapOf(0, 4));
        byte[] bs = serialized(RoaringBitmap.bitmapOf(1, 3, 5));
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(file);
        out.writeByte(1);
        out.writeInt(6);
        out.writeInt(2);
        out.writeBoolean(true);
        out.writeInt(0);
        out.writeInt(1);
        out.write('b');
        out.writeInt(nulls.length);
        out.writeInt(1);
        out.write('a');
        out.writeInt(-1 - 2);
        out.write(nulls);
        out.write(bs);
        Path path = new Path(dir.resolve("v1.index").toUri());
        Files.write(dir.resolve("v1.index"), file.toByteArray());

        TreeSet<Long> found = new TreeSet<>();
        BitmapIndexFile.lookup(path, keys, List.of("a".getBytes(), "b".getBytes()), found::add);

        assertThat(found).containsExactly(1L, 2L, 3L, 5L);
        TreeSet<Long> nullsAndA = new TreeSet<>();
        BitmapIndexFile.lookup(path, keys, List.of("a".getBytes()), true, nullsAndA::add);
        assertThat(nullsAndA).containsExactly(0L, 2L, 4L);
    }

    @Test
    void anUnknownVersionIsUnsupported() throws IOException {
        BTreeKeys keys = BTreeKeys.of(new IntType()).orElseThrow();
        Files.write(dir.resolve("v3.index"), new byte[] {3, 0, 0, 0, 0, 0, 0, 0, 0, 0});

        assertThatThrownBy(
                        () ->
                                BitmapIndexFile.lookup(
                                        new Path(dir.resolve("v3.index").toUri()),
                                        keys,
                                        List.of(keys.encode(1)),
                                        id -> {}))
                .isInstanceOf(DovetailException.class)
                .matches(e -> ((DovetailException) e).kind() == DovetailException.Kind.UNSUPPORTED);
    }

    private TreeSet<Long> lookUp(BTreeKeys keys, IndexFileMeta meta, List<byte[]> probe) {
        TreeSet<Long> found = new TreeSet<>();
        BitmapIndexFile.lookup(
                new Path(dir.resolve(meta.fileName()).toUri()), keys, probe, found::add);
        return found;
    }

    private static byte[] serialized(RoaringBitmap bitmap) throws IOException {
        bitmap.runOptimize();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bitmap.serialize(new DataOutputStream(bytes));
        return bytes.toByteArray();
    }
}
