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
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.path.FileNameFactory;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.LogicalType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes manifest entries to new manifest files {@code manifest-<uuid>-<n>} in a manifest
 * directory, rolling to a new file once a file reaches the target size, and returns one {@link
 * ManifestFileMeta} per file with its exact size and counts. No entries give no files.
 */
public final class ManifestFileWriter {

    /** Paimon's default {@code manifest.target-file-size}. */
    public static final long DEFAULT_TARGET_FILE_SIZE = 8L * 1024 * 1024;

    private final Path manifestDir;
    private final List<LogicalType> partitionTypes;
    private final AvroCodec codec;
    private final long targetFileSize;
    private final FileNameFactory names = new FileNameFactory();

    /**
     * @param partitionTypes types of the partition columns, for the partition statistics
     */
    public ManifestFileWriter(
            Path manifestDir,
            List<LogicalType> partitionTypes,
            AvroCodec codec,
            long targetFileSize) {
        if (targetFileSize <= 0) {
            throw Errors.invalidArgument(
                    "Manifest target file size must be positive, got " + targetFileSize);
        }
        this.manifestDir = manifestDir;
        this.partitionTypes = List.copyOf(partitionTypes);
        this.codec = codec;
        this.targetFileSize = targetFileSize;
    }

    public ManifestFileWriter(Path manifestDir, List<LogicalType> partitionTypes) {
        this(manifestDir, partitionTypes, AvroCodec.DEFAULT, DEFAULT_TARGET_FILE_SIZE);
    }

    /**
     * Writes {@code entries} in order. If writing fails, the files this call created are deleted.
     */
    public List<ManifestFileMeta> write(List<ManifestEntry> entries) {
        try (Rolling files = rolling()) {
            entries.forEach(files::add);
            return files.finish();
        }
    }

    /** A writer taking entries one at a time, so that no caller has to hold them all. */
    public Rolling rolling() {
        return new Rolling();
    }

    /**
     * Entries written one at a time to files rolled at the target size. Closing it without a
     * successful {@link #finish()} deletes every file it created, so use it in try-with-resources.
     */
    public final class Rolling implements AutoCloseable {

        private final List<ManifestFileMeta> metas = new ArrayList<>();
        @Nullable private AvroFileWriter file;
        @Nullable private ManifestFileMetaCollector collector;
        @Nullable private String fileName;
        private boolean finished;

        private Rolling() {}

        public void add(ManifestEntry entry) {
            if (file == null) {
                fileName = names.newManifestFileName();
                collector = new ManifestFileMetaCollector(partitionTypes);
                file =
                        AvroFileWriter.create(
                                new Path(manifestDir, fileName),
                                ManifestEntryAvro.SCHEMA,
                                codec,
                                targetFileSize);
            }
            collector.add(entry);
            file.append(ManifestEntryAvro.toRecord(entry));
            if (file.flushedBytes() >= targetFileSize) {
                closeFile();
            }
        }

        /** Completes the last file; the files written, in order (none without entries). */
        public List<ManifestFileMeta> finish() {
            if (file != null) {
                closeFile();
            }
            finished = true;
            return List.copyOf(metas);
        }

        private void closeFile() {
            try (AvroFileWriter closing = file) {
                file = null;
                metas.add(collector.finish(fileName, closing.finish()));
            }
        }

        @Override
        public void close() {
            if (finished) {
                return;
            }
            if (file != null) {
                file.close(); // deletes the unfinished file
                file = null;
            }
            for (ManifestFileMeta meta : metas) {
                FileIO.deleteQuietly(new Path(manifestDir, meta.fileName()));
            }
        }
    }
}
