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
import io.dovetail.table.format.blob.ReferencedBytes;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;

/**
 * Writes one BLOB column of the rows of a {@link DataFileWriter} into {@code .blob} files, rolling
 * at {@code blob.target-file-size} and always when the normal file closes ({@link #finish}), so the
 * column's files cover exactly the normal file's rows. A value that is a serialized {@link
 * BlobDescriptor} is not stored as such: the bytes it references are copied in (streamed, never
 * held whole). A {@code .blob} file carries no value statistics.
 */
final class BlobFieldWriter extends DedicatedFilesWriter {

    private final DataField field;
    private final int position;
    private final long targetFileSize;
    @Nullable private FSDataOutputStream out;
    @Nullable private BlobFileWriter file;

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
        super(newPath, schemaId, List.of(field.name()));
        this.field = field;
        this.position = position;
        this.targetFileSize = targetFileSize;
    }

    void write(RowData row) {
        try {
            if (file == null) {
                out = FileIO.createNew(newFile());
                file = new BlobFileWriter(out);
            }
            if (row.isNullAt(position)) {
                file.writeNull();
            } else {
                byte[] value = row.getBinary(position);
                if (BlobDescriptor.isDescriptor(value)) {
                    try (ReferencedBytes.Opened source =
                            ReferencedBytes.open(
                                    value, field.name(), ReferencedBytes.Origin.WRITTEN)) {
                        file.write(source.in(), source.length());
                    }
                } else {
                    file.write(value);
                }
            }
            if (file.length() >= targetFileSize) {
                roll();
            }
        } catch (IOException e) {
            throw Errors.io("write BLOB column '" + field.name() + "' to", path(), e);
        }
    }

    @Override
    boolean isOpen() {
        return file != null;
    }

    @Override
    Closed closeOpenFile() throws IOException {
        file.finish();
        Closed closed = new Closed(file.count(), file.length());
        out.close();
        out = null;
        file = null;
        return closed;
    }

    @Override
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
}
