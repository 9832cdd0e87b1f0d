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
package io.dovetail.table.update;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.RangeRows;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Rewrites the updated columns of one group into one partial-column file covering its whole range
 * (and each updated BLOB column into one {@code .blob} file over the same range) (data-evolution
 * semantics §6.2): the group's current values of those columns are read through the read path,
 * position by position in row-id order, and each position takes its new value if the updates have
 * one, else its current value.
 *
 * <p>The group is read <em>without</em> its deletion vector, so positions hidden by it are read too
 * and keep their current value: the new file stays aligned with the group's other files, and the
 * vector (kept on the unchanged anchor) still hides those rows afterwards.
 */
final class GroupBackfill {

    private final TablePaths paths;
    private final TableSchema schema;
    private final List<String> columns;
    private final List<DataField> readFields;
    private final BinaryRowCodec partitionCodec;
    private final int[] valueColumns;

    /**
     * @param readFields the updated columns followed by {@code _ROW_ID}
     */
    GroupBackfill(
            TablePaths paths,
            TableSchema schema,
            List<String> columns,
            List<DataField> readFields) {
        this.paths = paths;
        this.schema = schema;
        this.columns = List.copyOf(columns);
        this.readFields = List.copyOf(readFields);
        this.partitionCodec =
                BinaryRowCodec.of(
                        schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList());
        this.valueColumns = IntStream.range(0, columns.size()).toArray();
    }

    /**
     * Starts the file of {@code group}: {@link Rewrite#put} takes its updates in ascending row-id
     * order, {@link Rewrite#finish} writes the positions after the last one and returns the file's
     * ADD entry with {@code firstRowId} = the group start. The group's current values are read only
     * from the first position without an update on: a group whose every row is updated is not read
     * at all. Nothing is held but the file writer's buffer and the read's current batch.
     */
    Rewrite open(FileGroup group) {
        return new Rewrite(group);
    }

    /** The partial-column file of one group, written position by position. */
    final class Rewrite implements AutoCloseable {

        private final FileGroup group;
        private final DataFileWriter writer;
        private final CurrentValues current;
        private long next;

        private Rewrite(FileGroup group) {
            this.group = group;
            this.writer =
                    DataFileWriter.forPartialColumns(
                            paths, schema, columns, partitionCodec.deserialize(group.partition()));
            this.current = new CurrentValues(group);
            this.next = group.range().first();
        }

        FileGroup group() {
            return group;
        }

        /** Writes {@code values} at {@code rowId} (after every position before it). */
        void put(long rowId, RowData values) {
            fillTo(rowId);
            writer.write(values);
            next = rowId + 1;
        }

        /** The group's partial file, then one .blob file per updated BLOB column, if any. */
        List<ManifestEntry> finish() {
            fillTo(group.range().last() + 1);
            List<ManifestEntry> files = new ArrayList<>();
            for (ManifestEntry file : writer.finish()) { // non-rolling: one file per kind
                files.add(
                        new ManifestEntry(
                                file.kind(),
                                file.partition(),
                                file.bucket(),
                                file.totalBuckets(),
                                file.file().toBuilder().firstRowId(group.range().first()).build()));
            }
            close();
            return files;
        }

        private void fillTo(long end) {
            for (; next < end; next++) {
                writer.write(current.at(next));
            }
        }

        /** Closes the read; an unfinished file is deleted. */
        @Override
        public void close() {
            try {
                current.close();
            } finally {
                writer.close();
            }
        }
    }

    /** The current values of the updated columns of one group, read on first use. */
    private final class CurrentValues implements AutoCloseable {

        private final FileGroup group;
        private final ProjectedRowData values = ProjectedRowData.from(valueColumns);
        @Nullable private RangeRows rows;

        CurrentValues(FileGroup group) {
            this.group = group;
        }

        /** The values at {@code rowId}, which must follow the previous call's row id. */
        RowData at(long rowId) {
            if (rows == null) {
                rows =
                        RangeRows.open(
                                readFields,
                                List.of(group),
                                group.range(),
                                "rewrite row range " + group.range());
            }
            int rowIdField = columns.size();
            for (RowData row = rows.next(); ; row = rows.next()) {
                if (row.getLong(rowIdField) == rowId) { // RangeRows checks every position is there
                    return values.replaceRow(row);
                }
            }
        }

        @Override
        public void close() {
            if (rows != null) {
                rows.close();
                rows = null;
            }
        }
    }
}
