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
package io.dovetail.table.path;

import io.dovetail.table.error.Errors;

import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fresh names for the files one writer creates: {@code <prefix><uuid>-<n>} with one random UUID per
 * factory and a counter from 0, plus {@code .<format>} for data files. Readers never parse the UUID
 * or counter, they only use names stored in metadata, so names only need to be unique and keep the
 * prefix (and the data-file extension, from which Paimon picks the reader). Thread-safe.
 */
public final class FileNameFactory {

    public static final String DATA_FILE_PREFIX = "data-";
    public static final String MANIFEST_FILE_PREFIX = "manifest-";
    public static final String MANIFEST_LIST_PREFIX = "manifest-list-";
    public static final String INDEX_MANIFEST_PREFIX = "index-manifest-";
    public static final String INDEX_FILE_PREFIX = "index-";

    private final String uuid;
    private final AtomicLong counter = new AtomicLong();

    public FileNameFactory() {
        this(UUID.randomUUID());
    }

    public FileNameFactory(UUID uuid) {
        this.uuid = uuid.toString();
    }

    /**
     * {@code data-<uuid>-<n>.<format>}, format lower-cased (e.g. {@code parquet}, or {@code
     * vector.avro} for a vector-store file).
     */
    public String newDataFileName(String format) {
        String extension = format == null ? "" : format.toLowerCase(Locale.ROOT);
        if (!extension.matches("[a-z0-9]+(\\.[a-z0-9]+)*")) {
            throw Errors.invalidArgument(
                    "Invalid data file format '" + format + "': expected e.g. 'parquet'.");
        }
        return next(DATA_FILE_PREFIX) + "." + extension;
    }

    /** A manifest file in {@code manifest/}. */
    public String newManifestFileName() {
        return next(MANIFEST_FILE_PREFIX);
    }

    /** A manifest list (base, delta or changelog) in {@code manifest/}. */
    public String newManifestListName() {
        return next(MANIFEST_LIST_PREFIX);
    }

    /** An index manifest in {@code manifest/}. */
    public String newIndexManifestName() {
        return next(INDEX_MANIFEST_PREFIX);
    }

    /** An index file (e.g. deletion vectors) in {@code index/}. */
    public String newIndexFileName() {
        return next(INDEX_FILE_PREFIX);
    }

    private String next(String prefix) {
        return prefix + uuid + "-" + counter.getAndIncrement();
    }
}
