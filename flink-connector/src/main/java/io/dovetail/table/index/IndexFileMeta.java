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
package io.dovetail.table.index;

import io.dovetail.table.error.Errors;

import org.apache.flink.core.fs.Path;

import javax.annotation.Nullable;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Metadata of one index file as listed in an index manifest.
 *
 * @param indexType {@code DELETION_VECTORS}, {@code HASH} or a global index type
 * @param rowCount for DV files the number of deletion vectors in the file
 * @param deletionVectors for DV files one range per data file (unique names), else null
 * @param externalPath full path when the file is stored outside the index directory
 */
public record IndexFileMeta(
        String indexType,
        String fileName,
        long fileSize,
        long rowCount,
        @Nullable List<DeletionVectorMeta> deletionVectors,
        @Nullable String externalPath,
        @Nullable GlobalIndexMeta globalIndex) {

    public IndexFileMeta {
        if (indexType == null || fileName == null || fileName.isEmpty()) {
            throw Errors.invalidArgument("An index file meta needs a type and a file name");
        }
        if (fileSize < 0 || rowCount < 0) {
            throw Errors.invalidArgument(
                    "Invalid metadata for index file "
                            + fileName
                            + ": size "
                            + fileSize
                            + ", row count "
                            + rowCount);
        }
        if (deletionVectors != null) {
            deletionVectors = List.copyOf(deletionVectors);
            Set<String> dataFiles = new HashSet<>();
            for (DeletionVectorMeta vector : deletionVectors) {
                if (!dataFiles.add(vector.dataFileName())) {
                    throw Errors.invalidArgument(
                            "Index file "
                                    + fileName
                                    + " lists two deletion vectors for data file "
                                    + vector.dataFileName());
                }
            }
        }
    }

    /** Where the file is: its external path, or {@code indexDir/fileName}. */
    public Path path(Path indexDir) {
        return externalPath == null ? new Path(indexDir, fileName) : new Path(externalPath);
    }
}
