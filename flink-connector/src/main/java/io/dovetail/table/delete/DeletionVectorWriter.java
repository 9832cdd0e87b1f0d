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
package io.dovetail.table.delete;

import io.dovetail.table.TableStore;
import io.dovetail.table.delete.DeletionVectorAnchors.Group;
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.index.DeletionVectorIndexFile;
import io.dovetail.table.index.DeletionVectorMeta;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.core.fs.Path;

import org.roaringbitmap.longlong.LongIterator;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the deletion vectors of a delete planned on a base snapshot (data-evolution semantics
 * §5.4, §6.6). New positions of each anchor are merged (OR) with the anchor's current vector; every
 * index file that held a changed vector is replaced: its other vectors are copied, with the merged
 * and new vectors, into new index files of the same partition. The result is the {@link
 * IndexChanges} to commit with {@code CommitRequest.delete(user, identifier, base.id(), changes)};
 * until that commit lands the new index files are referenced by nothing. Deleting a deleted row
 * again changes nothing.
 */
public final class DeletionVectorWriter {

    /** Paimon's option for 64-bit vectors, which Dovetail does not write. */
    private final TableStore store;

    private final Path indexDir;

    public DeletionVectorWriter(TableStore store) {
        this.store = store;
        this.indexDir = store.paths().indexDir();
    }

    /** Deletes rows by row id: each is mapped to its group's anchor and position. */
    public IndexChanges deleteRows(Snapshot base, Collection<Long> rowIds) {
        Roaring64NavigableMap ids = new Roaring64NavigableMap();
        rowIds.forEach(ids::addLong);
        return deleteRows(base, ids);
    }

    /**
     * Deletes rows by row id, streamed from {@code rowIds} in ascending order into one compressed
     * vector per anchor: nothing per row is held besides the vectors themselves.
     */
    public IndexChanges deleteRows(Snapshot base, Roaring64NavigableMap rowIds) {
        checkEnabled(store.latestSchema());
        SnapshotFiles files = store.files(base);
        List<ManifestEntry> liveFiles = files.liveFiles();
        DeletionVectorAnchors anchors = DeletionVectorAnchors.of(liveFiles);
        Map<String, DeletionVector> additions = new TreeMap<>();
        Group group = null;
        DeletionVector vector = null;
        for (LongIterator it = rowIds.getLongIterator(); it.hasNext(); ) {
            long rowId = it.next();
            if (group == null || !group.range().contains(rowId)) {
                group =
                        anchors.groupOfRow(rowId)
                                .orElseThrow(
                                        () ->
                                                Errors.staleRowId(
                                                        rowId,
                                                        base.id(),
                                                        "",
                                                        "Cannot delete it; take the row ids from"
                                                                + " a read of the base"
                                                                + " snapshot."));
                vector =
                        additions.computeIfAbsent(
                                anchorOf(group, base).file().fileName(), k -> new DeletionVector());
            }
            vector.add(rowId - group.anchor().file().firstRowId());
        }
        return apply(base, anchors, files.indexFiles(), additions);
    }

    /**
     * Deletes positions (relative to the anchor's first row id) of anchors named by file name, and
     * returns the index changes to commit.
     */
    public IndexChanges write(Snapshot base, Map<String, long[]> positionsByAnchor) {
        SnapshotFiles files = store.files(base);
        return write(base, files.liveFiles(), files.indexFiles(), positionsByAnchor);
    }

    /**
     * Like {@link #write(Snapshot, Map)}, for a caller that already holds the live data files and
     * index files of {@code base} (as its planning read them).
     */
    public IndexChanges write(
            Snapshot base,
            Collection<ManifestEntry> liveFiles,
            List<IndexManifestEntry> indexFiles,
            Map<String, long[]> positionsByAnchor) {
        checkEnabled(store.latestSchema());
        DeletionVectorAnchors anchors = DeletionVectorAnchors.of(liveFiles);
        Map<String, DeletionVector> additions = new TreeMap<>();
        for (Map.Entry<String, long[]> request : positionsByAnchor.entrySet()) {
            ManifestEntry anchor = anchor(anchors, request.getKey(), base);
            DeletionVector vector = new DeletionVector();
            for (long position : request.getValue()) {
                checkPosition(anchor, position);
                vector.add(position);
            }
            additions.put(request.getKey(), vector);
        }
        return apply(base, anchors, indexFiles, additions);
    }

    /**
     * Merges {@code additions} (positions by anchor file name, checked) into the anchors' current
     * vectors and writes the index files of the partitions that change, each replacing the index
     * files that held a changed vector (their other vectors are copied).
     */
    private IndexChanges apply(
            Snapshot base,
            DeletionVectorAnchors anchors,
            List<IndexManifestEntry> indexFiles,
            Map<String, DeletionVector> additions) {
        Map<String, IndexManifestEntry> holders = new HashMap<>();
        for (IndexManifestEntry entry : indexFiles) {
            IndexFileMeta meta = entry.indexFile();
            if (DeletionVectorIndexFile.INDEX_TYPE.equals(meta.indexType())
                    && meta.deletionVectors() != null) {
                meta.deletionVectors().forEach(v -> holders.put(v.dataFileName(), entry));
            }
        }
        // per partition: the vectors to write and the index files they replace
        Map<ByteBuffer, Map<String, DeletionVector>> vectors = new LinkedHashMap<>();
        Map<ByteBuffer, Map<String, IndexManifestEntry>> replaced = new LinkedHashMap<>();
        for (Map.Entry<String, DeletionVector> request : additions.entrySet()) {
            ManifestEntry anchor = anchor(anchors, request.getKey(), base);
            IndexManifestEntry holder = holders.get(request.getKey());
            DeletionVector merged = new DeletionVector();
            if (holder != null) {
                merged.merge(read(holder, request.getKey()));
            }
            long before = merged.cardinality();
            merged.merge(request.getValue());
            if (merged.cardinality() == before) {
                continue; // every position was already deleted
            }
            ByteBuffer partition = ByteBuffer.wrap(anchor.partition());
            Map<String, DeletionVector> partitionVectors =
                    vectors.computeIfAbsent(partition, k -> new LinkedHashMap<>());
            if (holder != null
                    && replaced.computeIfAbsent(partition, k -> new LinkedHashMap<>())
                                    .putIfAbsent(holder.indexFile().fileName(), holder)
                            == null) {
                DeletionVectorIndexFile.readAll(indexDir, holder.indexFile())
                        .forEach(partitionVectors::putIfAbsent);
            }
            partitionVectors.put(request.getKey(), merged);
        }
        return writeIndexFiles(vectors, replaced);
    }

    private IndexChanges writeIndexFiles(
            Map<ByteBuffer, Map<String, DeletionVector>> vectors,
            Map<ByteBuffer, Map<String, IndexManifestEntry>> replaced) {
        List<IndexManifestEntry> added = new ArrayList<>();
        List<IndexManifestEntry> removed = new ArrayList<>();
        DeletionVectorIndexFile writer = new DeletionVectorIndexFile(indexDir);
        try {
            for (Map.Entry<ByteBuffer, Map<String, DeletionVector>> partition :
                    vectors.entrySet()) {
                byte[] partitionBytes = new byte[partition.getKey().remaining()];
                partition.getKey().duplicate().get(partitionBytes);
                for (IndexFileMeta meta : writer.write(partition.getValue())) {
                    added.add(new IndexManifestEntry(FileKind.ADD, partitionBytes, 0, meta));
                }
                removed.addAll(replaced.getOrDefault(partition.getKey(), Map.of()).values());
            }
        } catch (RuntimeException e) {
            added.forEach(a -> FileIO.deleteQuietly(a.indexFile().path(indexDir)));
            throw e;
        }
        return new IndexChanges(added, removed);
    }

    private DeletionVector read(IndexManifestEntry holder, String dataFile) {
        DeletionVectorMeta meta =
                holder.indexFile().deletionVectors().stream()
                        .filter(v -> v.dataFileName().equals(dataFile))
                        .findFirst()
                        .orElseThrow();
        return DeletionVectorIndexFile.read(holder.indexFile().path(indexDir), meta);
    }

    private static ManifestEntry anchor(
            DeletionVectorAnchors anchors, String fileName, Snapshot base) {
        Group group = anchors.groupOfAnchor(fileName).orElse(null);
        if (group != null) {
            return group.anchor();
        }
        Group holding = anchors.groupOfFile(fileName).orElse(null);
        if (holding == null) {
            throw Errors.invalidArgument(
                    "Cannot delete rows of data file "
                            + fileName
                            + ": it is not a live file of snapshot "
                            + base.id()
                            + ".");
        }
        throw Errors.invalidArgument(
                "Data file "
                        + fileName
                        + " is not the anchor of its row range "
                        + holding.range()
                        + (holding.anchor() == null
                                ? ", which has no normal file to anchor deletion vectors."
                                : "; deletion vectors and their positions belong to the anchor "
                                        + holding.anchor().file().fileName()
                                        + " (oldest normal file by max sequence number, then"
                                        + " name)."));
    }

    private static ManifestEntry anchorOf(Group group, Snapshot base) {
        if (group.anchor() == null) {
            throw Errors.invalidLayout(
                    "Rows "
                            + group.range()
                            + " of snapshot "
                            + base.id()
                            + " have no normal file to anchor a deletion vector.");
        }
        return group.anchor();
    }

    private static void checkPosition(ManifestEntry anchor, long position) {
        if (position < 0 || position >= anchor.file().rowCount()) {
            throw Errors.invalidArgument(
                    "Position "
                            + position
                            + " is outside anchor "
                            + anchor.file().fileName()
                            + ", which has "
                            + anchor.file().rowCount()
                            + " rows (positions are relative to its first row id "
                            + anchor.file().firstRowId()
                            + ").");
        }
    }

    private static void checkEnabled(TableSchema schema) {
        if (!TableOptions.isTrue(schema.options(), TableOptions.DELETION_VECTORS_ENABLED)) {
            throw Errors.invalidArgument(
                    "Cannot delete rows: the table does not have '"
                            + TableOptions.DELETION_VECTORS_ENABLED
                            + "' = 'true'. Row deletes on a data-evolution table are deletion"
                            + " vectors; create the table with that option (Paimon 1.4.2 cannot"
                            + " read such tables), or overwrite whole partitions instead.");
        }
        if (TableOptions.isTrue(schema.options(), TableOptions.DELETION_VECTORS_BITMAP64)) {
            throw Errors.unsupportedLayout(
                    "writing deletion vectors to a table with '"
                            + TableOptions.DELETION_VECTORS_BITMAP64
                            + "' = 'true'",
                    "Dovetail writes only 32-bit deletion vectors");
        }
    }
}
