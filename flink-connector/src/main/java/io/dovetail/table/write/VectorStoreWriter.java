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

import io.dovetail.table.error.Errors;
import io.dovetail.table.format.vector.VectorFileFormat;
import io.dovetail.table.format.vector.VectorFileWriter;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.List;
import java.util.function.Function;

/**
 * Writes the VECTOR columns of the rows of a {@link DataFileWriter} together into vector-store
 * files ({@code vector.file.format}), rolling at {@code vector.target-file-size} and always when
 * the normal file closes ({@link #finish}), so the files cover exactly the normal file's rows. Each
 * file names the columns in its {@code writeCols} and carries no value statistics (readers take
 * none from vector-store files).
 */
final class VectorStoreWriter extends DedicatedFilesWriter {

    private final List<DataField> columns;
    private final ProjectedRowData values;
    private final VectorFileFormat format;
    private final DataFileWriterOptions options;
    @Nullable private VectorFileWriter file;

    /**
     * @param positions each column's index in the rows written
     * @param newPath the path of the next file, given its name suffix (the caller deletes created
     *     files on abort)
     * @param schemaId the schema the files are written with (which declares {@code columns})
     */
    VectorStoreWriter(
            List<DataField> columns,
            int[] positions,
            Function<String, Path> newPath,
            VectorFileFormat format,
            DataFileWriterOptions options,
            long schemaId) {
        super(
                () -> newPath.apply(format.fileNameSuffix()),
                schemaId,
                columns.stream().map(DataField::name).toList());
        this.columns = List.copyOf(columns);
        this.values = ProjectedRowData.from(positions);
        this.format = format;
        this.options = options;
    }

    void write(RowData row) {
        try {
            if (file == null) {
                file =
                        format.create(
                                newFile(),
                                columns,
                                options.compression(),
                                options.zstdLevel(),
                                options.vectorTargetFileSize());
            }
            file.write(values.replaceRow(row));
            if (file.length() >= options.vectorTargetFileSize()) {
                roll();
            }
        } catch (IOException e) {
            throw Errors.io("write VECTOR columns to", path(), e);
        }
    }

    @Override
    boolean isOpen() {
        return file != null;
    }

    @Override
    Closed closeOpenFile() throws IOException {
        long rows = file.count();
        long size = file.finish();
        file = null;
        return new Closed(rows, size);
    }

    @Override
    void closeQuietly() {
        if (file != null) {
            file.close();
            file = null;
        }
    }
}
