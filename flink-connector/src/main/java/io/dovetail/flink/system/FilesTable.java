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
package io.dovetail.flink.system;

import io.dovetail.table.TableStore;
import io.dovetail.table.format.DataFileFormat;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

import static io.dovetail.flink.system.Values.string;
import static io.dovetail.flink.system.Values.strings;

/**
 * {@code t$files}: one row per live data file of the snapshot, with Paimon's columns for
 * data-evolution tables. {@code record_count} counts every physical position, those hidden by
 * deletion vectors included; {@code last_row_id} is {@code first_row_id + record_count - 1}; {@code
 * write_cols} null means all columns of {@code schema_id}. {@code deletion_vector_cardinality} is
 * reported for the file the deletion vector is stored against (under the anchor rule, the group's
 * anchor: its oldest normal file) and counts the rows hidden in the whole group; it is null for
 * every other file. {@code partition} is rendered as {@link LiveFiles} describes.
 */
final class FilesTable implements SystemTable {

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("partition", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("bucket", DataTypes.INT().notNull()),
                                    DataTypes.FIELD("file_path", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("file_format", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("schema_id", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("level", DataTypes.INT().notNull()),
                                    DataTypes.FIELD("record_count", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD(
                                            "file_size_in_bytes", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD(
                                            "min_sequence_number", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD(
                                            "max_sequence_number", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("creation_time", DataTypes.TIMESTAMP(3)),
                                    DataTypes.FIELD("file_source", DataTypes.STRING()),
                                    DataTypes.FIELD("first_row_id", DataTypes.BIGINT()),
                                    DataTypes.FIELD("last_row_id", DataTypes.BIGINT()),
                                    DataTypes.FIELD(
                                            "write_cols", DataTypes.ARRAY(DataTypes.STRING())),
                                    DataTypes.FIELD(
                                            "deletion_vector_cardinality", DataTypes.BIGINT()))
                            .notNull()
                            .getLogicalType();

    @Override
    public String name() {
        return "files";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }

    @Override
    public List<RowData> rows(TableStore store, @Nullable Snapshot snapshot) {
        if (snapshot == null) {
            return List.of();
        }
        LiveFiles files = LiveFiles.of(store, snapshot);
        List<RowData> rows = new ArrayList<>();
        for (ManifestEntry entry : files.entries()) {
            DataFileMeta file = entry.file();
            Long first = file.firstRowId();
            rows.add(
                    GenericRowData.of(
                            string(files.partition(entry)),
                            entry.bucket(),
                            string(files.path(entry)),
                            string(format(file.fileName())),
                            file.schemaId(),
                            file.level(),
                            file.rowCount(),
                            file.fileSize(),
                            file.minSequenceNumber(),
                            file.maxSequenceNumber(),
                            file.creationTime() == null
                                    ? null
                                    : TimestampData.fromEpochMillis(file.creationTime()),
                            string(file.fileSource()),
                            first,
                            first == null ? null : first + file.rowCount() - 1,
                            strings(file.writeCols()),
                            files.deletedRows(file)));
        }
        return rows;
    }

    /**
     * The file format column: {@code blob} for a .blob file, the format after {@code .vector.} for
     * a vector-store file, else the name's format extension.
     */
    private static String format(String fileName) {
        if (DataFileKinds.isBlob(fileName)) {
            return "blob";
        }
        if (DataFileKinds.isVectorStore(fileName)) {
            return DataFileKinds.vectorStoreFormat(fileName);
        }
        return DataFileFormat.ofFileName(fileName).extension();
    }
}
