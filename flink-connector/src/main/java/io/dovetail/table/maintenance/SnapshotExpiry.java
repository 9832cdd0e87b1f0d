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
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.snapshot.Consumers;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.snapshot.SnapshotPins;

import java.util.OptionalLong;

/**
 * Expires old snapshots and deletes the files only they referenced. The snapshots expired are a
 * prefix {@code [earliest, end)} of the history, chosen by an {@link ExpireConfig}; snapshots that
 * tags keep, and that streaming consumers still have to read, stay.
 *
 * <p>A file is freed when no kept snapshot references it: data files deleted by the commits {@code
 * (earliest, end]}, and manifests, manifest lists, index manifests, index files and statistics of
 * the expired snapshots, minus everything snapshot {@code end} and the tagged snapshots reference
 * (a file that left the table never comes back, so newer snapshots need no reading).
 *
 * <p>Order, safer than Paimon's: everything to delete is computed first, then the snapshot files go
 * (oldest first) and the {@code EARLIEST} hint moves, and only then are the freed files deleted. A
 * crash at any point leaves every remaining snapshot readable; at worst it leaves unreferenced
 * files behind.
 */
public final class SnapshotExpiry {

    private final TableStore store;

    public SnapshotExpiry(TableStore store) {
        this.store = store;
    }

    /** What one run did. */
    public record Result(
            int expiredSnapshots,
            long earliestSnapshot,
            int deletedDataFiles,
            int deletedMetadataFiles) {}

    /** Expires what {@code config} allows, measuring snapshot ages against {@code nowMillis}. */
    public Result expire(ExpireConfig config, long nowMillis) {
        OptionalLong latestId = store.snapshots().latestId();
        OptionalLong earliestId = store.snapshots().earliestId();
        if (latestId.isEmpty() || earliestId.isEmpty()) {
            return new Result(0, 0, 0, 0);
        }
        long earliest = earliestId.getAsLong();
        long end = end(config, earliest, latestId.getAsLong(), nowMillis);
        if (end <= earliest) {
            store.snapshots().writeEarliestHint(earliest);
            return new Result(0, earliest, 0, 0);
        }

        FileReferences freed = new FileReferences();
        for (long id = earliest; id < end; id++) {
            Snapshot expired = store.snapshots().snapshot(id);
            if (expired.changelogManifestList() != null) {
                throw Errors.unsupportedLayout(
                        "expiring snapshot " + id + ", which has a changelog",
                        "Data-evolution tables produce no changelog; expire this table with"
                                + " Paimon");
            }
            freed.addSnapshot(store, expired, false);
        }
        for (long id = earliest + 1; id <= end; id++) {
            SnapshotFiles files = store.files(store.snapshots().snapshot(id));
            for (ManifestEntry entry : files.deltaEntries()) {
                if (entry.kind() == FileKind.DELETE) {
                    freed.addDataFile(files.dataFilePath(entry));
                }
            }
        }
        FileReferences kept = new FileReferences();
        kept.addSnapshot(store, store.snapshots().snapshot(end), true);
        for (Snapshot tagged : TagFiles.byName(store.paths()).values()) {
            kept.addSnapshot(store, tagged, true);
        }
        freed.removeAll(kept);

        for (long id = earliest; id < end; id++) {
            FileIO.deleteQuietly(store.paths().snapshotFile(id));
        }
        store.snapshots().writeEarliestHint(end);
        int data = FileReferences.deleteAll(freed.dataFiles());
        int metadata = FileReferences.deleteAll(freed.metadata());
        return new Result((int) (end - earliest), end, data, metadata);
    }

    /**
     * The first snapshot to keep: everything older than the {@code retainMax} newest goes; of the
     * rest, snapshots older than {@code timeRetained} go while at least {@code retainMin} stay, in
     * order, at most {@code maxExpires} in all, never past what a consumer still has to read.
     */
    private long end(ExpireConfig config, long earliest, long latest, long nowMillis) {
        long end = Math.max(earliest, latest - config.retainMax() + 1);
        long limit =
                Math.min(latest - config.retainMin() + 1, earliest + (long) config.maxExpires());
        new SnapshotPins(store.paths()).removeExpired(nowMillis);
        Consumers consumers = new Consumers(store.paths());
        if (config.consumerLifetime() != null) {
            consumers.removeUnwrittenSince(nowMillis - config.consumerLifetime().toMillis());
        }
        limit = Math.min(limit, consumers.oldestNeeded());
        long olderThan = nowMillis - config.timeRetained().toMillis();
        end = Math.min(end, limit);
        while (end < limit && store.snapshots().snapshot(end).timeMillis() < olderThan) {
            end++;
        }
        return end;
    }
}
