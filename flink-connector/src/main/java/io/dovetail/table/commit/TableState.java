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
package io.dovetail.table.commit;

import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.FileIdentity;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.snapshot.Snapshot;

import javax.annotation.Nullable;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The live data files and live index files of one snapshot (or of an empty table). Immutable. */
final class TableState {

    @Nullable private final Snapshot snapshot;
    private final Map<FileIdentity, ManifestEntry> liveFiles;
    private final List<IndexManifestEntry> indexFiles;

    private TableState(
            @Nullable Snapshot snapshot,
            Map<FileIdentity, ManifestEntry> liveFiles,
            List<IndexManifestEntry> indexFiles) {
        this.snapshot = snapshot;
        this.liveFiles = Collections.unmodifiableMap(liveFiles);
        this.indexFiles = List.copyOf(indexFiles);
    }

    static TableState empty() {
        return new TableState(null, new LinkedHashMap<>(), List.of());
    }

    static TableState of(
            Snapshot snapshot, List<ManifestEntry> liveFiles, List<IndexManifestEntry> indexFiles) {
        Map<FileIdentity, ManifestEntry> live = new LinkedHashMap<>();
        liveFiles.forEach(e -> live.put(e.identity(), e));
        return new TableState(snapshot, live, indexFiles);
    }

    /** The state of {@code next}, whose delta entries are {@code delta}, following this one. */
    TableState advance(
            Snapshot next, List<ManifestEntry> delta, List<IndexManifestEntry> nextIndexFiles) {
        Map<FileIdentity, ManifestEntry> live = new LinkedHashMap<>(liveFiles);
        for (ManifestEntry entry : delta) {
            if (entry.kind() == FileKind.DELETE) {
                live.remove(entry.identity());
            }
        }
        for (ManifestEntry entry : delta) {
            if (entry.kind() == FileKind.ADD) {
                live.put(entry.identity(), entry);
            }
        }
        return new TableState(next, live, nextIndexFiles);
    }

    @Nullable
    Snapshot snapshot() {
        return snapshot;
    }

    long snapshotId() {
        return snapshot == null ? 0 : snapshot.id();
    }

    long nextRowId() {
        return snapshot == null || snapshot.nextRowId() == null ? 0 : snapshot.nextRowId();
    }

    @Nullable
    String indexManifest() {
        return snapshot == null ? null : snapshot.indexManifest();
    }

    @Nullable
    ManifestEntry liveFile(FileIdentity identity) {
        return liveFiles.get(identity);
    }

    Collection<ManifestEntry> liveFiles() {
        return liveFiles.values();
    }

    /** The live files after applying a commit's data entries (DELETEs, then ADDs). */
    Collection<ManifestEntry> liveFilesAfter(List<ManifestEntry> changes) {
        return advance(snapshot, changes, indexFiles).liveFiles();
    }

    List<IndexManifestEntry> indexFiles() {
        return indexFiles;
    }
}
