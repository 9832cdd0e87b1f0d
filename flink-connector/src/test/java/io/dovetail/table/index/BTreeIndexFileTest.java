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
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * B-tree index files written by {@link BTreeIndexWriter} and looked up by {@link BTreeIndexFile}:
 * every key of many blocks finds exactly its rows, absent keys none, NULLs go to the null bitmap
 * and not to any key; numbers sort as numbers; a damaged block is a clear error.
 */
class BTreeIndexFileTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void everyKeyOfAManyBlockFileFindsExactlyItsRows() {
        BTreeKeys keys = BTreeKeys.of(new VarCharType(VarCharType.MAX_LENGTH)).orElseThrow();
        Random random = new Random(7);
        TreeMap<byte[], List<Long>> rows = new TreeMap<>(keys);
        for (long row = 0; row < 60_000; row++) {
            byte[] key = ("key-" + random.nextInt(20_000)).getBytes();
            rows.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
        }
        IndexFileMeta meta = write(keys, rows, List.of(60_000L, 60_001L));

        assertThat(meta.fileSize()).as("many 64 KiB blocks").isGreaterThan(4 * 64 * 1024);
        assertThat(meta.rowCount()).isEqualTo(60_002);
        List<byte[]> probe = new ArrayList<>();
        rows.keySet().stream().limit(500).forEach(probe::add);
        probe.add(rows.lastKey());
        for (byte[] key : probe) {
            assertThat(lookUp(keys, meta, List.of(key))).isEqualTo(new TreeSet<>(rows.get(key)));
        }
        TreeSet<Long> expected = new TreeSet<>(rows.get(rows.firstKey()));
        expected.addAll(rows.get(rows.lastKey()));
        assertThat(
                        lookUp(
                                keys,
                                meta,
                                List.of(rows.firstKey(), rows.lastKey(), "key-zz".getBytes())))
                .isEqualTo(expected);
        assertThat(lookUp(keys, meta, List.of("a".getBytes(), "key-".getBytes(), "zzz".getBytes())))
                .isEmpty();
        assertThat(
                        BTreeIndexFile.keysInRange(
                                meta.globalIndex().indexMeta(),
                                keys,
                                List.of("a".getBytes(), rows.firstKey(), "zzz".getBytes())))
                .containsExactly(rows.firstKey());
        TreeSet<Long> nulls = new TreeSet<>();
        BTreeIndexFile.lookUpNulls(path(meta), meta.fileSize(), nulls::add);
        assertThat(nulls).containsExactly(60_000L, 60_001L);
        assertThat(BTreeIndexFile.mayHoldNulls(meta.globalIndex().indexMeta())).isTrue();
        IndexFileMeta noNulls = write(keys, rows, List.of());
        BTreeIndexFile.lookUpNulls(path(noNulls), noNulls.fileSize(), nulls::add);
        assertThat(nulls).hasSize(2);
        assertThat(BTreeIndexFile.mayHoldNulls(noNulls.globalIndex().indexMeta())).isFalse();
    }

    @Test
    void numbersSortAsNumbersAndTheirSortableBytesAsUnsignedBytes() {
        BTreeKeys keys = BTreeKeys.of(new BigIntType()).orElseThrow();
        TreeMap<byte[], List<Long>> rows = new TreeMap<>(keys);
        long[] values = {Long.MIN_VALUE, -300, -1, 0, 1, 255, 256, 70_000, Long.MAX_VALUE};
        for (int i = 0; i < values.length; i++) {
            rows.put(keys.encode(values[i]), List.of((long) i));
        }
        IndexFileMeta meta = write(keys, rows, List.of());

        for (int i = 0; i < values.length; i++) {
            assertThat(lookUp(keys, meta, List.of(keys.encode(values[i]))))
                    .containsExactly((long) i);
            if (i > 0) {
                byte[] previous = keys.sortable(keys.encode(values[i - 1]));
                byte[] current = keys.sortable(keys.encode(values[i]));
                assertThat(java.util.Arrays.compareUnsigned(previous, current)).isNegative();
                assertThat(keys.fromSortable(current)).isEqualTo(keys.encode(values[i]));
            }
        }
        assertThat(lookUp(keys, meta, List.of(keys.encode(2L)))).isEmpty();
        BTreeKeys ints = BTreeKeys.of(new IntType()).orElseThrow();
        assertThat(ints.compare(ints.encode(-5), ints.encode(3))).isNegative();
    }

    @Test
    void typesWithoutBTreeKeysAreNotLookedUp() {
        assertThat(BTreeKeys.of(new DoubleType())).isEmpty();
    }

    @Test
    void aDamagedBlockIsAClearError() throws Exception {
        BTreeKeys keys = BTreeKeys.of(new VarCharType(VarCharType.MAX_LENGTH)).orElseThrow();
        TreeMap<byte[], List<Long>> rows = new TreeMap<>(keys);
        rows.put("a".getBytes(), List.of(1L));
        IndexFileMeta meta = write(keys, rows, List.of());
        try (RandomAccessFile file = new RandomAccessFile(path(meta).toUri().getPath(), "rw")) {
            file.seek(2);
            file.write(0x55);
        }

        assertThatThrownBy(() -> lookUp(keys, meta, List.of("a".getBytes())))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(meta.fileName())
                .hasMessageContaining("CRC32");
    }

    private IndexFileMeta write(BTreeKeys keys, Map<byte[], List<Long>> rows, List<Long> nulls) {
        BTreeIndexWriter writer = new BTreeIndexWriter(new Path(dir.toUri()), keys);
        for (long row : nulls) {
            writer.add(null, row);
        }
        rows.forEach((key, ids) -> ids.forEach(id -> writer.add(key, id)));
        return writer.finish(0, 100_000, 1);
    }

    private TreeSet<Long> lookUp(BTreeKeys keys, IndexFileMeta meta, List<byte[]> probe) {
        TreeSet<Long> found = new TreeSet<>();
        BTreeIndexFile.lookup(path(meta), meta.fileSize(), keys, probe, found::add);
        return found;
    }

    private Path path(IndexFileMeta meta) {
        return meta.path(new Path(dir.toUri()));
    }
}
