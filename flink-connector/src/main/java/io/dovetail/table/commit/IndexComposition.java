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

import org.apache.flink.core.fs.Path;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Composes the index manifest of the snapshot being created: the live index files of the latest
 * snapshot L, minus the ones the commit removes, plus the ones it adds. On the way it checks C1
 * (data-evolution semantics §7.3): every removed index file is still live in L, and a data file
 * that gets a vector had none in L unless the commit replaces the index file holding it. Every
 * added vector belongs to a data file live after the commit, no vector is dropped while its data
 * file stays, and each data file ends with at most one vector. An overwrite drops the vectors of
 * the files it removes, rewriting index files that also hold vectors of surviving files. Vectors
 * are checked in the partitions whose live files the commit loaded (those it changes data files or
 * vectors in): elsewhere the data files stay as they were in L.
 */
final class IndexComposition {

    /** The composed index files; {@code written} are index files this composition created. */
    record Result(List<IndexManifestEntry> indexFiles, boolean changed, List<Path> written) {}

    private record DataFileKey(ByteBuffer partition, String fileName) {
        static DataFileKey of(byte[] partition, String fileName) {
            return new DataFileKey(ByteBuffer.wrap(partition), fileName);
        }
    }

    private IndexComposition() {}

    /**
     * @param droppedGlobalIndexes names of global index files of {@code latest} the commit drops
     *     ({@link GlobalIndexUpdate})
     * @param addedGlobalIndexes global index files the commit adds, written before it
     */
    static Result compose(
            TableState latest,
            CommitOperation operation,
            Collection<ManifestEntry> liveAfter,
            Set<String> droppedGlobalIndexes,
            List<IndexManifestEntry> addedGlobalIndexes,
            Path indexDir) {
        IndexChanges changes = operation.indexChanges();
        Map<String, IndexManifestEntry> live = new LinkedHashMap<>();
        latest.indexFiles().forEach(e -> live.put(e.indexFile().fileName(), e));
        Map<DataFileKey, String> vectorHolders = vectorHolders(latest.indexFiles());
        Set<String> removed = new HashSet<>();
        for (IndexManifestEntry entry : changes.removed()) {
            if (!live.containsKey(entry.indexFile().fileName())) {
                throw replaced(latest, entry);
            }
            removed.add(entry.indexFile().fileName());
        }
        Set<DataFileKey> liveData = new HashSet<>();
        liveAfter.forEach(e -> liveData.add(DataFileKey.of(e.partition(), e.file().fileName())));
        Set<DataFileKey> vectorsAdded = new HashSet<>();
        for (IndexManifestEntry entry : changes.added()) {
            for (DeletionVectorMeta vector : vectors(entry)) {
                latest.requireLoaded(entry.partition());
                DataFileKey key = DataFileKey.of(entry.partition(), vector.dataFileName());
                vectorsAdded.add(key);
                if (!liveData.contains(key)) {
                    throw Errors.conflict(
                            "Deletion-vector conflict: index file "
                                    + entry.indexFile().fileName()
                                    + " holds a deletion vector for data file "
                                    + vector.dataFileName()
                                    + ", which is not live after this commit on snapshot "
                                    + latest.snapshotId()
                                    + " (compacted or removed concurrently). The table is"
                                    + " unchanged; plan the delete again on the latest snapshot.");
                }
                String holder = vectorHolders.get(key);
                if (holder != null && !removed.contains(holder)) {
                    throw Errors.conflict(
                            "Deletion-vector conflict: data file "
                                    + vector.dataFileName()
                                    + " got a deletion vector in index file "
                                    + holder
                                    + " from a concurrent commit (snapshot "
                                    + latest.snapshotId()
                                    + "). The table is unchanged; plan the delete again on the"
                                    + " latest snapshot.");
                }
            }
        }
        List<IndexManifestEntry> added = new ArrayList<>(changes.added());
        added.addAll(addedGlobalIndexes);
        List<Path> written = new ArrayList<>();
        Set<String> toRewrite = new HashSet<>();
        for (Map.Entry<DataFileKey, String> pair : vectorHolders.entrySet()) {
            if (!latest.isLoaded(pair.getKey().partition().array())) {
                continue; // the commit changes no data file of that partition
            }
            boolean dataLive = liveData.contains(pair.getKey());
            boolean holderRemoved = removed.contains(pair.getValue());
            if (holderRemoved && dataLive && !vectorsAdded.contains(pair.getKey())) {
                throw Errors.invalidArgument(
                        "The commit removes index file "
                                + pair.getValue()
                                + " without keeping the deletion vector of live data file "
                                + pair.getKey().fileName()
                                + "; copy every vector of a replaced index file.");
            }
            if (!holderRemoved && !dataLive) {
                if (!(operation instanceof CommitOperation.Overwrite)) {
                    throw Errors.conflict(
                            "Deletion-vector conflict: data file "
                                    + pair.getKey().fileName()
                                    + ", which this "
                                    + operation.kind()
                                    + " commit removes, has a deletion vector in index file "
                                    + pair.getValue()
                                    + " of snapshot "
                                    + latest.snapshotId()
                                    + " that the commit does not carry over (rows deleted"
                                    + " concurrently). The table is unchanged; plan again.");
                }
                toRewrite.add(pair.getValue());
            }
        }
        try {
            for (String name : toRewrite) {
                IndexManifestEntry old = live.get(name);
                removed.add(name);
                added.addAll(withoutDeadVectors(old, liveData, indexDir, written));
            }
        } catch (RuntimeException e) {
            written.forEach(FileIO::deleteQuietly);
            throw e;
        }
        removed.addAll(droppedGlobalIndexes);
        if (removed.isEmpty() && added.isEmpty()) {
            return new Result(latest.indexFiles(), false, written);
        }
        List<IndexManifestEntry> result = new ArrayList<>();
        live.values().stream()
                .filter(e -> !removed.contains(e.indexFile().fileName()))
                .forEach(result::add);
        result.addAll(added);
        checkOneVectorPerFile(result);
        return new Result(result, true, written);
    }

    /** Rewrites {@code old} keeping only vectors of live data files; adds written files. */
    private static List<IndexManifestEntry> withoutDeadVectors(
            IndexManifestEntry old, Set<DataFileKey> liveData, Path indexDir, List<Path> written) {
        Map<String, DeletionVector> kept = new LinkedHashMap<>();
        DeletionVectorIndexFile.readAll(indexDir, old.indexFile())
                .forEach(
                        (dataFile, vector) -> {
                            if (liveData.contains(DataFileKey.of(old.partition(), dataFile))) {
                                kept.put(dataFile, vector);
                            }
                        });
        List<IndexManifestEntry> entries = new ArrayList<>();
        for (IndexFileMeta meta : new DeletionVectorIndexFile(indexDir).write(kept)) {
            written.add(meta.path(indexDir));
            entries.add(new IndexManifestEntry(FileKind.ADD, old.partition(), old.bucket(), meta));
        }
        return entries;
    }

    private static Map<DataFileKey, String> vectorHolders(List<IndexManifestEntry> indexFiles) {
        Map<DataFileKey, String> holders = new HashMap<>();
        for (IndexManifestEntry entry : indexFiles) {
            for (DeletionVectorMeta vector : vectors(entry)) {
                holders.put(
                        DataFileKey.of(entry.partition(), vector.dataFileName()),
                        entry.indexFile().fileName());
            }
        }
        return holders;
    }

    private static List<DeletionVectorMeta> vectors(IndexManifestEntry entry) {
        IndexFileMeta file = entry.indexFile();
        if (!DeletionVectorIndexFile.INDEX_TYPE.equals(file.indexType())
                || file.deletionVectors() == null) {
            return List.of();
        }
        return file.deletionVectors();
    }

    private static void checkOneVectorPerFile(List<IndexManifestEntry> indexFiles) {
        Map<DataFileKey, String> seen = new HashMap<>();
        for (IndexManifestEntry entry : indexFiles) {
            for (DeletionVectorMeta vector : vectors(entry)) {
                String other =
                        seen.put(
                                DataFileKey.of(entry.partition(), vector.dataFileName()),
                                entry.indexFile().fileName());
                if (other != null) {
                    throw Errors.invalidLayout(
                            "Data file "
                                    + vector.dataFileName()
                                    + " would have two deletion vectors, in index files "
                                    + other
                                    + " and "
                                    + entry.indexFile().fileName()
                                    + "; a data file has at most one.");
                }
            }
        }
    }

    private static RuntimeException replaced(TableState latest, IndexManifestEntry entry) {
        List<String> dataFiles =
                vectors(entry).stream().map(DeletionVectorMeta::dataFileName).toList();
        return Errors.conflict(
                "Deletion-vector conflict: the deletion vectors of data files "
                        + dataFiles
                        + " in index file "
                        + entry.indexFile().fileName()
                        + " were replaced by a concurrent commit (the file is not live in snapshot "
                        + latest.snapshotId()
                        + "). The table is unchanged; plan the delete again on the latest"
                        + " snapshot.");
    }
}
