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

import io.dovetail.table.TableStore;
import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.PartitionValues;
import io.dovetail.table.read.RangeRows;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.read.StagedFiles;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Rebases a column update whose staged partial-column files a concurrent compaction moved ({@link
 * RebasePlanner}): each live range holding staged files gets ONE new non-rolling partial-column
 * file covering exactly that range, with the staged files' columns (data-evolution semantics §6.2,
 * §7.6). Positions a staged file covers take its values; every other position takes the current
 * value of those columns in the snapshot the commit builds on, read through the read path (provider
 * selection included) without the deletion vector, so hidden positions keep a value and the file
 * stays aligned. The new files carry sequence number 0, so the commit stamps the new snapshot's id
 * and they win over the compacted file for their columns. The staged files stay unreferenced.
 */
final class PartialFileRebaser {

    private final TableStore store;

    PartialFileRebaser(TableStore store) {
        this.store = store;
    }

    /**
     * The update with its staged files that compaction moved replaced by rebased files, or {@code
     * update} itself if none needs a rebase. Each written file is added to {@code written} as soon
     * as it exists, so that the caller deletes it if the attempt fails.
     *
     * @param history the snapshots (B, L] in order, each with its delta entries
     */
    CommitOperation.ColumnUpdate rebase(
            CommitOperation.ColumnUpdate update,
            TableState latest,
            List<Map.Entry<Snapshot, List<ManifestEntry>>> history,
            List<Path> written) {
        List<RebasePlanner.Target> targets = RebasePlanner.plan(latest, update.files(), history);
        if (targets.isEmpty()) {
            return update;
        }
        SnapshotFiles files = store.files(latest.snapshot());
        List<ManifestEntry> rebased = new ArrayList<>(update.files());
        for (RebasePlanner.Target target : targets) {
            rebased.removeAll(target.staged());
            rebased.add(rewrite(files, target, written));
        }
        return new CommitOperation.ColumnUpdate(update.baseSnapshotId(), rebased);
    }

    private ManifestEntry rewrite(
            SnapshotFiles files, RebasePlanner.Target target, List<Path> written) {
        ManifestEntry first = target.staged().get(0);
        TableSchema schema = store.schemas().schema(first.file().schemaId());
        List<String> columns = first.file().writeCols();
        List<DataField> fields = new ArrayList<>();
        columns.forEach(name -> fields.add(schema.field(name).orElseThrow()));
        fields.add(SystemFields.ROW_ID);
        int rowIdField = columns.size();
        ProjectedRowData values =
                ProjectedRowData.from(IntStream.range(0, columns.size()).toArray());
        PartitionValues partition = PartitionValues.decoder(schema).apply(target.partition());
        RowRange range = target.range();
        try (DataFileWriter writer =
                        DataFileWriter.forPartialColumns(
                                store.paths(), schema, columns, partition.row());
                RangeRows current =
                        RangeRows.open(
                                fields,
                                List.of(currentGroup(files, schema, fields, range)),
                                range,
                                "rebase partial-column files "
                                        + target.staged().stream()
                                                .map(e -> e.file().fileName())
                                                .toList()
                                        + " onto rows "
                                        + range);
                SplitReader staged =
                        reader(fields, stagedGroups(files, fields, target, partition))) {
            StagedRows stagedRows = new StagedRows(staged, rowIdField);
            for (RowData row = current.next(); row != null; row = current.next()) {
                long rowId = row.getLong(rowIdField);
                writer.write(
                        values.replaceRow(
                                stagedRows.nextRowId() == rowId ? stagedRows.take() : row));
            }
            if (stagedRows.nextRowId() != Long.MAX_VALUE) {
                throw misaligned(target, "a staged row is outside the range");
            }
            ManifestEntry file = writer.finish().get(0); // the one file of a non-rolling writer
            ManifestEntry entry =
                    new ManifestEntry(
                            file.kind(),
                            file.partition(),
                            file.bucket(),
                            file.totalBuckets(),
                            file.file().toBuilder().firstRowId(range.first()).build());
            written.add(files.dataFilePath(entry));
            return entry;
        }
    }

    /** The live group of {@code range} in the snapshot of {@code files}, read in full. */
    private FileGroup currentGroup(
            SnapshotFiles files, TableSchema schema, List<DataField> fields, RowRange range) {
        ReadRequest request =
                ReadRequest.allColumns(schema).withFields(fields).withRowRanges(List.of(range));
        return new ReadPlanner(store)
                .plan(files.snapshot(), request).splits().stream()
                        .flatMap(split -> split.groups().stream())
                        .filter(group -> group.range().equals(range))
                        .findFirst()
                        .orElseThrow(
                                () ->
                                        Errors.invalidLayout(
                                                "Snapshot "
                                                        + files.snapshot().id()
                                                        + " has no row-range group "
                                                        + range
                                                        + " to rebase partial-column files onto."))
                        .readInFull();
    }

    /** One group per staged file, each read alone through provider selection. */
    private List<FileGroup> stagedGroups(
            SnapshotFiles files,
            List<DataField> fields,
            RebasePlanner.Target target,
            PartitionValues partition) {
        List<FileGroup> groups = new ArrayList<>();
        for (ManifestEntry entry : target.staged()) {
            groups.add(
                    StagedFiles.group(
                            files, List.of(entry), partition, store.schemas()::schema, fields));
        }
        return groups;
    }

    private static SplitReader reader(List<DataField> fields, List<FileGroup> groups) {
        return SplitReader.open(fields, new ReadSplit(groups), SplitReader.DEFAULT_BATCH_SIZE);
    }

    private static RuntimeException misaligned(RebasePlanner.Target target, String problem) {
        return Errors.invalidLayout(
                "Cannot rebase partial-column files "
                        + target.staged().stream().map(e -> e.file().fileName()).toList()
                        + " onto rows "
                        + target.range()
                        + ": "
                        + problem
                        + "; every position of the range must be written once, in row-id order."
                        + " The table is unchanged.");
    }

    /** The rows of the staged files in ascending row-id order, one at a time. */
    private static final class StagedRows {

        private final SplitReader reader;
        private final int rowIdField;
        @Nullable private ReadBatch batch;
        private int next;

        StagedRows(SplitReader reader, int rowIdField) {
            this.reader = reader;
            this.rowIdField = rowIdField;
        }

        /** The row id of the next staged row, {@code Long.MAX_VALUE} after the last. */
        long nextRowId() {
            while (batch == null || next == batch.size()) {
                batch = reader.nextBatch();
                next = 0;
                if (batch == null) {
                    return Long.MAX_VALUE;
                }
            }
            return batch.row(next).getLong(rowIdField);
        }

        /** The next staged row, valid until the following call. */
        RowData take() {
            return batch.row(next++);
        }
    }
}
