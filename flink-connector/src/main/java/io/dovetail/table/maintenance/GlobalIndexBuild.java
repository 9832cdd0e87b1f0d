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
import io.dovetail.table.error.Errors;
import io.dovetail.table.index.BTreeIndexFile;
import io.dovetail.table.index.BTreeKeys;
import io.dovetail.table.index.BitmapIndexFile;
import io.dovetail.table.index.GlobalIndexFiles;
import io.dovetail.table.index.GlobalIndexMeta;
import io.dovetail.table.index.GlobalIndexWriter;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.PartitionValues;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.RowGroups;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Building and dropping B-tree and bitmap global indexes, as Apache Paimon 1.4.2's {@code
 * create_global_index} and Paimon's {@code drop_global_index} do. A build indexes one column of the
 * latest snapshot's selected partitions where no index of that type and column covers the rows yet:
 * each contiguous run of a partition's row ids is cut into {@link Run}s. B-tree: runs and files of
 * at most {@code btree-index.records-per-range} × 1.2 rows (1,200,000 by default), each file
 * covering the whole run, its keys in order with their row ids relative to the run's first ({@link
 * BTreeIndexFile}). Bitmap: runs of at most {@code global-index.row-count-per-shard} rows (100,000
 * by default), one file each ({@link BitmapIndexFile}). The files are committed in one snapshot
 * ({@link CommitRequest#globalIndexes}), which fails if a column update changed the column of those
 * rows since the build's snapshot.
 */
public final class GlobalIndexBuild {

    /** Paimon's default {@code btree-index.records-per-range}. */
    private static final int DEFAULT_RECORDS_PER_RANGE = 1_000_000;

    private static final String RECORDS_PER_RANGE = "btree-index.records-per-range";

    /** Paimon's default {@code global-index.row-count-per-shard}. */
    private static final int DEFAULT_ROWS_PER_SHARD = 100_000;

    private static final String ROWS_PER_SHARD = "global-index.row-count-per-shard";

    /**
     * One contiguous run of a partition's row ids to index.
     *
     * @param partition the serialized partition row
     */
    public record Run(byte[] partition, long first, long last) implements Serializable {}

    /**
     * What a build indexes: the column, of the snapshot, into index files of {@code indexType}, in
     * runs of at most {@code recordsPerFile} row ids (a writer still rolls to a new file at that
     * many rows).
     */
    public record Plan(
            long snapshotId,
            long schemaId,
            int fieldId,
            String indexType,
            long recordsPerFile,
            List<Run> runs)
            implements Serializable {

        public Plan {
            runs = List.copyOf(runs);
        }
    }

    private GlobalIndexBuild() {}

    /**
     * The runs of {@code column} to index in the latest snapshot's partitions that pass {@code
     * partitions}; empty when every row is indexed already. Refuses index types other than {@code
     * btree} and {@code bitmap} and column types {@link BTreeKeys} does not write. {@code options}
     * override the table's ({@code btree-index.records-per-range}, {@code
     * global-index.row-count-per-shard}).
     */
    public static Optional<Plan> plan(
            TableStore store,
            String column,
            String indexType,
            Predicate<RowData> partitions,
            Map<String, String> options) {
        Snapshot snapshot =
                store.latestSnapshot()
                        .orElseThrow(
                                () ->
                                        Errors.invalidArgument(
                                                "Table "
                                                        + store.paths().root()
                                                        + " has no snapshot to index."));
        TableSchema schema = store.schemas().schema(snapshot.schemaId());
        DataField field = field(schema, column);
        String type = indexType.trim().toLowerCase(Locale.ROOT);
        if (!GlobalIndexFiles.LOOKUP_TYPES.contains(type)) {
            throw Errors.unsupported(
                    "building '" + indexType + "' global indexes",
                    "Dovetail builds 'btree' and 'bitmap' indexes; Paimon's create_global_index"
                            + " builds the other types");
        }
        keys(field);
        Function<byte[], PartitionValues> decoder = PartitionValues.decoder(schema);
        Map<ByteBuffer, List<ManifestEntry>> byPartition = new LinkedHashMap<>();
        for (ManifestEntry entry : store.files(snapshot).liveFiles()) {
            if (partitions.test(decoder.apply(entry.partition()).row())) {
                byPartition
                        .computeIfAbsent(ByteBuffer.wrap(entry.partition()), p -> new ArrayList<>())
                        .add(entry);
            }
        }
        Map<ByteBuffer, List<RowRange>> indexed = new LinkedHashMap<>();
        for (IndexManifestEntry entry :
                GlobalIndexFiles.ofColumn(
                        store.files(snapshot).indexFiles(), Set.of(type), field.id())) {
            GlobalIndexMeta meta = entry.indexFile().globalIndex();
            indexed.computeIfAbsent(ByteBuffer.wrap(entry.partition()), p -> new ArrayList<>())
                    .add(new RowRange(meta.rowRangeStart(), meta.rowRangeEnd()));
        }
        long perFile = recordsPerFile(type, schema, options);
        List<Run> runs = new ArrayList<>();
        for (Map.Entry<ByteBuffer, List<ManifestEntry>> partition : byPartition.entrySet()) {
            List<RowRange> covered =
                    RowRange.normalize(indexed.getOrDefault(partition.getKey(), List.of()));
            for (RowRange run :
                    RowRange.normalize(RowGroups.rangesOfLiveFiles(partition.getValue()))) {
                for (RowRange piece : without(run, covered)) {
                    for (long first = piece.first(); first <= piece.last(); first += perFile) {
                        runs.add(
                                new Run(
                                        partition.getValue().get(0).partition(),
                                        first,
                                        Math.min(piece.last(), first + perFile - 1)));
                    }
                }
            }
        }
        return runs.isEmpty()
                ? Optional.empty()
                : Optional.of(
                        new Plan(snapshot.id(), schema.id(), field.id(), type, perFile, runs));
    }

    /** Rows per index file before the writer rolls to the next (Paimon's rules). */
    private static long recordsPerFile(
            String indexType, TableSchema schema, Map<String, String> options) {
        Map<String, String> all = new LinkedHashMap<>(schema.options());
        all.putAll(options);
        if (BitmapIndexFile.INDEX_TYPE.equals(indexType)) {
            return TableOptions.intValue(all, ROWS_PER_SHARD, DEFAULT_ROWS_PER_SHARD, 1);
        }
        return (long)
                (TableOptions.intValue(all, RECORDS_PER_RANGE, DEFAULT_RECORDS_PER_RANGE, 1) * 1.2);
    }

    /** The key order of the plan's column. */
    public static BTreeKeys keys(TableStore store, Plan plan) {
        return keys(fieldOf(store, plan));
    }

    /**
     * Passes each row of {@code run} at the plan's snapshot to {@code rows}: its key ({@code null}
     * for a NULL value) and its row id. Rows hidden by deletion vectors are not indexed.
     */
    public static void scan(TableStore store, Plan plan, Run run, RowConsumer rows) {
        DataField field = fieldOf(store, plan);
        BTreeKeys keys = keys(field);
        RowData.FieldGetter value = RowData.createFieldGetter(FlinkTypes.toFlink(field.type()), 0);
        ReadRequest request =
                ReadRequest.allColumns(store.schemas().schema(plan.schemaId()))
                        .withFields(List.of(field, SystemFields.ROW_ID))
                        .withRowRanges(List.of(new RowRange(run.first(), run.last())));
        ReadPlan read =
                new ReadPlanner(store).plan(store.snapshots().snapshot(plan.snapshotId()), request);
        for (ReadSplit split : read.splits()) {
            for (FileGroup group : split.groups()) {
                if (!Arrays.equals(group.partition(), run.partition())) {
                    continue;
                }
                try (SplitReader reader =
                        SplitReader.open(
                                read.fields(),
                                new ReadSplit(List.of(group)),
                                SplitReader.DEFAULT_BATCH_SIZE)) {
                    for (ReadBatch batch = reader.nextBatch();
                            batch != null;
                            batch = reader.nextBatch()) {
                        for (int i = 0; i < batch.size(); i++) {
                            RowData row = batch.row(i);
                            Object v = value.getFieldOrNull(row);
                            rows.accept(v == null ? null : keys.encode(v), row.getLong(1));
                        }
                    }
                }
            }
        }
    }

    /** Receives the rows a run's scan finds. */
    @FunctionalInterface
    public interface RowConsumer {
        void accept(@Nullable byte[] key, long rowId);
    }

    /**
     * Writes the index files of runs from their rows, given run by run in key order; files roll at
     * the plan's {@code recordsPerFile}.
     */
    public static final class Files {

        private final TableStore store;
        private final Plan plan;
        private final BTreeKeys keys;
        private final long perFile;
        private final List<IndexManifestEntry> written = new ArrayList<>();
        @Nullable private Run run;
        @Nullable private GlobalIndexWriter writer;

        public Files(TableStore store, Plan plan) {
            this.store = store;
            this.plan = plan;
            this.keys = keys(store, plan);
            this.perFile = plan.recordsPerFile();
        }

        /** Adds a row of {@code next} (key null for NULL); runs come one after another. */
        public void add(Run next, @Nullable byte[] key, long rowId) {
            boolean newRun =
                    run == null
                            || run.first() != next.first()
                            || !Arrays.equals(run.partition(), next.partition());
            if (newRun || (writer != null && writer.rowCount() >= perFile)) {
                finishFile();
                run = next;
                writer = GlobalIndexWriter.create(plan.indexType(), store.paths().indexDir(), keys);
            }
            writer.add(key, rowId - next.first());
        }

        /** The index manifest entries of every file written. */
        public List<IndexManifestEntry> finish() {
            finishFile();
            return List.copyOf(written);
        }

        /** Deletes the unfinished file. */
        public void abort() {
            if (writer != null) {
                writer.abort();
                writer = null;
            }
        }

        private void finishFile() {
            if (writer != null) {
                written.add(
                        new IndexManifestEntry(
                                FileKind.ADD,
                                run.partition(),
                                0,
                                writer.finish(run.first(), run.last(), plan.fieldId())));
                writer = null;
            }
        }
    }

    /** Commits the files a build of {@code plan} wrote. */
    public static Snapshot commit(
            TableStore store, String commitUser, Plan plan, List<IndexManifestEntry> added) {
        return new TableCommit(store)
                .commit(
                        CommitRequest.globalIndexes(
                                commitUser,
                                CommitRequest.BATCH_IDENTIFIER,
                                plan.snapshotId(),
                                added,
                                List.of()));
    }

    /**
     * The live global index files of {@code column} and type {@code indexType} in the partitions
     * that pass {@code partitions}; unless {@code dryRun} they are dropped in one snapshot.
     */
    public static List<IndexManifestEntry> drop(
            TableStore store,
            String column,
            String indexType,
            Predicate<RowData> partitions,
            boolean dryRun,
            String commitUser) {
        Optional<Snapshot> latest = store.latestSnapshot();
        if (latest.isEmpty()) {
            return List.of();
        }
        TableSchema schema = store.schemas().schema(latest.get().schemaId());
        DataField field = field(schema, column);
        Function<byte[], PartitionValues> decoder = PartitionValues.decoder(schema);
        String type = indexType.trim().toLowerCase(Locale.ROOT);
        List<IndexManifestEntry> dropped = new ArrayList<>();
        for (IndexManifestEntry entry :
                GlobalIndexFiles.ofColumn(
                        store.files(latest.get()).indexFiles(), Set.of(type), field.id())) {
            if (partitions.test(decoder.apply(entry.partition()).row())) {
                dropped.add(entry);
            }
        }
        if (!dryRun && !dropped.isEmpty()) {
            new TableCommit(store)
                    .commit(
                            CommitRequest.globalIndexes(
                                    commitUser,
                                    CommitRequest.BATCH_IDENTIFIER,
                                    latest.get().id(),
                                    List.of(),
                                    dropped));
        }
        return dropped;
    }

    /** The parts of {@code run} outside normalized {@code covered}. */
    private static List<RowRange> without(RowRange run, List<RowRange> covered) {
        List<RowRange> out = new ArrayList<>();
        long next = run.first();
        for (RowRange c : covered) {
            if (c.last() < next || c.first() > run.last()) {
                continue;
            }
            if (c.first() > next) {
                out.add(new RowRange(next, c.first() - 1));
            }
            next = Math.max(next, c.last() + 1);
        }
        if (next <= run.last()) {
            out.add(new RowRange(next, run.last()));
        }
        return out;
    }

    private static DataField fieldOf(TableStore store, Plan plan) {
        return store.schemas().schema(plan.schemaId()).fields().stream()
                .filter(f -> f.id() == plan.fieldId())
                .findFirst()
                .orElseThrow();
    }

    private static DataField field(TableSchema schema, String column) {
        return schema.field(column.trim())
                .orElseThrow(
                        () ->
                                Errors.invalidArgument(
                                        "Column '"
                                                + column
                                                + "' does not exist in the table; its columns are "
                                                + schema.fieldNames()
                                                + "."));
    }

    private static BTreeKeys keys(DataField field) {
        return BTreeKeys.of(FlinkTypes.toFlink(field.type()))
                .orElseThrow(
                        () ->
                                Errors.unsupported(
                                        "global indexes of column "
                                                + field.name()
                                                + " of type "
                                                + field.type(),
                                        "Dovetail builds and reads B-tree and bitmap indexes of"
                                                + " STRING, BIGINT, INT, SMALLINT, TINYINT, BOOLEAN"
                                                + " and DATE columns"));
    }
}
