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
package io.dovetail.table.format;

import io.dovetail.table.error.Errors;
import io.dovetail.table.schema.TableOptions;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The formats of normal data files Dovetail reads and writes. This is the one place that decides a
 * file's format: from its name when reading (as Paimon does: the last extension, or the one before
 * it when the last names a compression codec, e.g. {@code .zst.parquet}), from the table option
 * {@code file.format} when writing.
 */
public enum DataFileFormat {
    PARQUET("parquet"),
    ORC("orc");

    /** The format of tables whose options do not say. */
    public static final DataFileFormat DEFAULT = PARQUET;

    private static final Set<String> COMPRESSION_EXTENSIONS =
            Set.of("gz", "bz2", "deflate", "snappy", "lz4", "zst");

    private final String extension;

    DataFileFormat(String extension) {
        this.extension = extension;
    }

    /** The file name extension (without the dot), also the {@code file.format} value. */
    public String extension() {
        return extension;
    }

    /** The format of the data file {@code fileName}. */
    public static DataFileFormat ofFileName(String fileName) {
        String[] parts = fileName.toLowerCase(Locale.ROOT).split("\\.");
        String last = parts.length > 1 ? parts[parts.length - 1] : "";
        if (COMPRESSION_EXTENSIONS.contains(last) && parts.length > 2) {
            last = parts[parts.length - 2];
        }
        for (DataFileFormat format : values()) {
            if (format.extension.equals(last)) {
                return format;
            }
        }
        throw Errors.unsupported(
                "reading data file " + fileName + " (format '" + last + "')",
                "Dovetail reads Parquet and ORC data files");
    }

    /** The format new data files of a table with {@code options} are written in. */
    public static DataFileFormat ofTableOptions(Map<String, String> options) {
        String value = options.get(TableOptions.FILE_FORMAT);
        if (value == null) {
            return DEFAULT;
        }
        String normalized = value.trim().toLowerCase(Locale.ROOT);
        for (DataFileFormat format : values()) {
            if (format.extension.equals(normalized)) {
                return format;
            }
        }
        throw Errors.unsupported(
                "writing data files of format '" + value + "'",
                "Dovetail writes Parquet and ORC data files; set '"
                        + TableOptions.FILE_FORMAT
                        + "' to 'parquet' or 'orc'");
    }
}
