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
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.stats.SimpleStatsConverter;

import org.apache.flink.core.fs.Path;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The bookkeeping of the dedicated files ({@code .blob} or vector-store) a {@link DataFileWriter}
 * rolls beside its normal files: the open file's path, the files closed since the last {@link
 * #finish}, and their metadata: the columns in {@code writeCols} and no value statistics (readers
 * take none from dedicated files, and Paimon writes them so).
 */
abstract class DedicatedFilesWriter {

    /** What closing a file gives: its rows and bytes. */
    record Closed(long rows, long size) {}

    private final Supplier<Path> newPath;
    private final long schemaId;
    private final List<String> writeCols;
    private final List<DataFileMeta> finished = new ArrayList<>();
    @Nullable private Path path;

    /**
     * @param newPath the path of the next file (the caller deletes created files on abort)
     * @param schemaId the schema the files are written with (which declares {@code writeCols})
     */
    DedicatedFilesWriter(Supplier<Path> newPath, long schemaId, List<String> writeCols) {
        this.newPath = newPath;
        this.schemaId = schemaId;
        this.writeCols = List.copyOf(writeCols);
    }

    /** Whether a file is open. */
    abstract boolean isOpen();

    /** Finishes and closes the open file. */
    abstract Closed closeOpenFile() throws IOException;

    /** Closes the open file, if any, without finishing it (the caller deletes it). */
    abstract void closeQuietly();

    /** The path of a new file, which becomes the open one. */
    final Path newFile() {
        path = newPath.get();
        return path;
    }

    /** The open (or last opened) file, for errors. */
    @Nullable
    final Path path() {
        return path;
    }

    /** Closes the open file and lists it among the finished ones. */
    final void roll() throws IOException {
        Closed closed = closeOpenFile();
        finished.add(
                DataFileMeta.builder(path.getName())
                        .fileSize(closed.size())
                        .rowCount(closed.rows())
                        .valueStats(new SimpleStatsConverter(List.of()).toStats(List.of()))
                        .valueStatsCols(List.of())
                        .schemaId(schemaId)
                        .creationTime(DataFileMeta.localNowAsUtcMillis())
                        .writeCols(writeCols)
                        .build());
    }

    /** Closes the open file; returns the metadata of the files written since the last call. */
    final List<DataFileMeta> finish() {
        try {
            if (isOpen()) {
                roll();
            }
        } catch (IOException e) {
            throw Errors.io("close", path, e);
        }
        List<DataFileMeta> out = List.copyOf(finished);
        finished.clear();
        return out;
    }
}
