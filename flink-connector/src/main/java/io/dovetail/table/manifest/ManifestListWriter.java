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

import io.dovetail.table.path.FileNameFactory;

import org.apache.flink.core.fs.Path;

import java.util.List;

/**
 * Writes manifest lists {@code manifest-list-<uuid>-<n>}: one record per manifest file. An empty
 * list is a valid Avro file with zero records.
 */
public final class ManifestListWriter {

    private final Path manifestDir;
    private final AvroCodec codec;
    private final FileNameFactory names = new FileNameFactory();

    public ManifestListWriter(Path manifestDir, AvroCodec codec) {
        this.manifestDir = manifestDir;
        this.codec = codec;
    }

    public ManifestListWriter(Path manifestDir) {
        this(manifestDir, AvroCodec.DEFAULT);
    }

    /** Writes one new manifest list and returns its name and exact size. */
    public WrittenFile write(List<ManifestFileMeta> metas) {
        String fileName = names.newManifestListName();
        try (AvroFileWriter writer =
                AvroFileWriter.create(
                        new Path(manifestDir, fileName),
                        ManifestFileMetaAvro.SCHEMA,
                        codec,
                        Long.MAX_VALUE)) {
            for (ManifestFileMeta meta : metas) {
                writer.append(ManifestFileMetaAvro.toRecord(meta));
            }
            return new WrittenFile(fileName, writer.finish());
        }
    }
}
