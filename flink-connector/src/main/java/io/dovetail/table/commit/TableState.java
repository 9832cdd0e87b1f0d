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
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.snapshot.Snapshot;

import javax.annotation.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a commit knows of one snapshot (or of an empty table): its live index files and the live
 * data files of what was loaded so far, a {@link CommitScope}: whole partitions, and row ranges of
 * others (every live file overlapping them). A commit loads only what its checks look at ({@link
 * SnapshotHistory}); asking for files that are not loaded is a bug and fails rather than answering
 * from a part of the table. Immutable.
 */
final class TableState {

    @Nullable private final Snapshot snapshot;
    private final boolean allLoaded;
    private final CommitScope loaded;
    private final Map<FileIdentity, ManifestEntry> liveFiles;
    private final List<IndexManifestEntry> indexFiles;

    private TableState(
            @Nullable Snapshot snapshot,
            boolean allLoaded,
            CommitScope loaded,
            Map<FileIdentity, ManifestEntry> liveFiles,
            List<IndexManifestEntry> indexFiles) {
        this.snapshot = snapshot;
        this.allLoaded = allLoaded;
        this.loaded = loaded;
        this.liveFiles = Collections.unmodifiableMap(liveFiles);
        this.indexFiles = List.copyOf(indexFiles);
    }

    /** An empty table: every partition is known (to have no files). */
    static TableState empty() {
        return new TableState(null, true, CommitScope.NONE, new LinkedHashMap<>(), List.of());
    }

    /** {@code snapshot} with its index files and no data files loaded yet. */
    static TableState unloaded(Snapshot snapshot, List<IndexManifestEntry> indexFiles) {
        return new TableState(snapshot, false, CommitScope.NONE, new LinkedHashMap<>(), indexFiles);
    }

    /** This state with {@code scope} loaded too; {@code liveFiles} are its live files. */
    TableState withLoaded(CommitScope scope, List<ManifestEntry> liveFiles) {
        Set<ByteBuffer> partitions = new HashSet<>(loaded.partitions());
        partitions.addAll(scope.partitions());
        Map<ByteBuffer, List<RowRange>> rows = new HashMap<>();
        Set<ByteBuffer> ranged = new HashSet<>(loaded.rows().keySet());
        ranged.addAll(scope.rows().keySet());
        for (ByteBuffer partition : ranged) {
            if (!partitions.contains(partition)) {
                List<RowRange> ranges =
                        new ArrayList<>(loaded.rows().getOrDefault(partition, List.of()));
                ranges.addAll(scope.rows().getOrDefault(partition, List.of()));
                rows.put(partition, RowRange.normalize(ranges));
            }
        }
        Map<FileIdentity, ManifestEntry> live = new LinkedHashMap<>(this.liveFiles);
        for (ManifestEntry entry : liveFiles) {
            if (!scope.wants(entry)) {
                throw new IllegalStateException("Loaded a file the scope does not want: " + entry);
            }
            live.put(entry.identity(), entry);
        }
        return new TableState(
                snapshot, allLoaded, new CommitScope(partitions, rows), live, indexFiles);
    }

    /**
     * The state of {@code next}, whose delta entries are {@code delta}, following this one; entries
     * outside what is loaded are skipped.
     */
    TableState advance(
            Snapshot next, List<ManifestEntry> delta, List<IndexManifestEntry> nextIndexFiles) {
        return new TableState(next, allLoaded, loaded, applied(delta, false), nextIndexFiles);
    }

    /** The part of {@code wanted} that is not loaded. */
    CommitScope notLoaded(CommitScope wanted) {
        if (allLoaded) {
            return CommitScope.NONE;
        }
        Set<ByteBuffer> partitions = new HashSet<>(wanted.partitions());
        partitions.removeAll(loaded.partitions());
        Map<ByteBuffer, List<RowRange>> rows = new HashMap<>();
        wanted.rows()
                .forEach(
                        (partition, ranges) -> {
                            if (loaded.partitions().contains(partition)) {
                                return;
                            }
                            List<RowRange> have = loaded.rows().getOrDefault(partition, List.of());
                            List<RowRange> missing =
                                    ranges.stream()
                                            .filter(r -> !CommitScope.coveredBy(have, r))
                                            .toList();
                            if (!missing.isEmpty()) {
                                rows.put(partition, missing);
                            }
                        });
        return new CommitScope(partitions, rows);
    }

    /** Whether no data files are loaded (advancing such a state gains nothing). */
    boolean loadsNothing() {
        return !allLoaded && loaded.isEmpty();
    }

    /** Whether every live file of {@code partition} is loaded. */
    boolean isLoaded(byte[] partition) {
        return allLoaded || loaded.partitions().contains(ByteBuffer.wrap(partition));
    }

    /** Fails unless every live file of {@code partition} is loaded. */
    void requireLoaded(byte[] partition) {
        if (!isLoaded(partition)) {
            throw notLoaded();
        }
    }

    /** Fails unless every live file of {@code entry}'s partition overlapping its rows is loaded. */
    void requireLoaded(ManifestEntry entry) {
        if (isLoaded(entry.partition())) {
            return;
        }
        List<RowRange> ranges = loaded.rows().get(ByteBuffer.wrap(entry.partition()));
        if (ranges == null
                || entry.file().firstRowId() == null
                || !CommitScope.coveredBy(ranges, RowRange.of(entry.file()))) {
            throw notLoaded();
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

    /** The live entry of the file {@code entry} names; all of its partition must be loaded. */
    @Nullable
    ManifestEntry liveFile(ManifestEntry entry) {
        requireLoaded(entry.partition());
        return liveFiles.get(entry.identity());
    }

    /** The live files loaded. */
    Collection<ManifestEntry> liveFiles() {
        return liveFiles.values();
    }

    /**
     * The live files loaded after applying a commit's data entries (DELETEs, then ADDs), with every
     * file it adds. All of the partition of every DELETE must be loaded.
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
            if (entry.kind() == FileKind.ADD && (commit || allLoaded || loaded.wants(entry))) {
                live.put(entry.identity(), entry);
            }
        }
        return live;
    }

    private static IllegalStateException notLoaded() {
        return new IllegalStateException("The live files a commit check looks at were not loaded");
    }
}
