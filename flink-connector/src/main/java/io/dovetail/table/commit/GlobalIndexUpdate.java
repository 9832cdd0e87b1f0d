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

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.Errors;
import io.dovetail.table.index.GlobalIndexFiles;
import io.dovetail.table.index.GlobalIndexMeta;
import io.dovetail.table.index.GlobalIndexUpdateAction;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a commit does to the global index files of the latest snapshot (data-evolution semantics
 * §6.4 step 8 and §8.4). Partial-column files that change a column a global index covers in their
 * partition are refused, drop those index files, or keep them, as {@code
 * global-index.column-update-action} says ({@link GlobalIndexUpdateAction}). A materialization and
 * an overwrite give rows new row ids: they drop every global index file of the partitions they
 * rewrite, as Paimon's do. Compactions keep row ids and values, so indexes stay valid; deletes are
 * deletion vectors, which indexed reads apply. The check runs against the latest snapshot, so an
 * index built after the write's base snapshot is seen.
 */
public final class GlobalIndexUpdate {

    private GlobalIndexUpdate() {}

    /**
     * The names of the global index files of {@code live} that {@code operation} drops; throws if
     * the table's policy refuses the operation.
     */
    static Set<String> dropped(
            CommitOperation operation,
            List<IndexManifestEntry> live,
            TableSchema schema,
            FileFieldIds fields) {
        if (live.stream().noneMatch(GlobalIndexFiles::isGlobalIndex)) {
            return Set.of();
        }
        List<IndexManifestEntry> dropped;
        if (operation instanceof CommitOperation.ColumnUpdate update) {
            dropped = forUpdatedColumns(update.files(), live, schema, fields);
        } else if (operation instanceof CommitOperation.Merge merge) {
            dropped = forUpdatedColumns(merge.partialFiles(), live, schema, fields);
        } else if (operation instanceof CommitOperation.Materialize materialize) {
            dropped = GlobalIndexFiles.inPartitions(live, partitions(materialize.removed()));
        } else if (operation instanceof CommitOperation.GlobalIndexes indexes) {
            Set<String> liveNames = new HashSet<>();
            live.forEach(e -> liveNames.add(e.indexFile().fileName()));
            dropped =
                    indexes.dropped().stream()
                            .filter(e -> liveNames.contains(e.indexFile().fileName()))
                            .toList();
        } else if (operation instanceof CommitOperation.Overwrite overwrite) {
            Set<ByteBuffer> partitions = partitions(overwrite.removed());
            partitions.addAll(partitions(overwrite.added()));
            dropped = GlobalIndexFiles.inPartitions(live, partitions);
        } else {
            dropped = List.of();
        }
        Set<String> names = new LinkedHashSet<>();
        dropped.forEach(e -> names.add(e.indexFile().fileName()));
        return names;
    }

    /** The global index files {@code operation} adds. */
    static List<IndexManifestEntry> added(CommitOperation operation) {
        return operation instanceof CommitOperation.GlobalIndexes indexes
                ? indexes.added()
                : List.of();
    }

    /**
     * Fails the commit of index files built on a base snapshot if a column update or merge since
     * then wrote their column over their rows of their partition: they would name old values.
     */
    static void checkBuilt(
            CommitOperation.GlobalIndexes indexes,
            List<Map.Entry<Snapshot, List<ManifestEntry>>> since,
            FileFieldIds fields) {
        for (IndexManifestEntry index : indexes.added()) {
            GlobalIndexMeta meta = index.indexFile().globalIndex();
            RowRange covered = new RowRange(meta.rowRangeStart(), meta.rowRangeEnd());
            Set<Integer> indexed = GlobalIndexFiles.fieldIds(index);
            for (Map.Entry<Snapshot, List<ManifestEntry>> snapshot : since) {
                for (ManifestEntry entry : snapshot.getValue()) {
                    DataFileMeta file = entry.file();
                    if (entry.kind() == FileKind.ADD
                            && file.writeCols() != null
                            && file.fileSource() == FileSource.APPEND
                            && file.firstRowId() != null
                            && Arrays.equals(entry.partition(), index.partition())
                            && RowRange.of(file).overlaps(covered)
                            && fields.of(file).stream().anyMatch(indexed::contains)) {
                        throw Errors.conflict(
                                "Snapshot "
                                        + snapshot.getKey().id()
                                        + " changed the indexed column of rows "
                                        + RowRange.of(file)
                                        + " after snapshot "
                                        + indexes.baseSnapshotId()
                                        + ", which index file "
                                        + index.indexFile().fileName()
                                        + " was built on; the table is unchanged. Build the index"
                                        + " again.");
                    }
                }
            }
        }
    }

    /**
     * Refuses, under THROW_ERROR, a write of {@code fieldIds} into {@code partition} that a global
     * index of {@code indexFiles} covers: the check a writer makes before it writes a file.
     */
    public static void checkWrite(
            TableSchema schema,
            List<IndexManifestEntry> indexFiles,
            Set<Integer> fieldIds,
            byte[] partition) {
        if (GlobalIndexUpdateAction.of(schema.options()) != GlobalIndexUpdateAction.THROW_ERROR) {
            return;
        }
        List<IndexManifestEntry> covering =
                GlobalIndexFiles.covering(indexFiles, fieldIds, Set.of(ByteBuffer.wrap(partition)));
        if (!covering.isEmpty()) {
            throw refused(schema, fieldIds, covering);
        }
    }

    private static List<IndexManifestEntry> forUpdatedColumns(
            List<ManifestEntry> partialFiles,
            List<IndexManifestEntry> live,
            TableSchema schema,
            FileFieldIds fields) {
        GlobalIndexUpdateAction action = GlobalIndexUpdateAction.of(schema.options());
        if (partialFiles.isEmpty() || action == GlobalIndexUpdateAction.IGNORE) {
            return List.of();
        }
        Set<Integer> fieldIds = new TreeSet<>();
        partialFiles.forEach(e -> fieldIds.addAll(fields.of(e.file())));
        List<IndexManifestEntry> covering =
                GlobalIndexFiles.covering(live, fieldIds, partitions(partialFiles));
        if (!covering.isEmpty() && action == GlobalIndexUpdateAction.THROW_ERROR) {
            throw refused(schema, fieldIds, covering);
        }
        return covering;
    }

    private static Set<ByteBuffer> partitions(Collection<ManifestEntry> files) {
        Set<ByteBuffer> partitions = new HashSet<>();
        files.forEach(e -> partitions.add(ByteBuffer.wrap(e.partition())));
        return partitions;
    }

    private static RuntimeException refused(
            TableSchema schema, Set<Integer> updatedFieldIds, List<IndexManifestEntry> covering) {
        BinaryRowCodec partitions =
                BinaryRowCodec.of(
                        schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList());
        PartitionPaths paths = schema.partitionPaths();
        Set<String> columns = new TreeSet<>();
        List<String> indexes = new ArrayList<>();
        for (IndexManifestEntry entry : covering) {
            Set<Integer> indexed = GlobalIndexFiles.fieldIds(entry);
            indexed.stream()
                    .filter(updatedFieldIds::contains)
                    .forEach(id -> columns.add(name(schema, id)));
            String where =
                    schema.partitionKeys().isEmpty()
                            ? ""
                            : " in partition "
                                    + paths.path(partitions.deserialize(entry.partition()));
            indexes.add(
                    entry.indexFile().indexType()
                            + " index "
                            + entry.indexFile().fileName()
                            + " on "
                            + indexed.stream().map(id -> name(schema, id)).toList()
                            + where);
        }
        return Errors.refusedByOption(
                "The write changes column(s) "
                        + columns
                        + ", which global indexes cover: "
                        + String.join("; ", indexes)
                        + ". Under '"
                        + TableOptions.GLOBAL_INDEX_COLUMN_UPDATE_ACTION
                        + "' = '"
                        + GlobalIndexUpdateAction.THROW_ERROR
                        + "' (the default) it is refused and the table and its indexes are"
                        + " unchanged. Set it to '"
                        + GlobalIndexUpdateAction.DROP_PARTITION_INDEX
                        + "' to drop those partitions' indexes of the column in the same commit"
                        + " (build them again afterwards), or to '"
                        + GlobalIndexUpdateAction.IGNORE
                        + "' to keep them, accepting that indexed reads miss the changed rows.");
    }

    private static String name(TableSchema schema, int fieldId) {
        return schema.fields().stream()
                .filter(f -> f.id() == fieldId)
                .map(DataField::name)
                .findFirst()
                .orElse("field " + fieldId);
    }
}
