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

import io.dovetail.table.error.Errors;
import io.dovetail.table.format.blob.BlobDescriptor;
import io.dovetail.table.format.blob.BlobFileWriter;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Writes one BLOB column of the rows of a {@link DataFileWriter} into {@code .blob} files, rolling
 * at {@code blob.target-file-size} and always when the normal file closes ({@link #finish}), so the
 * column's files cover exactly the normal file's rows. A value that is a serialized {@link
 * BlobDescriptor} is not stored as such: the bytes it references are copied in (streamed, never
 * held whole). A {@code .blob} file carries no value statistics.
 */
final class BlobFieldWriter {

    private final DataField field;
    private final int position;
    private final Supplier<Path> newPath;
    private final long targetFileSize;
    private final long schemaId;
    private final List<DataFileMeta> finished = new ArrayList<>();
    @Nullable private FSDataOutputStream out;
    @Nullable private BlobFileWriter file;
    @Nullable private Path path;

    /**
     * @param position the column's index in the rows written
     * @param newPath the path of the next file (the caller deletes created files on abort)
     */
    BlobFieldWriter(
            DataField field,
            int position,
            Supplier<Path> newPath,
            long targetFileSize,
            long schemaId) {
        this.field = field;
        this.position = position;
        this.newPath = newPath;
        this.targetFileSize = targetFileSize;
        this.schemaId = schemaId;
    }

    void write(RowData row) {
        try {
            if (file == null) {
                path = newPath.get();
                out = FileIO.createNew(path);
                file = new BlobFileWriter(out);
            }
            if (row.isNullAt(position)) {
                file.writeNull();
            } else {
                byte[] value = row.getBinary(position);
                if (BlobDescriptor.isDescriptor(value)) {
                    copyReferenced(value);
                } else {
                    file.write(value);
                }
            }
            if (file.length() >= targetFileSize) {
                closeFile();
            }
        } catch (IOException e) {
            throw Errors.io("write BLOB column '" + field.name() + "' to", path, e);
        }
    }

    /** Closes the open file; returns the metadata of the files written since the last call. */
    List<DataFileMeta> finish() {
        try {
            if (file != null) {
                closeFile();
            }
        } catch (IOException e) {
            throw Errors.io("close", path, e);
        }
        List<DataFileMeta> out = List.copyOf(finished);
        finished.clear();
        return out;
    }

    void closeQuietly() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // the caller deletes the file
            }
            out = null;
            file = null;
        }
    }

    private void copyReferenced(byte[] serialized) throws IOException {
        BlobDescriptor descriptor;
        try {
            descriptor = BlobDescriptor.deserialize(serialized);
        } catch (IllegalArgumentException e) {
            throw Errors.invalidArgument(
                    "A value of BLOB column '"
                            + field.name()
                            + "' looks like a BLOB descriptor but is not one: "
                            + e.getMessage()
                            + ".");
        }
        Path source = new Path(descriptor.uri());
        try (FSDataInputStream in =
                FileIO.open(source, "a BLOB descriptor written to column '" + field.name() + "'")) {
            in.seek(descriptor.offset());
            file.write(in, descriptor.length());
        }
    }

    private void closeFile() throws IOException {
        file.finish();
        long size = file.length();
        int rows = file.count();
        out.close();
        out = null;
        file = null;
        finished.add(
                DedicatedFileMeta.of(path.getName(), size, rows, schemaId, List.of(field.name())));
    }
}
