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
package io.dovetail.table;

import io.dovetail.table.error.Errors;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.SchemaManager;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.snapshot.SnapshotManager;

import java.util.Optional;

/**
 * Entry point to one table directory in the Paimon layout: its schemas, its snapshots, and the
 * files a snapshot references. Holds no cached state; every call reads what is on disk now.
 */
public final class TableStore {

    private final TablePaths paths;
    private final SchemaManager schemas;
    private final SnapshotManager snapshots;

    private TableStore(TablePaths paths) {
        this.paths = paths;
        this.schemas = new SchemaManager(paths);
        this.snapshots = new SnapshotManager(paths);
    }

    /** A store over {@code paths}, whether or not the table exists yet (to create it). */
    public static TableStore at(TablePaths paths) {
        return new TableStore(paths);
    }

    /** Opens an existing table; a directory without schema files is a clear error. */
    public static TableStore open(TablePaths paths) {
        TableStore store = new TableStore(paths);
        if (!store.schemas.tableExists()) {
            throw Errors.invalidArgument(
                    "No table at "
                            + paths.root()
                            + ": the directory has no schema files (schema/schema-<N>).");
        }
        return store;
    }

    public TablePaths paths() {
        return paths;
    }

    public SchemaManager schemas() {
        return schemas;
    }

    public SnapshotManager snapshots() {
        return snapshots;
    }

    public TableSchema latestSchema() {
        return schemas.latest()
                .orElseThrow(() -> Errors.invalidArgument("No table at " + paths.root() + "."));
    }

    public Optional<Snapshot> latestSnapshot() {
        return snapshots.latest();
    }

    /** The manifests and files of {@code snapshot}; its schema must exist. */
    public SnapshotFiles files(Snapshot snapshot) {
        TableSchema schema = schemas.schema(snapshot.schemaId());
        return new SnapshotFiles(paths, snapshot, schema);
    }
}
