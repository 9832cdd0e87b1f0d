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
package io.dovetail.table.read;

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.format.blob.BlobDescriptor;
import io.dovetail.table.format.blob.BlobFileWriter;
import io.dovetail.table.format.blob.BlobFooter;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One BLOB column of a group over versions of {@code .blob} files: a row takes the newest version
 * covering it that is not a placeholder (an explicit NULL wins), rows no file covers are NULL,
 * skipped rows are never resolved, descriptors point at the payload inside its file, and two files
 * of one version that overlap are an invalid layout.
 */
class BlobColumnReaderTest {

    private static final DataField IMG = new DataField(2, "img", DataTypes.BLOB());

    @TempDir java.nio.file.Path dir;

    @Test
    void eachRowTakesTheNewestValueCoveringIt() throws Exception {
        GroupFile a = blobFile("a", 100, 1, "a0", "a1", null, "a3", "a4", "a5");
        GroupFile b = blobFile("b", 102, 2, "b2", null);
        GroupFile c = placeholderThen("c", 103, 3, "c4");
        try (BlobColumnReader reader = new BlobColumnReader(List.of(c, a, b), 100, 8, false)) {
            assertThat(values(reader, 8))
                    .containsExactly("a0", "a1", "b2", null, "c4", "a5", null, null);
        }
    }

    @Test
    void skippedRowsAreNeverRead() throws Exception {
        GroupFile a = blobFile("a", 0, 1, "v0", "v1", "v2", "v3", "v4", "v5");
        try (BlobColumnReader reader = new BlobColumnReader(List.of(a), 0, 6, false)) {
            assertThat(values(reader, 2)).containsExactly("v0", "v1");
            reader.skip(3);
            assertThat(reader.rowsLeftInBlock()).isEqualTo(1);
            assertThat(values(reader, 1)).containsExactly("v5");
        }
    }

    @Test
    void descriptorsPointAtThePayloadInsideItsFile() throws Exception {
        GroupFile a = blobFile("a", 0, 1, "first", "second");
        try (BlobColumnReader reader = new BlobColumnReader(List.of(a), 0, 2, true)) {
            reader.read(2);
            BytesColumnVector vector = (BytesColumnVector) reader.vector(0);
            BlobDescriptor second = BlobDescriptor.deserialize(vector.getBytes(1).getBytes());
            assertThat(second.uri()).isEqualTo(a.path().toString());
            byte[] file = Files.readAllBytes(dir.resolve("a.blob"));
            assertThat(
                            new String(
                                    Arrays.copyOfRange(
                                            file,
                                            (int) second.offset(),
                                            (int) (second.offset() + second.length())),
                                    StandardCharsets.UTF_8))
                    .isEqualTo("second");
        }
    }

    @Test
    void overlappingFilesOfOneVersionAreRefused() throws Exception {
        GroupFile a = blobFile("a", 0, 5, "x", "y", "z");
        GroupFile b = blobFile("b", 2, 5, "w");
        assertThatThrownBy(() -> new BlobColumnReader(List.of(a, b), 0, 3, false))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("overlap");
    }

    @Test
    void aFooterListingOtherRowsThanTheMetadataIsCorrupt() throws Exception {
        GroupFile a = blobFile("a", 0, 1, "x", "y");
        GroupFile lying =
                new GroupFile(a.path(), a.meta().toBuilder().rowCount(3).build(), a.columns());
        try (BlobColumnReader reader = new BlobColumnReader(List.of(lying), 0, 3, false)) {
            reader.read(1);
            assertThatThrownBy(() -> reader.vector(0).isNullAt(0))
                    .hasMessageContaining("footer lists 2 values");
        }
    }

    private static List<String> values(BlobColumnReader reader, int rows) {
        reader.read(rows);
        BytesColumnVector vector = (BytesColumnVector) reader.vector(0);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            out.add(
                    vector.isNullAt(i)
                            ? null
                            : new String(vector.getBytes(i).getBytes(), StandardCharsets.UTF_8));
        }
        return out;
    }

    /** A .blob file of {@code values} (null: NULL) for rows {@code firstRowId ..}. */
    private GroupFile blobFile(String name, long firstRowId, long sequence, String... values)
            throws Exception {
        Path path = new Path(dir.resolve(name + ".blob").toUri());
        try (FSDataOutputStream out =
                FileSystem.getLocalFileSystem().create(path, FileSystem.WriteMode.NO_OVERWRITE)) {
            BlobFileWriter writer = new BlobFileWriter(out);
            for (String value : values) {
                if (value == null) {
                    writer.writeNull();
                } else {
                    writer.write(value.getBytes(StandardCharsets.UTF_8));
                }
            }
            writer.finish();
        }
        return groupFile(path, firstRowId, sequence, values.length);
    }

    /** A file as Paimon 2.0 writes it: a placeholder (unchanged), then {@code value}. */
    private GroupFile placeholderThen(String name, long firstRowId, long sequence, String value)
            throws Exception {
        GroupFile plain = blobFile(name + "-plain", firstRowId, sequence, value);
        byte[] bytes = Files.readAllBytes(dir.resolve(name + "-plain.blob"));
        int records = bytes.length - BlobFooter.encode(new long[] {1}, 1).length;
        byte[] footer = BlobFooter.encode(new long[] {BlobFooter.PLACEHOLDER, records}, 2);
        java.nio.file.Path local = dir.resolve(name + ".blob");
        Files.write(local, Arrays.copyOf(bytes, records));
        Files.write(local, footer, java.nio.file.StandardOpenOption.APPEND);
        return groupFile(new Path(local.toUri()), firstRowId, sequence, 2);
    }

    private static GroupFile groupFile(Path path, long firstRowId, long sequence, long rows)
            throws Exception {
        DataFileMeta meta =
                DataFileMeta.builder(path.getName())
                        .fileSize(FileSystem.getLocalFileSystem().getFileStatus(path).getLen())
                        .rowCount(rows)
                        .sequenceNumbers(sequence, sequence)
                        .firstRowId(firstRowId)
                        .writeCols(List.of(IMG.name()))
                        .build();
        return new GroupFile(path, meta, List.of(IMG));
    }
}
