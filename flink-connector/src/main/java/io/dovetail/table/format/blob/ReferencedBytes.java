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

import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

import java.io.IOException;

/**
 * The bytes a serialized {@link BlobDescriptor} references, read from any file system Flink reaches
 * (the value of a BLOB column stored inline as descriptors, {@code blob-descriptor-field}).
 */
public final class ReferencedBytes {

    private ReferencedBytes() {}

    /** Reads the bytes {@code serialized} references; {@code column} names the column in errors. */
    public static byte[] read(byte[] serialized, String column) {
        BlobDescriptor descriptor;
        try {
            descriptor = BlobDescriptor.deserialize(serialized);
        } catch (IllegalArgumentException e) {
            throw Errors.invalidLayout(
                    "A value of BLOB column '"
                            + column
                            + "', stored inline as descriptors, is not a BLOB descriptor: "
                            + e.getMessage()
                            + ".");
        }
        Path path = new Path(descriptor.uri());
        String referencedBy = "a BLOB descriptor of column '" + column + "'";
        try (FSDataInputStream in = FileIO.open(path, referencedBy)) {
            long length =
                    descriptor.length() >= 0
                            ? descriptor.length()
                            : FileIO.fileSystem(path).getFileStatus(path).getLen()
                                    - descriptor.offset();
            if (length > Integer.MAX_VALUE - 8) {
                throw Errors.unsupported(
                        "reading a BLOB value of " + length + " bytes from " + path,
                        "a Flink BYTES value holds less than 2 GB; read the column with"
                                + " 'blob-as-descriptor' = 'true' and fetch the bytes from the"
                                + " descriptor");
            }
            byte[] value = new byte[(int) Math.max(0, length)];
            in.seek(descriptor.offset());
            int read = 0;
            while (read < value.length) {
                int n = in.read(value, read, value.length - read);
                if (n < 0) {
                    throw Errors.invalidLayout(
                            referencedBy
                                    + " references "
                                    + length
                                    + " bytes at offset "
                                    + descriptor.offset()
                                    + " of "
                                    + path
                                    + ", which ends before them.");
                }
                read += n;
            }
            return value;
        } catch (IOException e) {
            throw Errors.io("read the BLOB value " + referencedBy + " references from", path, e);
        }
    }
}
