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
import io.dovetail.table.error.Errors;
import io.dovetail.table.format.vector.VectorFileFormat;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.FieldSource;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.GroupFile;
import io.dovetail.table.read.RangeRows;
import io.dovetail.table.read.VectorBunchKey;
import io.dovetail.table.schema.DataEvolutionTableValidator;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.types.TypeRoot;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.stream.IntStream;

/**
 * Rewrites the updated columns of one group into one partial-column file covering its whole range
 * (and each updated BLOB column into one {@code .blob} file over the same range) (data-evolution
 * semantics §6.2): the group's current values of those columns are read through the read path,
 * position by position in row-id order, and each position takes its new value if the updates have
 * one, else its current value. Updated VECTOR columns go into the vector-store bunch that provides
 * them ({@link VectorBunchKey}: same schema id, format and columns, the other columns carrying
 * their current values), so the new file supersedes the old ones for Paimon's readers too; a column
 * no bunch of the group holds gets a file of its own, in the current schema.
 *
 * <p>The group is read <em>without</em> its deletion vector, so positions hidden by it are read too
 * and keep their current value: the new file stays aligned with the group's other files, and the
 * vector (kept on the unchanged anchor) still hides those rows afterwards.
 */
final class GroupBackfill {

    private final TablePaths paths;
    private final TableSchema schema;
    private final LongFunction<TableSchema> schemas;
    private final List<String> columns;
    private final List<String> written; // the columns, then the copied ones
    private final List<DataField> readFields;
    private final BinaryRowCodec partitionCodec;
    private final int[] valueColumns;

    /**
     * @param schemas every schema by id (vector-store bunches keep the schema they were written in)
     * @param copied the VECTOR columns whose current values go into rewritten vector-store files
     *     ({@link VectorCopies})
     * @param readFields the updated columns, the copied ones, then {@code _ROW_ID}
     */
    GroupBackfill(
            TablePaths paths,
            TableSchema schema,
            LongFunction<TableSchema> schemas,
            List<String> columns,
            List<String> copied,
            List<DataField> readFields) {
        this.paths = paths;
        this.schema = schema;
        this.schemas = schemas;
        this.columns = List.copyOf(columns);
        List<String> all = new ArrayList<>(columns);
        all.addAll(copied);
        this.written = List.copyOf(all);
        this.readFields = List.copyOf(readFields);
        this.partitionCodec =
                BinaryRowCodec.of(
                        schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList());
        this.valueColumns = IntStream.range(0, written.size()).toArray();
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
        private final boolean copies; // whether a vector-store file carries copied columns
        private final ProjectedRowData copiedValues;
        private final JoinedRowData joined = new JoinedRowData();
        private final GenericRowData noCopies;
        private long next;

        private Rewrite(FileGroup group) {
            this.group = group;
            List<DataFileWriter.VectorTarget> targets = vectorTargets(group);
            this.copies =
                    targets != null
                            && targets.stream()
                                    .flatMapToInt(t -> Arrays.stream(t.positions()))
                                    .anyMatch(p -> p >= columns.size());
            this.writer =
                    DataFileWriter.forPartialColumns(
                            paths,
                            schema,
                            written,
                            partitionCodec.deserialize(group.partition()),
                            targets);
            this.current = new CurrentValues(group);
            this.copiedValues =
                    ProjectedRowData.from(
                            IntStream.range(columns.size(), written.size()).toArray());
            this.noCopies = new GenericRowData(written.size() - columns.size());
            this.next = group.range().first();
        }

        FileGroup group() {
            return group;
        }

        /**
         * Writes {@code values} (of the updated columns) at {@code rowId} (after every position
         * before it).
         */
        void put(long rowId, RowData values) {
            fillTo(rowId);
            RowData copied = copies ? copiedValues.replaceRow(current.at(rowId)) : noCopies;
            writer.write(joined.replace(values, copied));
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

    /**
     * The vector-store files an update of {@code group} writes, or null when it assigns no VECTOR
     * column: per bunch providing an assigned VECTOR column, a file of that bunch's key (its other
     * columns copied); the assigned VECTOR columns no bunch holds share a file in the current
     * schema and the table's format.
     */
    @Nullable
    private List<DataFileWriter.VectorTarget> vectorTargets(FileGroup group) {
        Map<VectorBunchKey, DataFileWriter.VectorTarget> byBunch = new TreeMap<>();
        List<DataField> unheld = new ArrayList<>();
        List<Integer> unheldPositions = new ArrayList<>();
        boolean any = false;
        for (int c = 0; c < columns.size(); c++) {
            DataField column = readFields.get(c);
            if (!isVectorStoreColumn(column)) {
                continue;
            }
            any = true;
            if (group.sources().get(c) instanceof FieldSource.FromVectorFiles source) {
                GroupFile file = group.files().get(source.files().get(0));
                VectorBunchKey key = VectorBunchKey.of(file.meta(), schemas);
                byBunch.computeIfAbsent(
                        key,
                        k -> target(k, VectorFileFormat.ofFileName(file.meta().fileName()), group));
            } else {
                unheld.add(column);
                unheldPositions.add(c);
            }
        }
        if (!any) {
            return null;
        }
        List<DataFileWriter.VectorTarget> targets = new ArrayList<>(byBunch.values());
        if (!unheld.isEmpty()) {
            targets.add(
                    new DataFileWriter.VectorTarget(
                            schema.id(),
                            VectorFileFormat.ofTableOptions(schema.options()),
                            unheld,
                            unheldPositions.stream().mapToInt(Integer::intValue).toArray()));
        }
        return targets;
    }

    /** A new file of bunch {@code key}: its columns, each from the written column of its id. */
    private DataFileWriter.VectorTarget target(
            VectorBunchKey key, VectorFileFormat format, FileGroup group) {
        TableSchema bunchSchema = schemas.apply(key.schemaId());
        List<DataField> stored = new ArrayList<>();
        int[] positions = new int[key.writeCols().size()];
        for (int i = 0; i < positions.length; i++) {
            DataField field = bunchSchema.field(key.writeCols().get(i)).orElseThrow();
            stored.add(field);
            positions[i] = writtenPosition(field, group);
        }
        return new DataFileWriter.VectorTarget(key.schemaId(), format, stored, positions);
    }

    private int writtenPosition(DataField field, FileGroup group) {
        for (int i = 0; i < written.size(); i++) {
            if (readFields.get(i).id() == field.id()) {
                return i;
            }
        }
        throw Errors.unsupported(
                "updating a VECTOR column of row range "
                        + group.range()
                        + ": its vector-store files also hold column '"
                        + field.name()
                        + "', which the table no longer has",
                "Write the range's rows anew (INSERT OVERWRITE of its partition) before updating"
                        + " its VECTOR columns");
    }

    private boolean isVectorStoreColumn(DataField field) {
        return field.type().root() == TypeRoot.VECTOR
                && DataEvolutionTableValidator.isDedicatedColumn(schema, field);
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
            int rowIdField = written.size();
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
