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
package io.dovetail.table.format.vector;

import io.dovetail.table.error.Errors;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.Path;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The formats of vector-store files Dovetail reads and writes: the data files ({@code
 * data-<uuid>-<n>.vector.<format>}) that hold a table's VECTOR columns when {@code
 * vector.file.format} is set, in Apache Paimon 1.4.2's {@code avro} and {@code json} formats.
 * Paimon's {@code lance} (a native library) and {@code vortex} (Paimon 2.0) are refused by name.
 * This is the one place that decides a vector-store file's format: from its name when reading, from
 * the table option when writing.
 */
public enum VectorFileFormat {
    AVRO("avro"),
    JSON("json");

    private static final String MARKER = ".vector.";

    private final String extension;

    VectorFileFormat(String extension) {
        this.extension = extension;
    }

    /** The file name extension after {@code .vector.}, also the option value. */
    public String extension() {
        return extension;
    }

    /**
     * Creates vector-store file {@code path} (which must not exist) for rows of {@code columns}.
     *
     * @param compression Paimon's {@code file.compression} value
     * @param zstdLevel {@code file.compression.zstd-level}
     * @param targetSize the size at which the caller rolls the file (Avro keeps its blocks small
     *     enough for {@link VectorFileWriter#length()} to follow the growth closely)
     */
    public VectorFileWriter create(
            Path path, List<DataField> columns, String compression, int zstdLevel, long targetSize)
            throws IOException {
        switch (this) {
            case AVRO:
                return new AvroVectorFileWriter(
                        path,
                        columns,
                        AvroVectorFileWriter.codec(compression, zstdLevel),
                        targetSize);
            default:
                return new JsonVectorFileWriter(path, columns);
        }
    }

    /**
     * Opens vector-store file {@code path} of {@code length} bytes to read {@code columns} (as the
     * file's schema declares them) {@code batchSize} rows at a time.
     */
    public VectorFileReader open(Path path, long length, List<DataField> columns, int batchSize) {
        switch (this) {
            case AVRO:
                return new AvroVectorFileReader(path, length, columns, batchSize);
            default:
                return new JsonVectorFileReader(path, columns, batchSize);
        }
    }

    /**
     * The end of a new vector-store file's name, after {@code data-<uuid>-<n>.}: {@code
     * vector.<format>} (Avro compresses inside the file; JSON is written uncompressed).
     */
    public String fileNameSuffix() {
        return "vector." + extension;
    }

    /** The format of vector-store file {@code fileName}. */
    public static VectorFileFormat ofFileName(String fileName) {
        String name = fileName.toLowerCase(Locale.ROOT);
        int marker = name.lastIndexOf(MARKER);
        String rest = marker < 0 ? "" : name.substring(marker + MARKER.length());
        int dot = rest.indexOf('.');
        String format = dot < 0 ? rest : rest.substring(0, dot);
        for (VectorFileFormat candidate : values()) {
            if (candidate.extension.equals(format)) {
                return candidate;
            }
        }
        throw unsupported("reading vector-store file " + fileName, format);
    }

    /** The format of new vector-store files of a table with {@code options}, or null: none. */
    @Nullable
    public static VectorFileFormat ofTableOptions(Map<String, String> options) {
        String value = options.get(TableOptions.VECTOR_FILE_FORMAT);
        if (value == null) {
            return null;
        }
        String normalized = value.trim().toLowerCase(Locale.ROOT);
        for (VectorFileFormat candidate : values()) {
            if (candidate.extension.equals(normalized)) {
                return candidate;
            }
        }
        throw unsupported("vector-store files of format '" + value + "'", normalized);
    }

    private static RuntimeException unsupported(String what, String format) {
        String why =
                format.equals("lance")
                        ? "Lance files need Lance's native library, which Dovetail does not ship"
                        : "Dovetail reads and writes Avro and JSON vector-store files";
        return Errors.unsupported(
                what,
                why
                        + "; set '"
                        + TableOptions.VECTOR_FILE_FORMAT
                        + "' to 'avro' or 'json' (see docs/blobs-and-vectors.md)");
    }
}
