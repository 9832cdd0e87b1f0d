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
package io.dovetail.table.manifest;

import io.dovetail.table.error.Errors;

import org.apache.avro.file.CodecFactory;

import java.util.Locale;

/**
 * Compression codec of manifest-type Avro files. Paimon writes {@code zstandard} (level 1) by
 * default; {@code null}, {@code deflate} and {@code snappy} are readable by Paimon as well.
 */
public enum AvroCodec {
    NULL("null"),
    DEFLATE("deflate"),
    SNAPPY("snappy"),
    ZSTANDARD("zstandard");

    /** What Paimon writes unless {@code manifest.compression} says otherwise. */
    public static final AvroCodec DEFAULT = ZSTANDARD;

    private static final int ZSTD_LEVEL = 1;

    private final String avroName;

    AvroCodec(String avroName) {
        this.avroName = avroName;
    }

    /** The codec name stored in the {@code avro.codec} header entry. */
    public String avroName() {
        return avroName;
    }

    /**
     * Parses an Avro codec name or Paimon's {@code manifest.compression} spelling ({@code zstd},
     * {@code none}), case-insensitively.
     */
    public static AvroCodec fromName(String name) {
        String normalized = name.trim().toLowerCase(Locale.ROOT);
        switch (normalized) {
            case "zstd":
                return ZSTANDARD;
            case "none":
                return NULL;
            default:
                for (AvroCodec codec : values()) {
                    if (codec.avroName.equals(normalized)) {
                        return codec;
                    }
                }
                throw Errors.invalidArgument(
                        "Unknown manifest compression '"
                                + name
                                + "'. Use one of null, deflate, snappy, zstandard (or zstd).");
        }
    }

    /** Avro's codec factory of this codec (zstandard at Paimon's default level 1). */
    public CodecFactory factory() {
        switch (this) {
            case NULL:
                return CodecFactory.nullCodec();
            case DEFLATE:
                return CodecFactory.deflateCodec(CodecFactory.DEFAULT_DEFLATE_LEVEL);
            case SNAPPY:
                requireSnappy();
                return CodecFactory.snappyCodec();
            case ZSTANDARD:
                return CodecFactory.zstandardCodec(ZSTD_LEVEL);
            default:
                throw new IllegalStateException("Unhandled codec " + this);
        }
    }

    private static void requireSnappy() {
        try {
            Class.forName("org.xerial.snappy.Snappy", false, AvroCodec.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw Errors.unsupported(
                    "manifest compression snappy without snappy-java on the classpath",
                    "Use zstandard (the default) or deflate, or add org.xerial.snappy:snappy-java");
        }
    }
}
