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
package io.dovetail.table.index;

import io.dovetail.table.manifest.AvroCodec;
import io.dovetail.table.manifest.AvroFileReader;
import io.dovetail.table.manifest.AvroFileWriter;
import io.dovetail.table.manifest.WrittenFile;
import io.dovetail.table.path.FileNameFactory;

import org.apache.flink.core.fs.Path;

import javax.annotation.Nullable;

import java.util.List;

/**
 * Reads and writes index manifests ({@code index-manifest-<uuid>-<n>}), the Avro listing of a
 * snapshot's live index files.
 */
public final class IndexManifestFile {

    private final Path manifestDir;
    private final AvroCodec codec;
    private final FileNameFactory names = new FileNameFactory();

    public IndexManifestFile(Path manifestDir, AvroCodec codec) {
        this.manifestDir = manifestDir;
        this.codec = codec;
    }

    /** Writes one new index manifest and returns its name and exact size. */
    public WrittenFile write(List<IndexManifestEntry> entries) {
        String fileName = names.newIndexManifestName();
        try (AvroFileWriter writer =
                AvroFileWriter.create(
                        new Path(manifestDir, fileName),
                        IndexManifestAvro.SCHEMA,
                        codec,
                        Long.MAX_VALUE)) {
            for (IndexManifestEntry entry : entries) {
                writer.append(IndexManifestAvro.toRecord(entry));
            }
            return new WrittenFile(fileName, writer.finish());
        }
    }

    /**
     * Reads an index manifest.
     *
     * @param knownLength the exact size if known (snapshots do not record it), else null
     */
    public static List<IndexManifestEntry> read(Path file, @Nullable Long knownLength) {
        return AvroFileReader.read(
                file,
                knownLength,
                IndexManifestAvro.SCHEMA,
                IndexManifestAvro::fromRecord,
                "a snapshot");
    }
}
