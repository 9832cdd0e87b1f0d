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

import io.dovetail.table.TableStore;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.LiveFileSet;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.manifest.ManifestPartitionFilter;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.types.logical.LogicalType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The snapshots a committer looks at, read once: snapshot files and delta entries are immutable, so
 * they are cached. The live files a commit looks at ({@link CommitScope}) are loaded from the
 * manifests whose partition statistics and row-id bounds can hold them the first time a commit
 * looks at them; after that they are advanced snapshot by snapshot with the delta entries instead
 * of re-reading manifests. So a commit reads the manifests of what it touches and the commits
 * since, not the whole table. Thread-safe.
 */
final class SnapshotHistory {

    private static final int CACHED_DELTAS = 512;

    private final TableStore store;
    private final Map<Long, List<ManifestEntry>> deltas =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, List<ManifestEntry>> eldest) {
                    return size() > CACHED_DELTAS;
                }
            };
    private TableState state = TableState.empty();

    SnapshotHistory(TableStore store) {
        this.store = store;
    }

    /**
     * The state of {@code latest} (empty table if absent) with at least the live files of {@code
     * partitions} loaded.
     */
    synchronized TableState stateAt(Optional<Snapshot> latest, CommitScope scope) {
        if (latest.isEmpty()) {
            return TableState.empty();
        }
        state = advanced(latest.get());
        CommitScope missing = state.notLoaded(scope);
        if (!missing.isEmpty()) {
            state = state.withLoaded(missing, liveFiles(latest.get(), missing));
        }
        return state;
    }

    /** The cached state moved to {@code target}; nothing is loaded if it cannot be moved. */
    private TableState advanced(Snapshot target) {
        if (state.snapshotId() == target.id()) {
            return state;
        }
        if (state.snapshot() == null || state.snapshotId() > target.id() || state.loadsNothing()) {
            return TableState.unloaded(target, indexFiles(state, target));
        }
        TableState advanced = state;
        for (long id = state.snapshotId() + 1; id <= target.id(); id++) {
            Optional<Snapshot> next = read(id);
            if (next.isEmpty()) { // expired or rolled back meanwhile
                return TableState.unloaded(target, indexFiles(state, target));
            }
            advanced =
                    advanced.advance(
                            next.get(), delta(next.get()), indexFiles(advanced, next.get()));
        }
        return advanced;
    }

    /** The entries the commit of {@code snapshot} made. */
    synchronized List<ManifestEntry> delta(Snapshot snapshot) {
        List<ManifestEntry> cached = deltas.get(snapshot.id());
        if (cached == null) {
            cached = List.copyOf(store.files(snapshot).deltaEntries());
            deltas.put(snapshot.id(), cached);
        }
        return cached;
    }

    /** Snapshot {@code id}, or empty if it does not exist (any more). */
    Optional<Snapshot> read(long id) {
        try {
            return Optional.of(store.snapshots().snapshot(id));
        } catch (DovetailException e) {
            if (e.kind() == DovetailException.Kind.NO_SUCH_SNAPSHOT) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * The live files of {@code scope} in {@code snapshot}, from the manifests whose partition
     * statistics and row-id bounds can hold them.
     */
    private List<ManifestEntry> liveFiles(Snapshot snapshot, CommitScope scope) {
        SnapshotFiles files = store.files(snapshot);
        List<LogicalType> partitionTypes =
                store.schemas().schema(snapshot.schemaId()).partitionTypes().stream()
                        .map(FlinkTypes::toFlink)
                        .toList();
        ManifestPartitionFilter whole =
                new ManifestPartitionFilter(partitionTypes, scope.partitions());
        ManifestPartitionFilter ranged =
                new ManifestPartitionFilter(partitionTypes, scope.rows().keySet());
        List<RowRange> rows = new ArrayList<>();
        scope.rows().values().forEach(rows::addAll);
        List<RowRange> allRows = RowRange.normalize(rows);
        List<ManifestEntry> entries = new ArrayList<>();
        for (ManifestFileMeta manifest : files.dataManifests()) {
            if (whole.mayHold(manifest)
                    || (ranged.mayHold(manifest) && mayHoldRows(manifest, allRows))) {
                for (ManifestEntry entry : files.entries(manifest)) {
                    if (scope.wants(entry)) {
                        entries.add(entry);
                    }
                }
            }
        }
        return LiveFileSet.merge(entries);
    }

    private static boolean mayHoldRows(ManifestFileMeta manifest, List<RowRange> rows) {
        return manifest.minRowId() == null
                || manifest.maxRowId() == null
                || CommitScope.overlapsAny(
                        rows, new RowRange(manifest.minRowId(), manifest.maxRowId()));
    }

    private List<IndexManifestEntry> indexFiles(TableState previous, Snapshot next) {
        if (Objects.equals(previous.indexManifest(), next.indexManifest())) {
            return previous.indexFiles();
        }
        return store.files(next).indexFiles();
    }
}
