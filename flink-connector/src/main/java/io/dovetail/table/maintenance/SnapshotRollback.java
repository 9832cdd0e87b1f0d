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
import io.dovetail.table.manifest.ManifestListWriter;
import io.dovetail.table.manifest.WrittenFile;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.core.fs.Path;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Rolls a table back to an older snapshot T, given by id or by tag (data-evolution semantics §2.1,
 * §9.2), without ever moving {@code nextRowId} back:
 *
 * <ol>
 *   <li>like Paimon's {@code rollback_to}, the snapshots after T and the tags of snapshots after T
 *       are deleted (newest first), and then every file only they referenced;
 *   <li>unlike Paimon's, a snapshot T+1 is then committed whose content is T's (its base manifest
 *       list holds T's data manifests, its delta is empty, its index manifest is T's) and whose
 *       {@code nextRowId} is that of the latest snapshot before the rollback, so the next commit
 *       assigns row ids above every id ever handed out, and a reader of a row id seen before the
 *       rollback never finds another row under it.
 * </ol>
 *
 * Deleting the newer snapshots (instead of re-adding T's files in a new snapshot on top of them)
 * keeps every file that leaves the table gone for good, which Paimon's and Dovetail's snapshot
 * expiry rely on: they delete a file once the snapshot whose delta removed it expires. Snapshot T+1
 * is an ordinary OVERWRITE snapshot with an empty delta, which Apache Paimon 1.4.2 reads and
 * expires like any other. The rollback, like Paimon's, must not run concurrently with writers; a
 * crash between deleting the newer snapshots and committing T+1 leaves T latest with its own {@code
 * nextRowId}.
 */
public final class SnapshotRollback {

    /**
     * What one rollback did.
     *
     * @param previousLatest the latest snapshot before the rollback
     * @param rolledBackTo the snapshot whose content the table now has
     * @param snapshotId the new latest snapshot (T+1), or the latest one when the table already had
     *     T's content
     * @param nextRowId the new latest snapshot's {@code nextRowId}
     */
    public record Result(
            long previousLatest,
            long rolledBackTo,
            long snapshotId,
            Long nextRowId,
            int deletedSnapshots,
            int deletedTags,
            int deletedDataFiles,
            int deletedMetadataFiles) {}

    private final TableStore store;
    private final TablePaths paths;

    public SnapshotRollback(TableStore store) {
        this.store = store;
        this.paths = store.paths();
    }

    /** Rolls back to snapshot {@code id}, which must still exist. */
    public Result toSnapshot(long id) {
        Snapshot latest = latest();
        if (id < 1 || id > latest.id() || !store.snapshots().exists(id)) {
            throw Errors.invalidArgument(
                    "Cannot roll back to snapshot "
                            + id
                            + ": it does not exist; the table's snapshots are "
                            + store.snapshots().earliestId().orElse(latest.id())
                            + ".."
                            + latest.id()
                            + ".");
        }
        return rollBack(latest, store.snapshots().snapshot(id));
    }

    /** Rolls back to the snapshot tag {@code name} keeps, which must still exist as a snapshot. */
    public Result toTag(String name) {
        Map<String, Snapshot> tags = TagFiles.byName(paths);
        Snapshot tagged = tags.get(name);
        if (tagged == null) {
            throw Errors.invalidArgument(
                    "Cannot roll back to tag '"
                            + name
                            + "': the table has no such tag; its tags are "
                            + tags.keySet()
                            + ".");
        }
        Snapshot latest = latest();
        if (!store.snapshots().exists(tagged.id())) {
            throw Errors.expiredSnapshot(
                    "roll back to tag '" + name + "'",
                    tagged.id(),
                    "the rollback",
                    store.snapshots().earliestId().orElse(latest.id()),
                    "Roll back to a snapshot that still exists, or restore the tag with Paimon.");
        }
        return rollBack(latest, tagged);
    }

    private Result rollBack(Snapshot latest, Snapshot target) {
        if (unchangedSince(target, latest)) {
            return new Result(
                    latest.id(), target.id(), latest.id(), latest.nextRowId(), 0, 0, 0, 0);
        }
        if (latest.changelogManifestList() != null) {
            throw Errors.unsupportedLayout(
                    "rolling back a table with changelog files",
                    "Data-evolution tables produce no changelog; roll this table back with Paimon");
        }
        FileReferences freed = new FileReferences();
        for (long id = target.id() + 1; id <= latest.id(); id++) {
            Snapshot dropped = store.snapshots().snapshot(id);
            freed.addSnapshot(store, dropped, false);
            SnapshotFiles files = store.files(dropped);
            for (ManifestEntry entry : files.deltaEntries()) {
                if (entry.kind() == FileKind.ADD) {
                    freed.addDataFile(files.dataFilePath(entry));
                }
            }
        }
        FileReferences kept = new FileReferences();
        kept.addSnapshot(store, target, true);
        List<Path> droppedTags = new ArrayList<>();
        for (Map.Entry<String, Snapshot> tag : TagFiles.byName(paths).entrySet()) {
            if (tag.getValue().id() > target.id()) {
                freed.addSnapshot(store, tag.getValue(), true);
                droppedTags.add(TagFiles.file(paths, tag.getKey()));
            } else {
                kept.addSnapshot(store, tag.getValue(), true);
            }
        }
        freed.removeAll(kept);

        Snapshot restored = restoredSnapshot(latest, target);
        for (long id = latest.id(); id > target.id(); id--) {
            FileIO.deleteQuietly(paths.snapshotFile(id));
        }
        droppedTags.forEach(FileIO::deleteQuietly);
        if (!store.snapshots()
                .tryCommit(restored, TableOptions.writers(store.latestSchema().options()))) {
            throw Errors.conflict(
                    "Another writer committed snapshot "
                            + restored.id()
                            + " while table "
                            + paths.root()
                            + " was rolled back to snapshot "
                            + target.id()
                            + "; the snapshots after it are gone, so the next commit may reuse row"
                            + " ids from "
                            + target.nextRowId()
                            + ". Stop the writers and roll back again.");
        }
        int data = FileReferences.deleteAll(freed.dataFiles());
        int metadata = FileReferences.deleteAll(freed.metadata());
        return new Result(
                latest.id(),
                target.id(),
                restored.id(),
                restored.nextRowId(),
                (int) (latest.id() - target.id()),
                droppedTags.size(),
                data,
                metadata);
    }

    /**
     * Whether the table's content is still {@code target}'s in {@code latest}: every later snapshot
     * has an empty delta and {@code target}'s index manifest (e.g. the one a rollback committed).
     */
    private boolean unchangedSince(Snapshot target, Snapshot latest) {
        for (long id = target.id() + 1; id <= latest.id(); id++) {
            Snapshot later = store.snapshots().snapshot(id);
            if (!Objects.equals(later.indexManifest(), target.indexManifest())
                    || !store.files(later).deltaEntries().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Snapshot T+1: T's content and index, the latest snapshot's {@code nextRowId}. */
    private Snapshot restoredSnapshot(Snapshot latest, Snapshot target) {
        ManifestListWriter lists = new ManifestListWriter(paths.manifestDir());
        WrittenFile base = lists.write(store.files(target).dataManifests());
        WrittenFile delta = lists.write(List.of());
        return Snapshot.builder()
                .id(target.id() + 1)
                .schemaId(store.latestSchema().id())
                .baseManifestList(base.fileName())
                .baseManifestListSize(base.fileSize())
                .deltaManifestList(delta.fileName())
                .deltaManifestListSize(delta.fileSize())
                .indexManifest(target.indexManifest())
                .commitUser("dovetail-rollback-" + UUID.randomUUID())
                .commitIdentifier(Long.MAX_VALUE)
                .commitKind(CommitKind.OVERWRITE)
                .timeMillis(System.currentTimeMillis())
                .totalRecordCount(target.totalRecordCount())
                .deltaRecordCount(0)
                .watermark(target.watermark())
                .statistics(target.statistics())
                .nextRowId(latest.nextRowId())
                .build();
    }

    private Snapshot latest() {
        return store.latestSnapshot()
                .orElseThrow(
                        () ->
                                Errors.invalidArgument(
                                        "Cannot roll back table "
                                                + paths.root()
                                                + ": it has no snapshot."));
    }
}
