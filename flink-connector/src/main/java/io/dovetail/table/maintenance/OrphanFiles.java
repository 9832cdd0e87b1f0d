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
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Removes orphan files, as Paimon's {@code remove_orphan_files}: files in a table's data
 * directories ({@code <partition>/bucket-N/}) and in {@code manifest/}, {@code index/} and {@code
 * statistics/} that no snapshot still there and no tag references, and that were last modified
 * before a given time. The files a failed job left behind (written, never committed) are such
 * files; the time guards the files of writers still running, so it must lie before the start of
 * every running job. Schema, snapshot, tag, consumer and branch files and everything directly in
 * the table directory are never touched; data files outside the table directory (external paths)
 * are not looked at. Consumers and running jobs' pins keep their snapshots from expiring, so the
 * snapshots' files are kept with them.
 */
public final class OrphanFiles {

    /** Directories of the table that hold no data or manifest files: never cleaned. */
    private static final Set<String> METADATA_DIRS =
            Set.of(
                    TablePaths.SCHEMA_DIR,
                    TablePaths.SNAPSHOT_DIR,
                    TablePaths.TAG_DIR,
                    TablePaths.CONSUMER_DIR,
                    "branch",
                    "changelog");

    /**
     * What one run found.
     *
     * @param files the orphan files (deleted unless it was a dry run)
     * @param bytes their size
     */
    public record Result(List<Path> files, long bytes) {}

    private final TableStore store;

    public OrphanFiles(TableStore store) {
        this.store = store;
    }

    /**
     * Finds the orphan files last modified before {@code olderThanMillis} and, unless {@code
     * dryRun}, deletes them.
     */
    public Result remove(long olderThanMillis, boolean dryRun) {
        Set<String> referenced = referenced();
        List<Path> orphans = new ArrayList<>();
        long bytes = 0;
        for (FileStatus dir : FileIO.list(store.paths().root())) {
            if (dir.isDir() && !METADATA_DIRS.contains(dir.getPath().getName())) {
                bytes += collect(dir.getPath(), referenced, olderThanMillis, orphans);
            }
        }
        if (!dryRun) {
            FileReferences.deleteAll(orphans);
        }
        return new Result(orphans, bytes);
    }

    /**
     * The names of every file a snapshot or tag references. Names, not paths: every data, manifest
     * and index file name is unique (it holds a UUID), and a name does not depend on how a path
     * escapes partition values.
     */
    private Set<String> referenced() {
        FileReferences references = new FileReferences();
        for (long id : store.snapshots().listIds()) {
            references.addSnapshot(store, store.snapshots().snapshot(id), true);
        }
        for (Snapshot tagged : TagFiles.byName(store.paths()).values()) {
            references.addSnapshot(store, tagged, true);
        }
        Set<String> paths = new HashSet<>();
        references.metadata().forEach(p -> paths.add(p.getName()));
        references.dataFiles().forEach(p -> paths.add(p.getName()));
        return paths;
    }

    /** Adds the orphans below {@code dir} to {@code orphans}; returns their bytes. */
    private static long collect(
            Path dir, Set<String> referenced, long olderThanMillis, List<Path> orphans) {
        long bytes = 0;
        for (FileStatus status : FileIO.list(dir)) {
            if (status.isDir()) {
                bytes += collect(status.getPath(), referenced, olderThanMillis, orphans);
            } else if (status.getModificationTime() < olderThanMillis
                    && !referenced.contains(status.getPath().getName())) {
                orphans.add(status.getPath());
                bytes += status.getLen();
            }
        }
        return bytes;
    }
}
