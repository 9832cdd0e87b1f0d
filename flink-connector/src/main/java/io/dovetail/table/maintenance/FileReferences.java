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
package io.dovetail.table.maintenance;

import io.dovetail.table.TableStore;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.core.fs.Path;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Files that snapshots reference, as paths: data files, manifests, manifest lists, index manifests,
 * index files and statistics files. Sets of references are combined and subtracted to find what
 * expiring snapshots frees.
 */
final class FileReferences {

    private final Set<Path> metadata = new LinkedHashSet<>();
    private final Set<Path> dataFiles = new LinkedHashSet<>();
    private final Set<String> readIndexManifests = new LinkedHashSet<>();

    /** Metadata files: manifests, manifest lists, index manifests and files, statistics. */
    Set<Path> metadata() {
        return metadata;
    }

    Set<Path> dataFiles() {
        return dataFiles;
    }

    /**
     * Adds the metadata {@code snapshot} references; with {@code liveDataFiles}, also the data
     * files live in it (reads every manifest).
     */
    void addSnapshot(TableStore store, Snapshot snapshot, boolean liveDataFiles) {
        TablePaths paths = store.paths();
        SnapshotFiles files = store.files(snapshot);
        metadata.add(paths.manifestFile(snapshot.baseManifestList()));
        metadata.add(paths.manifestFile(snapshot.deltaManifestList()));
        if (snapshot.changelogManifestList() != null) {
            metadata.add(paths.manifestFile(snapshot.changelogManifestList()));
        }
        for (ManifestFileMeta manifest : files.dataManifests()) {
            metadata.add(paths.manifestFile(manifest.fileName()));
        }
        if (snapshot.statistics() != null) {
            metadata.add(paths.statisticsFile(snapshot.statistics()));
        }
        if (snapshot.indexManifest() != null && readIndexManifests.add(snapshot.indexManifest())) {
            metadata.add(paths.manifestFile(snapshot.indexManifest()));
            for (IndexManifestEntry entry : files.indexFiles()) {
                metadata.add(entry.indexFile().path(paths.indexDir()));
            }
        }
        if (liveDataFiles) {
            files.liveFiles().forEach(entry -> dataFiles.add(files.dataFilePath(entry)));
        }
    }

    void addDataFile(Path path) {
        dataFiles.add(path);
    }

    /** Removes everything {@code other} references. */
    void removeAll(FileReferences other) {
        metadata.removeAll(other.metadata);
        dataFiles.removeAll(other.dataFiles);
    }

    /** Deletes {@code files}; returns how many were there to delete. */
    static int deleteAll(Iterable<Path> files) {
        int deleted = 0;
        for (Path file : files) {
            if (FileIO.deleteQuietly(file)) {
                deleted++;
            }
        }
        return deleted;
    }
}
