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

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a commit knows of one snapshot (or of an empty table): its live index files and the live
 * data files of the partitions loaded so far. A commit loads only the partitions its checks look at
 * ({@link SnapshotHistory}, {@link TableCommit}); asking for the files of a partition that is not
 * loaded is a bug and fails rather than answering from a part of the table. Immutable.
 */
final class TableState {

    @Nullable private final Snapshot snapshot;
    private final boolean allLoaded;
    private final Set<ByteBuffer> loaded;
    private final Map<FileIdentity, ManifestEntry> liveFiles;
    private final List<IndexManifestEntry> indexFiles;

    private TableState(
            @Nullable Snapshot snapshot,
            boolean allLoaded,
            Set<ByteBuffer> loaded,
            Map<FileIdentity, ManifestEntry> liveFiles,
            List<IndexManifestEntry> indexFiles) {
        this.snapshot = snapshot;
        this.allLoaded = allLoaded;
        this.loaded = Collections.unmodifiableSet(loaded);
        this.liveFiles = Collections.unmodifiableMap(liveFiles);
        this.indexFiles = List.copyOf(indexFiles);
    }

    /** An empty table: every partition is known (to have no files). */
    static TableState empty() {
        return new TableState(null, true, Set.of(), new LinkedHashMap<>(), List.of());
    }

    /** {@code snapshot} with its index files and no partition's data files loaded yet. */
    static TableState unloaded(Snapshot snapshot, List<IndexManifestEntry> indexFiles) {
        return new TableState(snapshot, false, Set.of(), new LinkedHashMap<>(), indexFiles);
    }

    /** This state with {@code partitions} loaded; {@code liveFiles} are all their live files. */
    TableState withPartitions(Set<ByteBuffer> partitions, List<ManifestEntry> liveFiles) {
        Set<ByteBuffer> nowLoaded = new HashSet<>(loaded);
        nowLoaded.addAll(partitions);
        Map<FileIdentity, ManifestEntry> live = new LinkedHashMap<>(this.liveFiles);
        for (ManifestEntry entry : liveFiles) {
            if (!partitions.contains(ByteBuffer.wrap(entry.partition()))) {
                throw new IllegalStateException("Loaded a file of another partition: " + entry);
            }
            live.put(entry.identity(), entry);
        }
        return new TableState(snapshot, allLoaded, nowLoaded, live, indexFiles);
    }

    /**
     * The state of {@code next}, whose delta entries are {@code delta}, following this one; entries
     * of partitions that are not loaded are skipped.
     */
    TableState advance(
            Snapshot next, List<ManifestEntry> delta, List<IndexManifestEntry> nextIndexFiles) {
        return new TableState(next, allLoaded, loaded, applied(delta, false), nextIndexFiles);
    }

    /** The partitions of {@code wanted} that are not loaded. */
    Set<ByteBuffer> notLoaded(Set<ByteBuffer> wanted) {
        Set<ByteBuffer> missing = new HashSet<>();
        if (!allLoaded) {
            wanted.stream().filter(p -> !loaded.contains(p)).forEach(missing::add);
        }
        return missing;
    }

    /** Whether no partition's live files are loaded (advancing such a state gains nothing). */
    boolean loadsNothing() {
        return !allLoaded && loaded.isEmpty();
    }

    boolean isLoaded(byte[] partition) {
        return allLoaded || loaded.contains(ByteBuffer.wrap(partition));
    }

    /** Fails unless the live files of {@code partition} are loaded. */
    void requireLoaded(byte[] partition) {
        if (!isLoaded(partition)) {
            throw new IllegalStateException(
                    "The live files of a partition the commit looks at were not loaded");
        }
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

    /** The live entry of the file {@code entry} names; its partition must be loaded. */
    @Nullable
    ManifestEntry liveFile(ManifestEntry entry) {
        requireLoaded(entry.partition());
        return liveFiles.get(entry.identity());
    }

    /** The live files of the loaded partitions. */
    Collection<ManifestEntry> liveFiles() {
        return liveFiles.values();
    }

    /**
     * The live files of the loaded partitions after applying a commit's data entries (DELETEs, then
     * ADDs), plus the files it adds to other partitions. The partition of every DELETE must be
     * loaded.
     */
    Collection<ManifestEntry> liveFilesAfter(List<ManifestEntry> changes) {
        return applied(changes, true).values();
    }

    List<IndexManifestEntry> indexFiles() {
        return indexFiles;
    }

    private Map<FileIdentity, ManifestEntry> applied(List<ManifestEntry> changes, boolean commit) {
        Map<FileIdentity, ManifestEntry> live = new LinkedHashMap<>(liveFiles);
        for (ManifestEntry entry : changes) {
            if (entry.kind() == FileKind.DELETE) {
                if (commit) {
                    requireLoaded(entry.partition());
                }
                live.remove(entry.identity());
            }
        }
        for (ManifestEntry entry : changes) {
            if (entry.kind() == FileKind.ADD && (commit || isLoaded(entry.partition()))) {
                live.put(entry.identity(), entry);
            }
        }
        return live;
    }
}
