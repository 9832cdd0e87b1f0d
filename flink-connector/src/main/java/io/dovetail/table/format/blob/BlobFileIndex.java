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

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

import java.io.IOException;

/**
 * Where each value of a {@code .blob} file is: read from the footer, which is authoritative (no
 * reader checks a record's magic, length field or CRC, and Python writers compute the CRC
 * differently). The footer is checked against the file: the index lies inside it, every length is a
 * record length ({@link BlobFooter#RECORD_OVERHEAD} or more), NULL or a placeholder, and the
 * records fill the data region exactly.
 */
public final class BlobFileIndex {

    private final long[] lengths;
    private final long[] offsets; // record start, or -1 without record bytes

    private BlobFileIndex(long[] lengths, long[] offsets) {
        this.lengths = lengths;
        this.offsets = offsets;
    }

    /** Reads the index of {@code file}, {@code fileSize} bytes long, from {@code in}. */
    public static BlobFileIndex read(FSDataInputStream in, Path file, long fileSize) {
        try {
            if (fileSize < BlobFooter.TRAILER_SIZE) {
                throw new IllegalArgumentException(
                        "it is " + fileSize + " bytes long, shorter than a footer");
            }
            byte[] trailer = new byte[BlobFooter.TRAILER_SIZE];
            in.seek(fileSize - BlobFooter.TRAILER_SIZE);
            readFully(in, trailer);
            int indexLength = BlobFooter.indexLength(trailer);
            long dataEnd = fileSize - BlobFooter.TRAILER_SIZE - indexLength;
            if (indexLength < 0 || dataEnd < 0) {
                throw new IllegalArgumentException(
                        "its footer declares an index of "
                                + indexLength
                                + " bytes in a file of "
                                + fileSize);
            }
            byte[] index = new byte[indexLength];
            in.seek(dataEnd);
            readFully(in, index);
            long[] lengths = BlobFooter.decode(index);
            long[] offsets = new long[lengths.length];
            long offset = 0;
            for (int i = 0; i < lengths.length; i++) {
                long length = lengths[i];
                if (length == BlobFooter.NULL || length == BlobFooter.PLACEHOLDER) {
                    offsets[i] = -1;
                } else if (length < BlobFooter.RECORD_OVERHEAD || offset + length > dataEnd) {
                    throw new IllegalArgumentException(
                            "its footer gives record "
                                    + i
                                    + " the length "
                                    + length
                                    + " at offset "
                                    + offset
                                    + ", outside the "
                                    + dataEnd
                                    + " data bytes");
                } else {
                    offsets[i] = offset;
                    offset += length;
                }
            }
            if (offset != dataEnd) {
                throw new IllegalArgumentException(
                        "its records take "
                                + offset
                                + " bytes but the footer starts at "
                                + dataEnd);
            }
            return new BlobFileIndex(lengths, offsets);
        } catch (IllegalArgumentException e) {
            throw Errors.corruptFile(file, e.getMessage(), e);
        } catch (IOException e) {
            throw Errors.io("read the footer of", file, e);
        }
    }

    private static void readFully(FSDataInputStream in, byte[] buffer) throws IOException {
        int read = 0;
        while (read < buffer.length) {
            int n = in.read(buffer, read, buffer.length - read);
            if (n < 0) {
                throw new IllegalArgumentException("it ends before the size its metadata gives");
            }
            read += n;
        }
    }

    /** The number of values. */
    public int count() {
        return lengths.length;
    }

    public boolean isNull(int i) {
        return lengths[i] == BlobFooter.NULL;
    }

    public boolean isPlaceholder(int i) {
        return lengths[i] == BlobFooter.PLACEHOLDER;
    }

    /** The file offset of value {@code i}'s payload (a value neither NULL nor a placeholder). */
    public long payloadOffset(int i) {
        return offsets[i] + BlobFooter.PAYLOAD_OFFSET;
    }

    /** The byte length of value {@code i}'s payload (a value neither NULL nor a placeholder). */
    public long payloadLength(int i) {
        return lengths[i] - BlobFooter.RECORD_OVERHEAD;
    }
}
