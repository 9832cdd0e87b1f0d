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

import io.dovetail.table.fs.FileIO;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.index.DeletionVectorIndexFile;
import io.dovetail.table.index.DeletionVectorMeta;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.maintenance.CompactionTask.Group;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;

import org.apache.flink.core.fs.Path;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Moves the deletion vectors of compacted groups to their new anchors (semantics §8.1, commit): a
 * full task's compacted file is the new anchor of its range, and the vector of each old group's
 * anchor is shifted by {@code oldGroup.first - newRange.first}; the shifted vectors of one task are
 * OR-ed and stored under the compacted file. A column-selective task keeps its group's range; its
 * vector moves, unshifted, only if the old anchor was replaced (the new anchor is then the first of
 * the kept files and the compacted one in anchor order). Every index file that held a moved vector
 * is replaced: its other vectors are copied, with the moved ones, into new index files of the same
 * partition. Positions are never removed. Dropping the vectors of materialized groups (semantics
 * §8.4) rewrites their index files the same way.
 */
final class CompactedVectors {

    /** Where an old anchor's vector goes: the compacted file and the shift, or nowhere. */
    private record Move(String target, long offset) {
        static final Move DROP = new Move(null, 0);
    }

    private record FileKey(ByteBuffer partition, String fileName) {}

    private CompactedVectors() {}

    /**
     * The index changes for {@code tasks}, whose compacted files are {@code compacted} (same
     * order), given the live index files of the planned snapshot; none if no moved anchor has a
     * vector.
     */
    static IndexChanges move(
            Path indexDir,
            List<IndexManifestEntry> indexFiles,
            List<CompactionTask> tasks,
            List<ManifestEntry> compacted) {
        Map<FileKey, Move> moves = new HashMap<>();
        for (int t = 0; t < tasks.size(); t++) {
            CompactionTask task = tasks.get(t);
            if (task.dedicated()) {
                continue; // the normal files, which anchor the vectors, stay
            }
            String target = task.anchorAfter(compacted.get(t)).file().fileName();
            for (Group group : task.groups()) {
                String anchor = group.anchor().file().fileName();
                if (!anchor.equals(target)) {
                    moves.put(
                            key(task.partition(), anchor),
                            new Move(target, group.range().first() - task.range().first()));
                }
            }
        }
        return rewrite(indexDir, indexFiles, moves);
    }

    /**
     * The index changes that drop the vectors of {@code anchors} (live files of the planned
     * snapshot), keeping every other vector of the index files that held them; none if no anchor
     * has a vector.
     */
    static IndexChanges remove(
            Path indexDir, List<IndexManifestEntry> indexFiles, List<ManifestEntry> anchors) {
        Map<FileKey, Move> drops = new HashMap<>();
        anchors.forEach(a -> drops.put(key(a.partition(), a.file().fileName()), Move.DROP));
        return rewrite(indexDir, indexFiles, drops);
    }

    private static IndexChanges rewrite(
            Path indexDir, List<IndexManifestEntry> indexFiles, Map<FileKey, Move> moves) {
        Map<ByteBuffer, Map<String, DeletionVector>> vectors = new LinkedHashMap<>();
        List<IndexManifestEntry> removed = new ArrayList<>();
        for (IndexManifestEntry entry : indexFiles) {
            if (!holdsAny(entry, moves)) {
                continue;
            }
            removed.add(entry);
            Map<String, DeletionVector> partitionVectors =
                    vectors.computeIfAbsent(
                            ByteBuffer.wrap(entry.partition()), k -> new LinkedHashMap<>());
            DeletionVectorIndexFile.readAll(indexDir, entry.indexFile())
                    .forEach(
                            (dataFile, vector) -> {
                                Move move = moves.get(key(entry.partition(), dataFile));
                                if (move == null) {
                                    partitionVectors.put(dataFile, vector);
                                } else if (move != Move.DROP) {
                                    partitionVectors
                                            .computeIfAbsent(
                                                    move.target(), k -> new DeletionVector())
                                            .merge(vector.shifted(move.offset()));
                                }
                            });
        }
        if (removed.isEmpty()) {
            return IndexChanges.NONE;
        }
        return new IndexChanges(write(indexDir, vectors), removed);
    }

    private static List<IndexManifestEntry> write(
            Path indexDir, Map<ByteBuffer, Map<String, DeletionVector>> vectors) {
        List<IndexManifestEntry> added = new ArrayList<>();
        DeletionVectorIndexFile writer = new DeletionVectorIndexFile(indexDir);
        try {
            for (Map.Entry<ByteBuffer, Map<String, DeletionVector>> partition :
                    vectors.entrySet()) {
                if (partition.getValue().isEmpty()) {
                    continue; // every vector of the partition's index files was dropped
                }
                byte[] partitionBytes = new byte[partition.getKey().remaining()];
                partition.getKey().duplicate().get(partitionBytes);
                for (IndexFileMeta meta : writer.write(partition.getValue())) {
                    added.add(new IndexManifestEntry(FileKind.ADD, partitionBytes, 0, meta));
                }
            }
        } catch (RuntimeException e) {
            added.forEach(a -> FileIO.deleteQuietly(a.indexFile().path(indexDir)));
            throw e;
        }
        return added;
    }

    private static boolean holdsAny(IndexManifestEntry entry, Map<FileKey, Move> moves) {
        IndexFileMeta meta = entry.indexFile();
        if (!DeletionVectorIndexFile.INDEX_TYPE.equals(meta.indexType())
                || meta.deletionVectors() == null) {
            return false;
        }
        for (DeletionVectorMeta vector : meta.deletionVectors()) {
            if (moves.containsKey(key(entry.partition(), vector.dataFileName()))) {
                return true;
            }
        }
        return false;
    }

    private static FileKey key(byte[] partition, String fileName) {
        return new FileKey(ByteBuffer.wrap(partition), fileName);
    }
}
