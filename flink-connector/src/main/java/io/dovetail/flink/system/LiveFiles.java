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
package io.dovetail.flink.system;

import io.dovetail.table.TableStore;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.read.DeletionFile;
import io.dovetail.table.read.PartitionValues;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.core.fs.Path;

import javax.annotation.Nullable;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The live data files of one snapshot with what {@code $files} and {@code $row_groups} show about
 * them: partitions as text, paths, the columns each file stores and the deletion vectors.
 *
 * <p>A partition reads {@code {v1, v2}}, as in Paimon's {@code $files}: the partition values in key
 * order, each as its partition directory spells it (a null or blank value as the default partition
 * name); an unpartitioned table's files read {@code {}}.
 */
final class LiveFiles {

    private final TableStore store;
    private final SnapshotFiles files;
    private final List<ManifestEntry> entries;
    private final Function<byte[], PartitionValues> partitionDecoder;
    private final PartitionPaths partitionPaths;
    private final Map<String, DeletionFile> deletionVectors;
    private final Map<Long, TableSchema> schemas = new HashMap<>();

    private LiveFiles(TableStore store, Snapshot snapshot) {
        this.store = store;
        this.files = store.files(snapshot);
        this.entries = files.liveFiles();
        TableSchema schema = schema(snapshot.schemaId());
        this.partitionDecoder = PartitionValues.decoder(schema);
        this.partitionPaths =
                PartitionPaths.fromOptions(
                        schema.partitionKeys(),
                        schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList(),
                        schema.options());
        this.deletionVectors = new ReadPlanner(store).deletionFiles(files);
    }

    static LiveFiles of(TableStore store, Snapshot snapshot) {
        return new LiveFiles(store, snapshot);
    }

    /** The live files in manifest order. */
    List<ManifestEntry> entries() {
        return entries;
    }

    String partition(ManifestEntry entry) {
        return partition(entry.partition());
    }

    /** A serialized partition row as text, as {@code $files} and {@code $table_indexes} show it. */
    String partition(byte[] partition) {
        return "{"
                + String.join(
                        ", ",
                        partitionPaths.values(partitionDecoder.apply(partition).row()).values())
                + "}";
    }

    /** The snapshot's index files (deletion vectors and global indexes), in manifest order. */
    List<IndexManifestEntry> indexFiles() {
        return files.indexFiles();
    }

    Path path(ManifestEntry entry) {
        return files.dataFilePath(entry);
    }

    /** The columns {@code file} stores: its write columns, else all of its schema's. */
    List<String> columns(DataFileMeta file) {
        return file.writeCols() != null ? file.writeCols() : schema(file.schemaId()).fieldNames();
    }

    /**
     * The rows hidden by the deletion vector keyed to {@code file}, or null when none is. Under the
     * anchor rule only a group's anchor has one, and it covers every file of the group.
     */
    @Nullable
    Long deletedRows(DataFileMeta file) {
        DeletionFile vector = deletionVectors.get(file.fileName());
        if (vector == null) {
            return null;
        }
        Long recorded = vector.meta().cardinality();
        return recorded != null ? recorded : vector.read().cardinality();
    }

    private TableSchema schema(long id) {
        return schemas.computeIfAbsent(id, store.schemas()::schema);
    }
}
