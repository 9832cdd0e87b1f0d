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
package io.dovetail.table.testing;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.index.DeletionVectorIndexFile;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.write.DataFileWriter;
import io.dovetail.table.write.DataFileWriterOptions;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A minimal data-evolution compaction for tests (semantics §8.1): the live groups of one partition
 * inside some adjacent output ranges are read in full with every column of the current schema and
 * rewritten into one normal file per output range (same rows, same row ids, sequence numbers the
 * min/max of the inputs); their deletion vectors move, shifted, to the new anchors. The output
 * ranges must tile whole groups; they may merge groups or split them.
 */
public final class TestCompaction {

    private TestCompaction() {}

    /** The compaction of {@code snapshot}'s groups in {@code outputs} (ascending, adjacent). */
    public static CommitRequest rewrite(
            TableStore store, String user, Snapshot snapshot, RowRange... outputs) {
        TableSchema schema = store.latestSchema();
        SnapshotFiles files = store.files(snapshot);
        RowRange union = new RowRange(outputs[0].first(), outputs[outputs.length - 1].last());
        ReadPlan plan =
                new ReadPlanner(store)
                        .plan(
                                snapshot,
                                ReadRequest.allColumns(schema).withRowRanges(List.of(union)));
        List<FileGroup> groups = new ArrayList<>();
        plan.splits().forEach(s -> groups.addAll(s.groups()));
        groups.sort(Comparator.comparingLong(g -> g.range().first()));
        List<ManifestEntry> before = new ArrayList<>();
        for (ManifestEntry entry : files.liveFiles()) {
            if (RowRange.of(entry.file()).overlaps(union)) {
                before.add(entry);
            }
        }
        long minSeq = before.stream().mapToLong(e -> e.file().minSequenceNumber()).min().orElse(0);
        long maxSeq = before.stream().mapToLong(e -> e.file().maxSequenceNumber()).max().orElse(0);
        byte[] partition = groups.get(0).partition();
        List<ManifestEntry> after = write(store, schema, plan, groups, partition, outputs);
        List<ManifestEntry> stamped = new ArrayList<>();
        for (ManifestEntry entry : after) {
            DataFileMeta file =
                    entry.file().toBuilder()
                            .fileSource(FileSource.COMPACT)
                            .sequenceNumbers(minSeq, maxSeq)
                            .build();
            stamped.add(
                    new ManifestEntry(
                            entry.kind(),
                            entry.partition(),
                            entry.bucket(),
                            entry.totalBuckets(),
                            file));
        }
        IndexChanges vectors = moveVectors(store, files, groups, stamped);
        return CommitRequest.compact(user, 1, before, stamped, vectors);
    }

    private static List<ManifestEntry> write(
            TableStore store,
            TableSchema schema,
            ReadPlan plan,
            List<FileGroup> groups,
            byte[] partition,
            RowRange[] outputs) {
        RowData partitionRow =
                BinaryRowCodec.of(
                                schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList())
                        .deserialize(partition);
        DataFileWriterOptions options =
                DataFileWriterOptions.fromTableOptions(schema.options()).withoutRolling();
        List<ManifestEntry> written = new ArrayList<>();
        List<FileGroup> inFull = groups.stream().map(FileGroup::readInFull).toList();
        long rowId = outputs[0].first();
        int output = 0;
        DataFileWriter writer = null;
        try (SplitReader reader = SplitReader.open(plan.fields(), new ReadSplit(inFull), 1024)) {
            for (ReadBatch batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                for (int i = 0; i < batch.size(); i++, rowId++) {
                    if (writer == null) {
                        writer =
                                DataFileWriter.open(
                                        store.paths(), schema, null, partitionRow, options);
                    }
                    writer.write(batch.row(i));
                    if (rowId == outputs[output].last()) {
                        ManifestEntry file = writer.finish().get(0);
                        writer.close();
                        writer = null;
                        written.add(
                                new ManifestEntry(
                                        file.kind(),
                                        file.partition(),
                                        file.bucket(),
                                        file.totalBuckets(),
                                        file.file().toBuilder()
                                                .firstRowId(outputs[output].first())
                                                .build()));
                        output++;
                    }
                }
            }
        }
        if (output != outputs.length) {
            throw new IllegalArgumentException("outputs do not tile whole groups");
        }
        return written;
    }

    /** Each old anchor's vector, shifted into the output file holding its rows. */
    private static IndexChanges moveVectors(
            TableStore store,
            SnapshotFiles files,
            List<FileGroup> groups,
            List<ManifestEntry> outputs) {
        Path indexDir = store.paths().indexDir();
        Map<String, FileGroup> anchors = new LinkedHashMap<>();
        groups.forEach(g -> anchors.put(g.anchor().fileName(), g));
        Map<String, DeletionVector> vectors = new LinkedHashMap<>();
        List<IndexManifestEntry> removed = new ArrayList<>();
        byte[] partition = groups.get(0).partition();
        for (IndexManifestEntry entry : files.indexFiles()) {
            Map<String, DeletionVector> held =
                    DeletionVectorIndexFile.readAll(indexDir, entry.indexFile());
            Set<String> moved = new HashSet<>(held.keySet());
            moved.retainAll(anchors.keySet());
            if (moved.isEmpty()) {
                continue;
            }
            removed.add(entry);
            held.forEach(
                    (dataFile, vector) -> {
                        FileGroup group = anchors.get(dataFile);
                        if (group == null) {
                            vectors.put(dataFile, vector); // copied: not compacted
                            return;
                        }
                        for (long p = 0; p < group.range().count(); p++) {
                            if (vector.contains(p)) {
                                long rowId = group.range().first() + p;
                                ManifestEntry out = outputOf(outputs, rowId);
                                vectors.computeIfAbsent(
                                                out.file().fileName(), k -> new DeletionVector())
                                        .add(rowId - out.file().firstRowId());
                            }
                        }
                    });
        }
        if (removed.isEmpty()) {
            return IndexChanges.NONE;
        }
        List<IndexManifestEntry> added = new ArrayList<>();
        for (IndexFileMeta meta : new DeletionVectorIndexFile(indexDir).write(vectors)) {
            added.add(new IndexManifestEntry(FileKind.ADD, partition, 0, meta));
        }
        return new IndexChanges(added, removed);
    }

    private static ManifestEntry outputOf(List<ManifestEntry> outputs, long rowId) {
        return outputs.stream()
                .filter(o -> RowRange.of(o.file()).contains(rowId))
                .findFirst()
                .orElseThrow();
    }
}
