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

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.error.Errors;
import io.dovetail.table.stats.StatsCollector;

import org.apache.flink.table.types.logical.LogicalType;

import java.util.List;

/**
 * Accumulates the {@link ManifestFileMeta} of a manifest file from its entries: exact ADD and
 * DELETE counts, full-mode partition statistics over all entries, max schema id, bucket and level
 * bounds, and row-id bounds (null as soon as one entry has no first row id).
 */
final class ManifestFileMetaCollector {

    private final BinaryRowCodec partitionCodec;
    private final StatsCollector partitionStats;
    private long added;
    private long deleted;
    private long schemaId = Long.MIN_VALUE;
    private int minBucket = Integer.MAX_VALUE;
    private int maxBucket = Integer.MIN_VALUE;
    private int minLevel = Integer.MAX_VALUE;
    private int maxLevel = Integer.MIN_VALUE;
    private boolean rowIdsKnown = true;
    private long minRowId = Long.MAX_VALUE;
    private long maxRowId = Long.MIN_VALUE;

    ManifestFileMetaCollector(List<LogicalType> partitionTypes) {
        this.partitionCodec = BinaryRowCodec.of(partitionTypes);
        this.partitionStats = new StatsCollector(partitionTypes);
    }

    void add(ManifestEntry entry) {
        if (entry.kind() == FileKind.ADD) {
            added++;
        } else {
            deleted++;
        }
        DataFileMeta file = entry.file();
        try {
            partitionStats.add(partitionCodec.deserialize(entry.partition()));
        } catch (DovetailException e) {
            throw Errors.invalidArgument(
                    "The partition of data file "
                            + file.fileName()
                            + " does not match the partition types "
                            + partitionCodec.types()
                            + ": "
                            + e.getMessage());
        }
        schemaId = Math.max(schemaId, file.schemaId());
        minBucket = Math.min(minBucket, entry.bucket());
        maxBucket = Math.max(maxBucket, entry.bucket());
        minLevel = Math.min(minLevel, file.level());
        maxLevel = Math.max(maxLevel, file.level());
        Long firstRowId = file.firstRowId();
        if (firstRowId == null) {
            rowIdsKnown = false;
        } else {
            minRowId = Math.min(minRowId, firstRowId);
            maxRowId = Math.max(maxRowId, firstRowId + file.rowCount() - 1);
        }
    }

    boolean isEmpty() {
        return added + deleted == 0;
    }

    /** The meta of the finished file; at least one entry must have been added. */
    ManifestFileMeta finish(String fileName, long fileSize) {
        if (isEmpty()) {
            throw new IllegalStateException("A manifest file needs at least one entry");
        }
        return new ManifestFileMeta(
                fileName,
                fileSize,
                added,
                deleted,
                partitionStats.toSimpleStats(),
                schemaId,
                minBucket,
                maxBucket,
                minLevel,
                maxLevel,
                rowIdsKnown ? minRowId : null,
                rowIdsKnown ? maxRowId : null);
    }
}
