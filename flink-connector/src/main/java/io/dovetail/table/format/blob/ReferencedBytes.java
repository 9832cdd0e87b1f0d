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

import java.io.Closeable;
import java.io.IOException;

/**
 * The bytes a serialized {@link BlobDescriptor} references, on any file system Flink reaches: the
 * one place that parses a descriptor value and opens what it references, for the values of a BLOB
 * column stored inline as descriptors ({@code blob-descriptor-field}, read) and for descriptors
 * written to a BLOB column (copied into its {@code .blob} file, streamed).
 */
public final class ReferencedBytes {

    /** Where a descriptor value comes from, which decides what a malformed one is. */
    public enum Origin {
        /** Stored in the table: a malformed one is a broken table. */
        STORED,
        /** Written by a user: a malformed one is bad input. */
        WRITTEN
    }

    /**
     * A stream positioned at the first referenced byte, and how many bytes are referenced.
     *
     * @param path the referenced file, for errors
     */
    public record Opened(FSDataInputStream in, long length, Path path) implements Closeable {
        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    private ReferencedBytes() {}

    /**
     * Opens the bytes {@code serialized} references; {@code column} names the column in errors. A
     * descriptor of length -1 references the rest of the file.
     */
    public static Opened open(byte[] serialized, String column, Origin origin) throws IOException {
        BlobDescriptor descriptor;
        try {
            descriptor = BlobDescriptor.deserialize(serialized);
        } catch (IllegalArgumentException e) {
            throw origin == Origin.STORED
                    ? Errors.invalidLayout(
                            "A value of BLOB column '"
                                    + column
                                    + "', stored inline as descriptors, is not a BLOB descriptor: "
                                    + e.getMessage()
                                    + ".")
                    : Errors.invalidArgument(
                            "A value of BLOB column '"
                                    + column
                                    + "' looks like a BLOB descriptor but is not one: "
                                    + e.getMessage()
                                    + ".");
        }
        Path path = new Path(descriptor.uri());
        FSDataInputStream in = FileIO.open(path, referencedBy(column, origin));
        try {
            long length =
                    descriptor.length() >= 0
                            ? descriptor.length()
                            : FileIO.fileSystem(path).getFileStatus(path).getLen()
                                    - descriptor.offset();
            in.seek(descriptor.offset());
            return new Opened(in, Math.max(0, length), path);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /**
     * Reads the bytes {@code serialized}, a stored value of column {@code column}, references
     * (whole: a Flink BYTES value).
     */
    public static byte[] read(byte[] serialized, String column) {
        String referencedBy = referencedBy(column, Origin.STORED);
        Path path = null;
        try (Opened bytes = open(serialized, column, Origin.STORED)) {
            path = bytes.path();
            if (bytes.length() > Integer.MAX_VALUE - 8) {
                throw Errors.unsupported(
                        "reading a BLOB value of " + bytes.length() + " bytes from " + path,
                        "a Flink BYTES value holds less than 2 GB; read the column with"
                                + " 'blob-as-descriptor' = 'true' and fetch the bytes from the"
                                + " descriptor");
            }
            byte[] value = new byte[(int) bytes.length()];
            int read = 0;
            while (read < value.length) {
                int n = bytes.in().read(value, read, value.length - read);
                if (n < 0) {
                    throw Errors.invalidLayout(
                            referencedBy
                                    + " references "
                                    + value.length
                                    + " bytes of "
                                    + path
                                    + ", which ends before them.");
                }
                read += n;
            }
            return value;
        } catch (IOException e) {
            throw Errors.io(
                    "read the BLOB value " + referencedBy + " references from",
                    path == null ? "its file" : path,
                    e);
        }
    }

    private static String referencedBy(String column, Origin origin) {
        return origin == Origin.STORED
                ? "a BLOB descriptor of column '" + column + "'"
                : "a BLOB descriptor written to column '" + column + "'";
    }
}
