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
package io.dovetail.table.manifest;

import io.dovetail.table.error.Errors;
import io.dovetail.table.stats.SimpleStats;

import javax.annotation.Nullable;

/**
 * One record of a manifest list: a manifest file with the counts and bounds Paimon uses to skip it.
 * Bounds are true for every entry of the file or null (never optimistic).
 *
 * @param fileSize exact byte size of the manifest file, used as its read length
 * @param partitionStats full-mode statistics of the partition columns over all entries
 * @param minRowId minimum first row id; null if any entry has none
 * @param maxRowId maximum of first row id + row count - 1; null if any entry has no first row id
 */
public record ManifestFileMeta(
        String fileName,
        long fileSize,
        long numAddedFiles,
        long numDeletedFiles,
        SimpleStats partitionStats,
        long schemaId,
        @Nullable Integer minBucket,
        @Nullable Integer maxBucket,
        @Nullable Integer minLevel,
        @Nullable Integer maxLevel,
        @Nullable Long minRowId,
        @Nullable Long maxRowId) {

    public ManifestFileMeta {
        if (fileName == null || fileName.isEmpty() || partitionStats == null) {
            throw Errors.invalidArgument("A manifest file meta needs a file name and stats");
        }
        if (fileSize < 0 || numAddedFiles < 0 || numDeletedFiles < 0) {
            throw Errors.invalidArgument(
                    "Invalid metadata for manifest "
                            + fileName
                            + ": negative size or count (size "
                            + fileSize
                            + ", added "
                            + numAddedFiles
                            + ", deleted "
                            + numDeletedFiles
                            + ")");
        }
    }
}
