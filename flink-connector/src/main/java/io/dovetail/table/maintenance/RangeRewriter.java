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
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.Errors;
import io.dovetail.table.maintenance.CompactionTask.Group;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.RangeRows;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.DataEvolutionTableValidator;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.write.DataFileWriter;
import io.dovetail.table.write.DataFileWriterOptions;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Rewrites the groups of one {@link CompactionTask} into one file (semantics §8.1, normal task),
 * read through the read path without deletion vectors, so every position of the range is kept in
 * row order. A full task writes every column of the current schema but the BLOB and VECTOR ones
 * (whose files stay, still inside the range) into one normal file; a column-selective task reads
 * and writes only its columns, into one partial-column file over its group's range; a dedicated
 * task writes its BLOB field's values (copied from descriptors of the old {@code .blob} files,
 * streamed) or its VECTOR columns into one {@code .blob} or vector-store file over its group's
 * range. Each file is non-rolling with {@code firstRowId} = the range start, {@code fileSource}
 * COMPACT and the groups' minimum and maximum sequence numbers (which the commit keeps, because
 * they are not 0).
 */
public final class RangeRewriter {

    /** The read planned for the tasks that write one set of columns (null: a full rewrite). */
    private record ColumnsRead(List<DataField> fields, Map<Long, FileGroup> groups) {}

    private final TableStore store;
    private final TableSchema schema;
    private final Map<List<String>, ColumnsRead> reads = new HashMap<>();
    private final BinaryRowCodec partitionCodec;
    private final DataFileWriterOptions options;

    /**
     * Plans the read of every task of {@code plan} on its pinned snapshot once per set of columns
     * written (its manifests read once each), so that each {@link #rewrite}, in any order, only
     * reads and writes its task's files.
     */
    public static RangeRewriter of(TableStore store, DataEvolutionCompaction.Plan plan) {
        return new RangeRewriter(
                store,
                store.schemas().schema(plan.schemaId()),
                store.snapshots().snapshot(plan.snapshotId()),
                plan.tasks());
    }

    private RangeRewriter(
            TableStore store, TableSchema schema, Snapshot snapshot, List<CompactionTask> tasks) {
        this.store = store;
        this.schema = schema;
        Map<List<String>, List<RowRange>> rangesByColumns = new HashMap<>();
        for (CompactionTask task : tasks) {
            rangesByColumns
                    .computeIfAbsent(task.columns(), c -> new ArrayList<>())
                    .add(task.range());
        }
        ReadPlanner planner = new ReadPlanner(store);
        rangesByColumns.forEach(
                (columns, ranges) -> {
                    List<DataField> fields = new ArrayList<>(written(columns));
                    fields.add(SystemFields.ROW_ID);
                    ReadPlan plan =
                            planner.plan(
                                    snapshot,
                                    ReadRequest.allColumns(schema)
                                            .withFields(fields)
                                            .withRowRanges(ranges)
                                            // a fold of .blob files copies each value from
                                            // its descriptor, streamed, never held whole
                                            .withBlobsAsDescriptors(true));
                    Map<Long, FileGroup> groups = new HashMap<>();
                    for (ReadSplit split : plan.splits()) {
                        split.groups().forEach(g -> groups.put(g.range().first(), g.readInFull()));
                    }
                    reads.put(columns, new ColumnsRead(plan.fields(), groups));
                });
        this.partitionCodec =
                BinaryRowCodec.of(
                        schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList());
        this.options = DataFileWriterOptions.fromTableOptions(schema.options()).withoutRolling();
    }

    /**
     * Writes the compacted file of {@code task}, one of the plan's; returns its ADD entry, ready to
     * commit.
     */
    public ManifestEntry rewrite(CompactionTask task) {
        RowRange range = task.range();
        ColumnsRead read = reads.get(task.columns());
        if (read == null) {
            throw misaligned(range, "the read plan has no task writing " + task.columns());
        }
        List<FileGroup> toRead = new ArrayList<>();
        for (Group group : task.groups()) {
            FileGroup planned = read.groups().get(group.range().first());
            if (planned == null || !planned.range().equals(group.range())) {
                throw misaligned(range, "the read plan has no group " + group.range());
            }
            toRead.add(planned);
        }
        ProjectedRowData values =
                ProjectedRowData.from(IntStream.range(0, written(task.columns()).size()).toArray());
        RowData partition = partitionCodec.deserialize(task.partition());
        try (DataFileWriter writer = writer(task, partition);
                RangeRows rows =
                        RangeRows.open(
                                read.fields(), toRead, range, "compact row range " + range)) {
            for (RowData row = rows.next(); row != null; row = rows.next()) {
                writer.write(values.replaceRow(row));
            }
            ManifestEntry file = writer.finish().get(0); // the one file of a non-rolling writer
            return new ManifestEntry(
                    file.kind(),
                    file.partition(),
                    file.bucket(),
                    file.totalBuckets(),
                    file.file().toBuilder()
                            .firstRowId(range.first())
                            .sequenceNumbers(task.minSequenceNumber(), task.maxSequenceNumber())
                            .fileSource(FileSource.COMPACT)
                            .build());
        }
    }

    /** One non-rolling file: the task's normal file, or its one {@code .blob} or vector file. */
    private DataFileWriter writer(CompactionTask task, RowData partition) {
        return task.full()
                ? DataFileWriter.forNormalColumns(store.paths(), schema, partition, options)
                : DataFileWriter.forPartialColumns(
                        store.paths(), schema, task.columns(), partition);
    }

    /**
     * The columns a task writes: {@code columns} of the schema (a dedicated task's BLOB field or
     * VECTOR columns), or every column of normal files when null (BLOB and VECTOR columns stay in
     * their own files, which keep row ids).
     */
    private List<DataField> written(@Nullable List<String> columns) {
        if (columns == null) {
            return schema.fields().stream()
                    .filter(f -> !DataEvolutionTableValidator.isDedicatedColumn(schema, f))
                    .toList();
        }
        return columns.stream().map(c -> schema.field(c).orElseThrow()).toList();
    }

    private static RuntimeException misaligned(RowRange range, String problem) {
        return Errors.invalidLayout(
                "Cannot compact row range "
                        + range
                        + ": "
                        + problem
                        + "; every position of the range must be rewritten, in row-id order."
                        + " Nothing was committed.");
    }
}
