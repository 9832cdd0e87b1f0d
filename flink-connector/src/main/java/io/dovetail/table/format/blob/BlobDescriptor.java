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

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A reference to BLOB bytes stored elsewhere: {@code length} bytes (-1: to the end of the file)
 * from {@code offset} of the file at {@code uri}. Serialized (all little-endian) as version byte
 * {@code 2}, the magic {@code "BLOBDESC"} as an int64, the URI's UTF-8 length (int32) and bytes,
 * the offset and the length (int64 each); version 1 (before Paimon 1.4) has no magic and is read
 * but never recognised in input ({@link #isDescriptor}).
 */
public record BlobDescriptor(String uri, long offset, long length) {

    public static final byte VERSION = 2;

    private static final long MAGIC = 0x424C4F4244455343L;

    /** The descriptor's bytes, in the current version. */
    public byte[] serialize() {
        byte[] path = uri.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(29 + path.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(VERSION)
                .putLong(MAGIC)
                .putInt(path.length)
                .put(path)
                .putLong(offset)
                .putLong(length)
                .array();
    }

    /** Whether {@code bytes} are a serialized descriptor of the current version (by its magic). */
    public static boolean isDescriptor(byte[] bytes) {
        return bytes.length >= 9
                && bytes[0] == VERSION
                && ByteBuffer.wrap(bytes, 1, 8).order(ByteOrder.LITTLE_ENDIAN).getLong() == MAGIC;
    }

    /**
     * The descriptor {@code bytes} hold; malformed bytes are an {@link IllegalArgumentException}.
     */
    public static BlobDescriptor deserialize(byte[] bytes) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            byte version = in.get();
            if (version > VERSION || version < 1) {
                throw new IllegalArgumentException(
                        "a BLOB descriptor of version " + version + " (Dovetail reads 1 and 2)");
            }
            if (version > 1 && in.getLong() != MAGIC) {
                throw new IllegalArgumentException("a BLOB descriptor without its magic number");
            }
            byte[] path = new byte[in.getInt()];
            in.get(path);
            BlobDescriptor descriptor =
                    new BlobDescriptor(
                            new String(path, StandardCharsets.UTF_8), in.getLong(), in.getLong());
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("a BLOB descriptor followed by other bytes");
            }
            return descriptor;
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw e;
            }
            throw new IllegalArgumentException("a truncated BLOB descriptor", e);
        }
    }

    @Override
    public String toString() {
        return "BlobDescriptor{version="
                + VERSION
                + ", uri='"
                + uri
                + "', offset="
                + offset
                + ", length="
                + length
                + "}";
    }
}
