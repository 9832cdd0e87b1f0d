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
package io.dovetail.table.write;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.Errors;
import io.dovetail.table.format.vector.VectorFileFormat;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.FileNameFactory;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.DataEvolutionTableValidator;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.types.TypeRoot;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.LogicalType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes the rows of one partition of a table into new data files in the table's format ({@code
 * <partition>/bucket-0/data-<uuid>-<n>.parquet} or {@code .orc}) and describes them as ADD manifest
 * entries, ready for {@code TableCommit}.
 *
 * <p>A file holds either all columns of the schema (an append; {@code writeCols} null) or a subset
 * (a data-evolution partial-column file; {@code writeCols} = those columns in the order given). An
 * append to a table with BLOB columns writes the other columns to the normal file ({@code
 * writeCols} listing them) and each BLOB column to {@code .blob} files of its own ({@link
 * BlobFieldWriter}) and, with {@code vector.file.format} set, the VECTOR columns together to
 * vector-store files ({@link VectorStoreWriter}), all closed with the normal file and listed after
 * it (BLOB files first). A partial-column write of BLOB columns writes each to one {@code .blob}
 * file covering every row written (a new version of the column over the whole range, which Paimon
 * 1.4.2 reads), beside the partial file of the other columns, if any. Rows must have exactly the
 * written columns, in that order. Files roll at {@code target-file-size} or {@code
 * target-file-row-num}; {@link #forPartialColumns} never rolls, so its one file holds exactly the
 * rows written.
 *
 * <p>Each file's metadata is complete except what the commit assigns: exact size and row count,
 * value statistics taken from the file (Parquet footer, ORC column statistics, as Paimon does), the
 * schema id, {@code fileSource} APPEND, creation time, sequence numbers 0 and {@code firstRowId}
 * null (callers writing a partial-column file set it to the start of the row range they rewrite).
 *
 * <p>Use it with try-with-resources: {@link #finish} returns the entries; closing a writer that was
 * not finished, or any failure while writing, deletes every file it created. Not thread-safe.
 */
public final class DataFileWriter implements AutoCloseable {

    /** {@code _TOTAL_BUCKETS} of files of bucket-unaware (append and data-evolution) tables. */
    private static final int UNAWARE_TOTAL_BUCKETS = -1;

    /** Rows between two checks of the file size against {@code target-file-size}. */
    private static final int SIZE_CHECK_INTERVAL = 1000;

    private enum State {
        OPEN,
        FINISHED,
        ABORTED
    }

    private final TablePaths paths;
    private final TableSchema schema;
    private final List<DataField> columns;
    private final List<DataField> normalColumns; // those of the normal files
    @Nullable private final ProjectedRowData normalValues; // null: every column is normal
    private final List<BlobFieldWriter> blobs = new ArrayList<>();
    private final List<VectorStoreWriter> vectors = new ArrayList<>();
    @Nullable private final List<String> writeCols;
    private final String partitionPath;
    private final byte[] partitionBytes;
    private final DataFileWriterOptions options;
    private final List<StatsMode> statsModes;
    private final FileNameFactory names = new FileNameFactory();

    private final List<Path> created = new ArrayList<>();
    private final List<ManifestEntry> written = new ArrayList<>();
    @Nullable private OpenDataFile current;
    private State state = State.OPEN;

    private DataFileWriter(
            TablePaths paths,
            TableSchema schema,
            @Nullable List<String> writeCols,
            boolean withoutDedicated,
            RowData partition,
            DataFileWriterOptions options,
            @Nullable List<VectorTarget> vectorTargets) {
        this.paths = paths;
        this.schema = schema;
        this.columns =
                withoutDedicated
                        ? schema.fields().stream()
                                .filter(
                                        f ->
                                                !DataEvolutionTableValidator.isDedicatedColumn(
                                                        schema, f))
                                .toList()
                        : columns(schema, writeCols);
        List<String> normalNames = new ArrayList<>();
        List<Integer> normalPositions = new ArrayList<>();
        List<DataField> vectorColumns = new ArrayList<>();
        List<Integer> vectorPositions = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            DataField column = columns.get(i);
            if (DataEvolutionTableValidator.isDedicatedColumn(schema, column)
                    && column.type().root() == TypeRoot.VECTOR) {
                vectorColumns.add(column);
                vectorPositions.add(i);
            } else if (DataEvolutionTableValidator.isDedicatedColumn(schema, column)) {
                blobs.add(
                        new BlobFieldWriter(
                                column,
                                i,
                                this::newBlobPath,
                                options.blobTargetFileSize(),
                                schema.id()));
            } else {
                normalNames.add(column.name());
                normalPositions.add(i);
            }
        }
        if (normalNames.isEmpty() && writeCols == null) {
            throw Errors.invalidArgument("A data file must hold at least one normal column.");
        }
        List<VectorTarget> targets =
                vectorTargets != null || vectorColumns.isEmpty()
                        ? vectorTargets
                        : List.of(
                                new VectorTarget(
                                        schema.id(),
                                        options.vectorFormat(),
                                        vectorColumns,
                                        vectorPositions.stream()
                                                .mapToInt(Integer::intValue)
                                                .toArray()));
        if (targets != null) {
            for (VectorTarget target : targets) {
                vectors.add(
                        new VectorStoreWriter(
                                target.columns(),
                                target.positions(),
                                this::newDedicatedPath,
                                target.format(),
                                options,
                                target.schemaId()));
            }
        }
        boolean allNormal = blobs.isEmpty() && vectorColumns.isEmpty();
        this.normalColumns = allNormal ? columns : normalColumns(normalNames);
        this.normalValues =
                allNormal
                        ? null
                        : ProjectedRowData.from(
                                normalPositions.stream().mapToInt(Integer::intValue).toArray());
        // a table with dedicated columns never writes null writeCols (Paimon reads null as all)
        boolean dedicatedColumns =
                schema.fields().stream()
                        .anyMatch(f -> DataEvolutionTableValidator.isDedicatedColumn(schema, f));
        this.writeCols =
                !dedicatedColumns && (writeCols == null || writeCols.equals(schema.fieldNames()))
                        ? null
                        : List.copyOf(normalNames);
        if (writeCols != null && this.writeCols != null) {
            checkNoPartitionColumn(schema, this.writeCols);
        }
        List<LogicalType> partitionTypes =
                schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList();
        this.partitionPath =
                PartitionPaths.fromOptions(schema.partitionKeys(), partitionTypes, schema.options())
                        .path(partition);
        this.partitionBytes = BinaryRowCodec.of(partitionTypes).serialize(partition);
        this.options = options;
        this.statsModes = options.statsModes(normalColumns.stream().map(DataField::name).toList());
        OpenDataFile.checkColumns(options.format(), normalColumns);
    }

    /**
     * A writer of files with the given columns ({@code null} = all columns of the schema) and
     * explicit options.
     */
    public static DataFileWriter open(
            TablePaths paths,
            TableSchema schema,
            @Nullable List<String> writeCols,
            RowData partition,
            DataFileWriterOptions options) {
        return new DataFileWriter(paths, schema, writeCols, false, partition, options, null);
    }

    /**
     * A writer of the normal files of full rows: rows hold every column of the schema but the
     * dedicated (BLOB and vector-store) ones, in schema order, whose files a caller keeps
     * (compaction).
     */
    public static DataFileWriter forNormalColumns(
            TablePaths paths,
            TableSchema schema,
            RowData partition,
            DataFileWriterOptions options) {
        return new DataFileWriter(paths, schema, null, true, partition, options, null);
    }

    /** A rolling writer of full rows, with the table's options. */
    public static DataFileWriter forAppend(
            TablePaths paths, TableSchema schema, RowData partition) {
        return open(
                paths,
                schema,
                null,
                partition,
                DataFileWriterOptions.fromTableOptions(schema.options()));
    }

    /**
     * A non-rolling writer of one partial-column file holding {@code writeCols} (in that order) of
     * every row written; partition columns cannot be rewritten.
     */
    public static DataFileWriter forPartialColumns(
            TablePaths paths, TableSchema schema, List<String> writeCols, RowData partition) {
        return forPartialColumns(paths, schema, writeCols, partition, null);
    }

    /**
     * A non-rolling writer as {@link #forPartialColumns(TablePaths, TableSchema, List, RowData)}
     * whose VECTOR columns go to the vector-store files {@code vectorTargets} describe (each its
     * schema id, format and columns, taken from the rows written at its positions) instead of one
     * file of them all; null: that one file.
     */
    public static DataFileWriter forPartialColumns(
            TablePaths paths,
            TableSchema schema,
            List<String> writeCols,
            RowData partition,
            @Nullable List<VectorTarget> vectorTargets) {
        return new DataFileWriter(
                paths,
                schema,
                writeCols,
                false,
                partition,
                DataFileWriterOptions.fromTableOptions(schema.options()).withoutRolling(),
                vectorTargets);
    }

    /**
     * One vector-store file of a partial-column write: written with schema {@code schemaId} in
     * {@code format}, holding {@code columns} (as that schema declares them), taken from the
     * written rows' fields at {@code positions}.
     */
    public record VectorTarget(
            long schemaId, VectorFileFormat format, List<DataField> columns, int[] positions) {}

    /** The columns each row must have, in order. */
    public List<DataField> columns() {
        return columns;
    }

    /** Writes one row (its fields are the written columns, in order). */
    public void write(RowData row) {
        checkOpen();
        try {
            for (BlobFieldWriter blob : blobs) {
                blob.write(row);
            }
            for (VectorStoreWriter vector : vectors) {
                vector.write(row);
            }
            if (normalColumns.isEmpty()) { // a partial-column write of dedicated columns only
                return;
            }
            if (current == null) {
                current = newFile();
            }
            current.write(normalValues == null ? row : normalValues.replaceRow(row));
            long rows = current.rowCount();
            if (rows >= options.targetRowCount()
                    || (rows % SIZE_CHECK_INTERVAL == 0
                            && current.estimatedSize() >= options.targetFileSize())) {
                closeCurrent();
            }
        } catch (RuntimeException e) {
            abort();
            throw e;
        }
    }

    /**
     * Closes the last file and returns one ADD entry per file written, in writing order (none if no
     * row was written).
     */
    public List<ManifestEntry> finish() {
        checkOpen();
        try {
            if (current != null) {
                closeCurrent();
            } else if (normalColumns.isEmpty()) {
                finishDedicatedFiles();
            }
        } catch (RuntimeException e) {
            abort();
            throw e;
        }
        state = State.FINISHED;
        return List.copyOf(written);
    }

    /** Deletes every file this writer created; the writer cannot be used afterwards. */
    public void abort() {
        if (state == State.ABORTED) {
            return;
        }
        state = State.ABORTED;
        if (current != null) {
            current.closeQuietly();
            current = null;
        }
        blobs.forEach(BlobFieldWriter::closeQuietly);
        vectors.forEach(VectorStoreWriter::closeQuietly);
        created.forEach(FileIO::deleteQuietly);
        written.clear();
    }

    /** Aborts unless {@link #finish} returned; finished files are left for the commit. */
    @Override
    public void close() {
        if (state == State.OPEN) {
            abort();
        }
    }

    private OpenDataFile newFile() {
        Path path =
                paths.dataFile(
                        partitionPath,
                        TablePaths.UNAWARE_BUCKET,
                        names.newDataFileName(options.format().extension()));
        created.add(path);
        return OpenDataFile.create(path, normalColumns, options);
    }

    private Path newBlobPath() {
        return newDedicatedPath("blob");
    }

    private Path newDedicatedPath(String suffix) {
        Path path =
                paths.dataFile(
                        partitionPath, TablePaths.UNAWARE_BUCKET, names.newDataFileName(suffix));
        created.add(path);
        return path;
    }

    private void closeCurrent() {
        OpenDataFile file = current;
        current = null;
        OpenDataFile.Closed closed = file.close();
        ValueStats valueStats =
                ValueStats.of(normalColumns, closed.stats(), statsModes, options.statsDenseStore());
        DataFileMeta meta =
                DataFileMeta.builder(file.path().getName())
                        .fileSize(closed.size())
                        .rowCount(file.rowCount())
                        .valueStats(valueStats.stats())
                        .valueStatsCols(valueStats.columns())
                        .schemaId(schema.id())
                        .creationTime(DataFileMeta.localNowAsUtcMillis())
                        .writeCols(writeCols)
                        .build();
        written.add(entry(meta));
        finishDedicatedFiles(); // after their normal file: the commit's row-id order
    }

    /** Lists the BLOB files, then the vector-store files, of the rows written since the last. */
    private void finishDedicatedFiles() {
        for (BlobFieldWriter blob : blobs) {
            blob.finish().forEach(m -> written.add(entry(m)));
        }
        for (VectorStoreWriter vector : vectors) {
            vector.finish().forEach(m -> written.add(entry(m)));
        }
    }

    private ManifestEntry entry(DataFileMeta meta) {
        return new ManifestEntry(
                FileKind.ADD,
                partitionBytes,
                TablePaths.UNAWARE_BUCKET,
                UNAWARE_TOTAL_BUCKETS,
                meta);
    }

    private List<DataField> normalColumns(List<String> names) {
        return columns.stream().filter(c -> names.contains(c.name())).toList();
    }

    private void checkOpen() {
        if (state != State.OPEN) {
            throw Errors.invalidArgument(
                    "This data file writer was already "
                            + state.name().toLowerCase(Locale.ROOT)
                            + "; open a new writer.");
        }
    }

    private static List<DataField> columns(TableSchema schema, @Nullable List<String> writeCols) {
        if (writeCols == null) {
            return schema.fields();
        }
        if (writeCols.isEmpty()) {
            throw Errors.invalidArgument("A data file must hold at least one column.");
        }
        Set<String> seen = new HashSet<>();
        List<DataField> fields = new ArrayList<>(writeCols.size());
        for (String name : writeCols) {
            if (!seen.add(name)) {
                throw Errors.invalidArgument(
                        "Column '"
                                + name
                                + "' is listed twice in the columns to write "
                                + writeCols);
            }
            fields.add(
                    schema.field(name)
                            .orElseThrow(
                                    () ->
                                            Errors.invalidArgument(
                                                    "Cannot write column '"
                                                            + name
                                                            + "': schema "
                                                            + schema.id()
                                                            + " has only the columns "
                                                            + schema.fieldNames()
                                                            + ".")));
        }
        return List.copyOf(fields);
    }

    private static void checkNoPartitionColumn(TableSchema schema, List<String> writeCols) {
        for (String name : writeCols) {
            if (schema.partitionKeys().contains(name)) {
                throw Errors.invalidArgument(
                        "Partition column '"
                                + name
                                + "' cannot be written in a partial-column file: rows cannot"
                                + " move between partitions. Leave it out of the columns to"
                                + " write.");
            }
        }
    }
}
