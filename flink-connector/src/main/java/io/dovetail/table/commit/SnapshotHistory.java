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
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.snapshot.Snapshot;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The snapshots a committer looks at, read once: snapshot files and delta entries are immutable, so
 * they are cached, and the live state of the latest snapshot is advanced snapshot by snapshot from
 * the previous one instead of re-reading every manifest. Thread-safe.
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

    /** The live state of {@code latest} (empty table if absent). */
    synchronized TableState stateAt(Optional<Snapshot> latest) {
        if (latest.isEmpty()) {
            return TableState.empty();
        }
        Snapshot target = latest.get();
        if (state.snapshotId() == target.id()) {
            return state;
        }
        if (state.snapshot() == null || state.snapshotId() > target.id()) {
            state = readFully(target);
            return state;
        }
        TableState advanced = state;
        for (long id = state.snapshotId() + 1; id <= target.id(); id++) {
            Optional<Snapshot> next = read(id);
            if (next.isEmpty()) {
                state = readFully(target); // expired or rolled back meanwhile
                return state;
            }
            advanced =
                    advanced.advance(
                            next.get(), delta(next.get()), indexFiles(advanced, next.get()));
        }
        state = advanced;
        return state;
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

    private TableState readFully(Snapshot snapshot) {
        SnapshotFiles files = store.files(snapshot);
        return TableState.of(snapshot, files.liveFiles(), files.indexFiles());
    }

    private List<IndexManifestEntry> indexFiles(TableState previous, Snapshot next) {
        if (Objects.equals(previous.indexManifest(), next.indexManifest())) {
            return previous.indexFiles();
        }
        return store.files(next).indexFiles();
    }
}
