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
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.index.DeletionVectorIndexFile;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.maintenance.CompactionTask.Group;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.RowGroups;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.write.DataFileWriter;
import io.dovetail.table.write.DataFileWriterOptions;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Materializes deletion vectors (data-evolution semantics §8.4): every row-range group of the
 * selected partitions whose anchor has a deletion vector is rewritten, all columns of the planned
 * schema read through the read path with the vector applied, into one non-rolling file of its
 * surviving rows (none when every row was deleted), its BLOB and vector-store columns into new
 * dedicated files of those rows (values streamed one row at a time). The old files and their
 * vectors go; the new files get NEW row ids and sequence numbers at commit, partition by partition
 * and in row order within each, so row ids seen before change. Three steps, so that a job can run
 * the rewrites in parallel: {@link #plan} pins the latest snapshot and picks the groups, a {@link
 * #rewriter} plans their read once and writes each group's survivors, {@link #commit} commits all
 * of them as one COMPACT snapshot against the pinned snapshot: a concurrent delete in a rewritten
 * group (C1) and a concurrent column update of one (C9, materialize variant) fail the commit and
 * nothing is lost. A failed commit deletes what was written unless it may have landed.
 */
public final class DeletionVectorMaterialization {

    /**
     * What one run did.
     *
     * @param groupsRewritten groups that had a deletion vector
     * @param rowsKept surviving rows, written with new row ids
     * @param rowsRemoved deleted rows dropped for good
     * @param filesWritten new data files
     * @param filesRemoved old data files replaced
     * @param snapshotId the COMPACT snapshot, empty when no group had a vector
     */
    public record Result(
            int groupsRewritten,
            long rowsKept,
            long rowsRemoved,
            int filesWritten,
            int filesRemoved,
            OptionalLong snapshotId) {

        public static final Result NOTHING = new Result(0, 0, 0, 0, 0, OptionalLong.empty());
    }

    /**
     * The groups to rewrite, of snapshot {@code snapshotId} read with schema {@code schemaId}, in
     * row order; each is a task of one group (its partition, range and files).
     */
    public record Plan(long snapshotId, long schemaId, List<CompactionTask> groups) {
        public Plan {
            groups = List.copyOf(groups);
        }
    }

    /** One group's surviving rows, written: no file when none survived. */
    public record Rewritten(List<ManifestEntry> files, long rowsKept) {
        public Rewritten {
            files = List.copyOf(files);
        }
    }

    private final TableStore store;
    private final TableCommit commit;

    public DeletionVectorMaterialization(TableStore store) {
        this.store = store;
        this.commit = new TableCommit(store);
    }

    /**
     * Pins the latest snapshot and picks the groups of the partitions (rows of the partition
     * columns) passing {@code partitions} that have a deletion vector; empty when there is none.
     */
    public Optional<Plan> plan(Predicate<RowData> partitions) {
        TableSchema schema = store.latestSchema();
        Optional<Snapshot> latest = store.latestSnapshot();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        SnapshotFiles files = store.files(latest.get());
        Set<String> withVectors = filesWithVectors(files.indexFiles());
        List<CompactionTask> chosen = new ArrayList<>();
        List<ManifestEntry> live =
                DataEvolutionCompaction.selected(files.liveFiles(), schema, partitions);
        for (List<ManifestEntry> groupFiles : RowGroups.ofLiveFiles(live)) {
            RowRange range = RowGroups.rangeOf(groupFiles);
            Group group = new Group(range, groupFiles);
            ManifestEntry anchor = group.anchor();
            if (withVectors.contains(key(anchor))) {
                chosen.add(CompactionTask.full(anchor.partition(), range, List.of(group)));
            }
        }
        chosen.sort(Comparator.comparingLong(t -> t.range().first()));
        return chosen.isEmpty()
                ? Optional.empty()
                : Optional.of(new Plan(latest.get().id(), schema.id(), chosen));
    }

    /**
     * The rewriter of the groups of {@code plan}: plans the read of all of them on the pinned
     * snapshot once (its manifests and vectors read once), so that each rewrite only reads and
     * writes its group's files.
     */
    public Rewriter rewriter(Plan plan) {
        return new Rewriter(store, plan);
    }

    /**
     * Writes the surviving rows of the groups of one {@link Plan}, each into one non-rolling file,
     * from one read plan of the pinned snapshot: all columns of the planned schema, the vectors
     * applied.
     */
    public static final class Rewriter {

        private final TableStore store;
        private final long snapshotId;
        private final TableSchema schema;
        private final List<DataField> readFields;
        private final Map<Long, FileGroup> planned = new HashMap<>();
        private final BinaryRowCodec partitionCodec;
        private final DataFileWriterOptions options;

        private Rewriter(TableStore store, Plan plan) {
            this.store = store;
            this.snapshotId = plan.snapshotId();
            this.schema = store.schemas().schema(plan.schemaId());
            ReadPlan read =
                    new ReadPlanner(store)
                            .plan(
                                    store.snapshots().snapshot(plan.snapshotId()),
                                    ReadRequest.allColumns(schema)
                                            .withRowRanges(
                                                    plan.groups().stream()
                                                            .map(CompactionTask::range)
                                                            .toList()));
            this.readFields = read.fields();
            read.splits()
                    .forEach(
                            split ->
                                    split.groups().forEach(g -> planned.put(g.range().first(), g)));
            this.partitionCodec =
                    BinaryRowCodec.of(
                            schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList());
            this.options =
                    DataFileWriterOptions.fromTableOptions(schema.options()).withoutRolling();
        }

        /** Writes the surviving rows of {@code group}, one of the plan's, into one file. */
        public Rewritten rewrite(CompactionTask group) {
            FileGroup files = planned.get(group.range().first());
            if (files == null
                    || !files.range().equals(group.range())
                    || !Arrays.equals(files.partition(), group.partition())) {
                throw Errors.invalidArgument(
                        "Snapshot "
                                + snapshotId
                                + " has no planned row-range group "
                                + group.range()
                                + " to materialize.");
            }
            long kept = 0;
            try (DataFileWriter writer =
                            DataFileWriter.open(
                                    store.paths(),
                                    schema,
                                    null,
                                    partitionCodec.deserialize(files.partition()),
                                    options);
                    SplitReader rows =
                            SplitReader.open(
                                    readFields,
                                    new ReadSplit(List.of(files)),
                                    SplitReader.DEFAULT_BATCH_SIZE)) {
                for (ReadBatch batch = rows.nextBatch(); batch != null; batch = rows.nextBatch()) {
                    for (int i = 0; i < batch.size(); i++) {
                        writer.write(batch.row(i));
                        kept++;
                    }
                }
                return new Rewritten(writer.finish(), kept);
            }
        }
    }

    /**
     * Commits the rewritten groups ({@code rewritten}, one per group of {@code plan}, same order)
     * as one COMPACT snapshot: the groups' files and vectors removed, the survivors added with new
     * row ids, partition by partition and in row order within each.
     */
    public Result commit(
            String commitUser, long commitIdentifier, Plan plan, List<Rewritten> rewritten) {
        SnapshotFiles files = store.files(store.snapshots().snapshot(plan.snapshotId()));
        List<ManifestEntry> written = new ArrayList<>();
        rewritten.forEach(r -> written.addAll(r.files()));
        CommitRequest request;
        try {
            if (rewritten.size() != plan.groups().size()) {
                throw Errors.invalidArgument(
                        "A materialization of "
                                + plan.groups().size()
                                + " groups got "
                                + rewritten.size()
                                + " rewritten groups; nothing was committed.");
            }
            List<ManifestEntry> anchors = new ArrayList<>();
            List<ManifestEntry> removed = new ArrayList<>();
            for (CompactionTask group : plan.groups()) {
                anchors.add(group.groups().get(0).anchor());
                removed.addAll(group.inputs());
            }
            IndexChanges vectors =
                    CompactedVectors.remove(store.paths().indexDir(), files.indexFiles(), anchors);
            request =
                    CommitRequest.materialize(
                            commitUser,
                            commitIdentifier,
                            plan.snapshotId(),
                            removed,
                            written,
                            vectors);
        } catch (RuntimeException e) {
            written.forEach(f -> FileIO.deleteQuietly(files.dataFilePath(f)));
            throw e;
        }
        long kept = rewritten.stream().mapToLong(Rewritten::rowsKept).sum();
        long total = plan.groups().stream().mapToLong(g -> g.range().count()).sum();
        try {
            Snapshot snapshot = commit.commit(request);
            return new Result(
                    plan.groups().size(),
                    kept,
                    total - kept,
                    written.size(),
                    request.operation().dataChanges().size() - written.size(),
                    OptionalLong.of(snapshot.id()));
        } catch (RuntimeException e) {
            if (notCommitted(request, e)) {
                written.forEach(f -> FileIO.deleteQuietly(files.dataFilePath(f)));
                Path indexDir = store.paths().indexDir();
                request.operation()
                        .indexChanges()
                        .added()
                        .forEach(a -> FileIO.deleteQuietly(a.indexFile().path(indexDir)));
            }
            throw e;
        }
    }

    private boolean notCommitted(CommitRequest request, RuntimeException failure) {
        try {
            return commit.committed(
                            request.commitUser(), request.commitIdentifier(), CommitKind.COMPACT)
                    .isEmpty();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
            return false;
        }
    }

    /** {@code partition/fileName} keys of the data files that have a deletion vector. */
    private Set<String> filesWithVectors(List<IndexManifestEntry> indexFiles) {
        Set<String> keys = new HashSet<>();
        for (IndexManifestEntry entry : indexFiles) {
            if (DeletionVectorIndexFile.INDEX_TYPE.equals(entry.indexFile().indexType())) {
                DeletionVectorIndexFile.readAll(store.paths().indexDir(), entry.indexFile())
                        .forEach(
                                (file, vector) -> {
                                    if (!vector.isEmpty()) {
                                        keys.add(key(entry.partition(), file));
                                    }
                                });
            }
        }
        return keys;
    }

    private static String key(ManifestEntry entry) {
        return key(entry.partition(), entry.file().fileName());
    }

    private static String key(byte[] partition, String fileName) {
        return java.util.HexFormat.of().formatHex(partition) + "/" + fileName;
    }
}
