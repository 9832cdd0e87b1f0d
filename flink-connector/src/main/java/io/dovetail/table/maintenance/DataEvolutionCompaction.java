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
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Data-evolution compaction (semantics §8.1): merges the files of adjacent row-range groups into
 * one normal file per task, keeping every row id, and commits the result as one COMPACT snapshot.
 *
 * <ol>
 *   <li>pin the latest snapshot S and plan tasks over its live files ({@link CompactionPlanner});
 *   <li>rewrite each task's range into one file ({@link RangeRewriter});
 *   <li>move the deletion vectors of the old anchors, shifted, to the compacted files ({@link
 *       CompactedVectors});
 *   <li>commit the old files as deleted, the new ones as added, and the index changes, through
 *       {@link TableCommit}. Its checks protect the result against commits after S: inputs removed
 *       concurrently (C3), a concurrent delete of a compacted group (C1), and a column update
 *       committed after S for one of several merged groups (C7: its range would overlap the merged
 *       range unequally) fail the commit with a conflict, and nothing is lost; a column update of a
 *       task that keeps its range stays valid on top of the compacted file, whose sequence numbers
 *       are the inputs' and so older than the update's.
 * </ol>
 *
 * <p>{@code _SEQUENCE_NUMBER} after compaction: every row of a compacted range reads the largest
 * sequence number of the task's inputs (Paimon's rule: the compacted file has the inputs' maximum
 * and provides every column), so rows of a merged group whose own files were older read a larger
 * value than before. Values and {@code _ROW_ID} never change.
 *
 * <p>A commit user and identifier make a run idempotent: if the table already holds a compaction
 * with them, the run reports that commit and does nothing. A run that fails leaves the table as it
 * was and deletes the files it wrote unless it cannot tell whether its commit landed.
 */
public final class DataEvolutionCompaction {

    /**
     * What one run did.
     *
     * @param tasks compacted files written (one per task)
     * @param filesRewritten input files replaced
     * @param bytesRewritten bytes of the input files
     * @param bytesWritten bytes of the compacted files
     * @param snapshotId the COMPACT snapshot, empty when there was nothing to compact
     */
    public record Result(
            int tasks,
            int filesRewritten,
            long bytesRewritten,
            long bytesWritten,
            OptionalLong snapshotId) {

        static final Result NOTHING = new Result(0, 0, 0, 0, OptionalLong.empty());

        static Result of(long snapshotId, List<ManifestEntry> dataChanges) {
            int tasks = 0;
            int rewritten = 0;
            long bytesRewritten = 0;
            long bytesWritten = 0;
            for (ManifestEntry entry : dataChanges) {
                if (entry.kind() == FileKind.ADD) {
                    tasks++;
                    bytesWritten += entry.file().fileSize();
                } else {
                    rewritten++;
                    bytesRewritten += entry.file().fileSize();
                }
            }
            return new Result(
                    tasks, rewritten, bytesRewritten, bytesWritten, OptionalLong.of(snapshotId));
        }
    }

    private static final Set<DovetailException.Kind> REFUSED_BEFORE_PUBLISHING =
            Set.of(
                    DovetailException.Kind.CONFLICT,
                    DovetailException.Kind.INVALID_LAYOUT,
                    DovetailException.Kind.INVALID_ARGUMENT,
                    DovetailException.Kind.NO_SUCH_SNAPSHOT,
                    DovetailException.Kind.UNSUPPORTED);

    private final TableStore store;
    private final TableCommit commit;

    public DataEvolutionCompaction(TableStore store) {
        this(store, new TableCommit(store));
    }

    /** A compaction committing through {@code commit} (which caches the table's history). */
    public DataEvolutionCompaction(TableStore store, TableCommit commit) {
        this.store = store;
        this.commit = commit;
    }

    /**
     * What one run rewrites: {@code tasks} planned over the live files of snapshot {@code
     * snapshotId}, to be read and written with schema {@code schemaId}.
     */
    public record Plan(long snapshotId, long schemaId, List<CompactionTask> tasks) {
        public Plan {
            tasks = List.copyOf(tasks);
        }
    }

    /** Compacts every partition with the table's options. */
    public Result compact(String commitUser, long commitIdentifier) {
        return compact(
                commitUser,
                commitIdentifier,
                partition -> true,
                CompactionConfig.fromOptions(store.latestSchema().options()));
    }

    /**
     * Compacts the partitions whose values (a row of the partition columns) pass {@code
     * partitions}, packing tasks by {@code config}, in this process: {@link #plan}, {@link
     * RangeRewriter#rewrite} of each task, {@link #commit}. A distributed job runs the same three
     * steps in different processes.
     */
    public Result compact(
            String commitUser,
            long commitIdentifier,
            Predicate<RowData> partitions,
            CompactionConfig config) {
        Optional<Snapshot> done =
                commit.committed(commitUser, commitIdentifier, CommitKind.COMPACT);
        if (done.isPresent()) {
            return Result.of(done.get().id(), store.files(done.get()).deltaEntries());
        }
        Optional<Plan> plan = plan(partitions, config);
        if (plan.isEmpty()) {
            return Result.NOTHING;
        }
        List<ManifestEntry> compacted = new ArrayList<>();
        try {
            RangeRewriter rewriter = RangeRewriter.of(store, plan.get());
            for (CompactionTask task : plan.get().tasks()) {
                compacted.add(rewriter.rewrite(task));
            }
        } catch (RuntimeException e) {
            deleteQuietly(compacted, plan.get());
            throw e;
        }
        return commit(commitUser, commitIdentifier, plan.get(), compacted);
    }

    /**
     * Pins the latest snapshot and plans the tasks over the live files of the partitions passing
     * {@code partitions}; empty when the table has no snapshot or no bin qualifies.
     */
    public Optional<Plan> plan(Predicate<RowData> partitions, CompactionConfig config) {
        TableSchema schema = store.latestSchema();
        Optional<Snapshot> latest = store.latestSnapshot();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        List<ManifestEntry> live = store.files(latest.get()).liveFiles();
        List<CompactionTask> tasks =
                new CompactionPlanner(config).plan(selected(live, schema, partitions));
        return tasks.isEmpty()
                ? Optional.empty()
                : Optional.of(new Plan(latest.get().id(), schema.id(), tasks));
    }

    /**
     * Commits the rewritten files {@code compacted} (one per task of {@code plan}, same order) as
     * one COMPACT snapshot: the inputs deleted, the compacted files added, the deletion vectors of
     * the old anchors moved to them. If the commit certainly did not land, the compacted files and
     * the new index files are deleted.
     */
    public Result commit(
            String commitUser, long commitIdentifier, Plan plan, List<ManifestEntry> compacted) {
        if (compacted.size() != plan.tasks().size()) {
            deleteQuietly(compacted, plan);
            throw Errors.invalidArgument(
                    "A compaction of "
                            + plan.tasks().size()
                            + " tasks got "
                            + compacted.size()
                            + " compacted files; nothing was committed.");
        }
        SnapshotFiles files = store.files(store.snapshots().snapshot(plan.snapshotId()));
        List<Path> written = new ArrayList<>();
        compacted.forEach(file -> written.add(files.dataFilePath(file)));
        CommitRequest request;
        try {
            Path indexDir = store.paths().indexDir();
            IndexChanges vectors =
                    CompactedVectors.move(indexDir, files.indexFiles(), plan.tasks(), compacted);
            vectors.added().forEach(e -> written.add(e.indexFile().path(indexDir)));
            List<ManifestEntry> inputs = new ArrayList<>();
            plan.tasks().forEach(t -> inputs.addAll(t.inputs()));
            request =
                    CommitRequest.compact(commitUser, commitIdentifier, inputs, compacted, vectors);
        } catch (RuntimeException e) {
            written.forEach(FileIO::deleteQuietly);
            throw e;
        }
        try {
            Snapshot snapshot = commit.commit(request);
            return Result.of(snapshot.id(), request.operation().dataChanges());
        } catch (RuntimeException e) {
            if (notCommitted(request, e)) {
                written.forEach(FileIO::deleteQuietly);
            }
            throw e;
        }
    }

    private void deleteQuietly(List<ManifestEntry> compacted, Plan plan) {
        SnapshotFiles files = store.files(store.snapshots().snapshot(plan.snapshotId()));
        compacted.forEach(file -> FileIO.deleteQuietly(files.dataFilePath(file)));
    }

    /**
     * Whether {@code request}, whose commit failed with {@code failure}, certainly did not land:
     * refused by a check, or absent from the table when asked again.
     */
    private boolean notCommitted(CommitRequest request, RuntimeException failure) {
        if (failure instanceof DovetailException e
                && REFUSED_BEFORE_PUBLISHING.contains(e.kind())) {
            return true;
        }
        try {
            return commit.committed(
                            request.commitUser(), request.commitIdentifier(), request.kind())
                    .isEmpty();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
            return false;
        }
    }

    static List<ManifestEntry> selected(
            List<ManifestEntry> liveFiles, TableSchema schema, Predicate<RowData> partitions) {
        BinaryRowCodec codec =
                BinaryRowCodec.of(
                        schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList());
        Map<ByteBuffer, Boolean> accepted = new HashMap<>();
        List<ManifestEntry> selected = new ArrayList<>();
        for (ManifestEntry entry : liveFiles) {
            if (accepted.computeIfAbsent(
                    ByteBuffer.wrap(entry.partition()),
                    p -> partitions.test(codec.deserialize(entry.partition())))) {
                selected.add(entry);
            }
        }
        return selected;
    }
}
