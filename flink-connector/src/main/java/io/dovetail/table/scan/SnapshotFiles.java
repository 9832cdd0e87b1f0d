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
package io.dovetail.table.scan;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.index.IndexManifestFile;
import io.dovetail.table.manifest.LiveFileSet;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.manifest.ManifestFileReader;
import io.dovetail.table.manifest.ManifestListReader;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.LogicalType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * What one snapshot references: its base and delta manifest lists, the entries of their manifests,
 * the live data files (ADDs not cancelled by a DELETE) and the live index files. Every manifest is
 * read with the exact length recorded in metadata.
 */
public final class SnapshotFiles {

    private final TablePaths paths;
    private final Snapshot snapshot;
    private final BinaryRowCodec partitionCodec;
    private final PartitionPaths partitionPaths;
    @Nullable private List<IndexManifestEntry> indexFiles; // read once: a read plan asks twice

    /**
     * @param schema the schema the snapshot was committed with (it fixes the partition types)
     */
    public SnapshotFiles(TablePaths paths, Snapshot snapshot, TableSchema schema) {
        this.paths = paths;
        this.snapshot = snapshot;
        List<LogicalType> partitionTypes =
                schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList();
        this.partitionCodec = BinaryRowCodec.of(partitionTypes);
        this.partitionPaths =
                PartitionPaths.fromOptions(
                        schema.partitionKeys(), partitionTypes, schema.options());
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    public List<ManifestFileMeta> baseManifests() {
        return readList(snapshot.baseManifestList(), snapshot.baseManifestListSize());
    }

    public List<ManifestFileMeta> deltaManifests() {
        return readList(snapshot.deltaManifestList(), snapshot.deltaManifestListSize());
    }

    /** Base manifests followed by delta manifests: the table state of this snapshot. */
    public List<ManifestFileMeta> dataManifests() {
        List<ManifestFileMeta> all = new ArrayList<>(baseManifests());
        all.addAll(deltaManifests());
        return all;
    }

    public List<ManifestEntry> entries(ManifestFileMeta manifest) {
        return ManifestFileReader.read(paths.manifestDir(), manifest);
    }

    /** The entries this snapshot's commit made (its delta manifests). */
    public List<ManifestEntry> deltaEntries() {
        List<ManifestEntry> entries = new ArrayList<>();
        for (ManifestFileMeta manifest : deltaManifests()) {
            entries.addAll(entries(manifest));
        }
        return entries;
    }

    /** The live data files of this snapshot, in manifest order. */
    public List<ManifestEntry> liveFiles() {
        List<ManifestEntry> entries = new ArrayList<>();
        for (ManifestFileMeta manifest : dataManifests()) {
            entries.addAll(entries(manifest));
        }
        return LiveFileSet.merge(entries);
    }

    /** The live index files (deletion vectors, global indexes); empty without an index manifest. */
    public List<IndexManifestEntry> indexFiles() {
        if (indexFiles == null) {
            indexFiles =
                    snapshot.indexManifest() == null
                            ? List.of()
                            : List.copyOf(
                                    IndexManifestFile.read(
                                            paths.manifestFile(snapshot.indexManifest()), null));
        }
        return indexFiles;
    }

    /** Where a live file's bytes are: its external path, or its partition's bucket directory. */
    public Path dataFilePath(ManifestEntry entry) {
        if (entry.file().externalPath() != null) {
            return new Path(entry.file().externalPath());
        }
        String partitionPath =
                partitionPaths.path(partitionCodec.deserialize(entry.partition(), entry));
        return paths.dataFile(partitionPath, entry.bucket(), entry.file().fileName());
    }

    /**
     * Checks that every live data file exists with the size its metadata records; a missing or
     * truncated file is a clear error naming it and the snapshot that references it.
     */
    public void verifyLiveFiles() {
        for (ManifestEntry entry : liveFiles()) {
            Path file = dataFilePath(entry);
            String referencedBy = "a manifest entry of snapshot " + snapshot.id();
            if (!FileIO.exists(file)) {
                throw Errors.missingFile(file, referencedBy);
            }
            long length = FileIO.length(file);
            if (length != entry.file().fileSize()) {
                throw Errors.corruptFile(
                        file,
                        "its size is "
                                + length
                                + " bytes but "
                                + referencedBy
                                + " records "
                                + entry.file().fileSize());
            }
        }
    }

    private List<ManifestFileMeta> readList(String name, Long size) {
        if (name == null) {
            throw Errors.corruptFile(
                    paths.snapshotFile(snapshot.id()), "it names no manifest list");
        }
        return ManifestListReader.read(paths.manifestFile(name), size);
    }
}
