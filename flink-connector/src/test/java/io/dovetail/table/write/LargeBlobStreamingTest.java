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
package io.dovetail.table.write;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.format.blob.BlobDescriptor;
import io.dovetail.table.format.blob.BlobFileIndex;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.testing.ChildJvm;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A BLOB value larger than the heap is never held: a JVM of {@value #HEAP_MB} MB inserts a value of
 * {@value #VALUE_MB} MB (a descriptor input, copied into the {@code .blob} file), updates another
 * row of the column (the value is kept by the rewrite of its group) and folds the column's {@code
 * .blob} files by compaction; the one live {@code .blob} file then holds the value byte for byte.
 * Any path that materialized the value, even once, would fail with an OutOfMemoryError.
 */
class LargeBlobStreamingTest {

    static final int HEAP_MB = 128;
    static final int VALUE_MB = 160;

    @TempDir java.nio.file.Path dir;

    @Test
    void aBlobValueLargerThanTheHeapIsInsertedUpdatedAroundAndFoldedWithoutBeingHeld()
            throws Exception {
        String output =
                ChildJvm.run(
                        LargeBlobStreamingTest.class,
                        HEAP_MB,
                        Duration.ofMinutes(5),
                        dir.toString());
        assertThat(output).contains("identical");
    }

    /** The child JVM: the writes, then a byte comparison of the live .blob file's values. */
    public static void main(String[] args) throws Exception {
        java.nio.file.Path root = java.nio.file.Path.of(args[0]);
        java.nio.file.Path source = root.resolve("large.bin");
        long expectedCrc = writeSource(source);
        TableStore store = TableStore.at(new TablePaths(new Path(root.resolve("t").toUri())));
        store.schemas()
                .createTable(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT()),
                                new DataField(1, "img", DataTypes.BLOB())),
                        List.of(),
                        List.of(),
                        Map.of("row-tracking.enabled", "true", "data-evolution.enabled", "true"),
                        null);
        byte[] descriptor = new BlobDescriptor(source.toUri().toString(), 0, -1).serialize();
        List<ManifestEntry> files;
        try (DataFileWriter writer =
                DataFileWriter.forAppend(
                        store.paths(), store.latestSchema(), new GenericRowData(0))) {
            writer.write(GenericRowData.of(0L, descriptor));
            writer.write(GenericRowData.of(1L, new byte[] {9}));
            files = writer.finish();
        }
        new TableCommit(store).commit(CommitRequest.append("t", 1, files));
        ColumnUpdater.on(store, store.latestSnapshot().orElseThrow(), List.of("img"))
                .commit(
                        "t",
                        2,
                        List.of(new RowUpdate(1, GenericRowData.of((Object) new byte[] {1, 2})))
                                .iterator());
        new DataEvolutionCompaction(store)
                .compact(
                        "t",
                        3,
                        p -> true,
                        new CompactionConfig(
                                256 << 20, 1, 2, CompactionConfig.Rewrite.COLUMNS, true));

        SnapshotFiles live = store.files(store.latestSnapshot().orElseThrow());
        List<ManifestEntry> blobs =
                live.liveFiles().stream()
                        .filter(e -> DataFileKinds.isBlob(e.file().fileName()))
                        .toList();
        check(blobs.size() == 1, "one .blob file after the fold, got " + blobs);
        check(blobs.get(0).file().fileSource() == FileSource.COMPACT, "a compacted .blob file");
        Path blob = live.dataFilePath(blobs.get(0));
        try (FSDataInputStream in = FileIO.open(blob, "the test")) {
            BlobFileIndex index = BlobFileIndex.read(in, blob, blobs.get(0).file().fileSize());
            check(index.count() == 2, "two values");
            check(
                    index.payloadLength(0) == (long) VALUE_MB << 20,
                    "the large value's length, got " + index.payloadLength(0));
            in.seek(index.payloadOffset(0));
            check(crc(in, index.payloadLength(0)) == expectedCrc, "the large value's bytes");
            in.seek(index.payloadOffset(1));
            check(
                    index.payloadLength(1) == 2 && in.read() == 1 && in.read() == 2,
                    "the updated value");
        }
        System.out.println("identical");
    }

    private static long writeSource(java.nio.file.Path source) throws IOException {
        Random random = new Random(42);
        byte[] chunk = new byte[1 << 20];
        CRC32 crc = new CRC32();
        try (OutputStream out = Files.newOutputStream(source)) {
            for (int i = 0; i < VALUE_MB; i++) {
                random.nextBytes(chunk);
                crc.update(chunk);
                out.write(chunk);
            }
        }
        return crc.getValue();
    }

    private static long crc(InputStream in, long length) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buffer = new byte[1 << 16];
        for (long left = length; left > 0; ) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            check(n > 0, "the .blob file ends inside the value");
            crc.update(buffer, 0, n);
            left -= n;
        }
        return crc.getValue();
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("not as expected: " + what);
        }
    }
}
