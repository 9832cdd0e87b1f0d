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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Rewrites the groups of one {@link CompactionTask} into one normal file (semantics §8.1, normal
 * task): every column of the current schema but the BLOB ones (whose {@code .blob} files stay,
 * still inside the range) is read through the read path without deletion vectors, so every position
 * of the range is kept in row order, and written to one non-rolling file with {@code firstRowId} =
 * the range start, {@code fileSource} COMPACT and the inputs' minimum and maximum sequence numbers
 * (which the commit keeps, because they are not 0).
 */
public final class RangeRewriter {

    private final TableStore store;
    private final TableSchema schema;
    private final List<DataField> readFields;
    private final Map<Long, FileGroup> groups = new HashMap<>();
    private final BinaryRowCodec partitionCodec;
    private final DataFileWriterOptions options;

    /**
     * Plans the read of every task of {@code plan} on its pinned snapshot once (its manifests read
     * once), so that each {@link #rewrite}, in any order, only reads and writes its task's files.
     */
    public static RangeRewriter of(TableStore store, DataEvolutionCompaction.Plan plan) {
        return new RangeRewriter(
                store,
                store.schemas().schema(plan.schemaId()),
                store.snapshots().snapshot(plan.snapshotId()),
                plan.tasks());
    }

    /** Plans the read of every task's range in {@code snapshot} once, with {@code schema}. */
    private RangeRewriter(
            TableStore store, TableSchema schema, Snapshot snapshot, List<CompactionTask> tasks) {
        this.store = store;
        this.schema = schema;
        List<DataField> fields = new ArrayList<>(normalColumns(schema));
        fields.add(SystemFields.ROW_ID);
        List<RowRange> ranges = tasks.stream().map(CompactionTask::range).toList();
        ReadPlan plan =
                new ReadPlanner(store)
                        .plan(
                                snapshot,
                                ReadRequest.allColumns(schema)
                                        .withFields(fields)
                                        .withRowRanges(ranges));
        this.readFields = plan.fields();
        for (ReadSplit split : plan.splits()) {
            split.groups().forEach(g -> groups.put(g.range().first(), g.readInFull()));
        }
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
        List<FileGroup> toRead = new ArrayList<>();
        for (Group group : task.groups()) {
            FileGroup planned = groups.get(group.range().first());
            if (planned == null || !planned.range().equals(group.range())) {
                throw misaligned(range, "the read plan has no group " + group.range());
            }
            toRead.add(planned);
        }
        ProjectedRowData values =
                ProjectedRowData.from(IntStream.range(0, normalColumns(schema).size()).toArray());
        RowData partition = partitionCodec.deserialize(task.partition());
        try (DataFileWriter writer =
                        DataFileWriter.forNormalColumns(store.paths(), schema, partition, options);
                RangeRows rows =
                        RangeRows.open(readFields, toRead, range, "compact row range " + range)) {
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

    /** The columns of normal files; BLOB columns stay in their .blob files, which keep row ids. */
    private static List<DataField> normalColumns(TableSchema schema) {
        return schema.fields().stream()
                .filter(f -> !DataEvolutionTableValidator.isDedicatedColumn(schema, f))
                .toList();
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
