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
package io.dovetail.e2e.interop;

import java.util.HexFormat;
import java.util.List;

/**
 * One text form for metadata values seen by Paimon and by Dovetail, so that interop tests compare
 * every field of both sides with one assertion and print a readable difference.
 */
final class Rendered {

    private Rendered() {}

    static String hex(byte[] bytes) {
        return bytes == null ? "null" : HexFormat.of().formatHex(bytes);
    }

    /** Every snapshot field in Paimon's JSON order. */
    static String snapshot(
            int version,
            long id,
            long schemaId,
            String baseManifestList,
            String deltaManifestList,
            String changelogManifestList,
            String indexManifest,
            String commitUser,
            long commitIdentifier,
            String commitKind,
            long timeMillis,
            long totalRecordCount,
            long deltaRecordCount,
            Long changelogRecordCount,
            Long watermark,
            String statistics,
            java.util.Map<String, String> properties,
            Long nextRowId) {
        return String.join(
                "\n",
                "version=" + version,
                "id=" + id,
                "schemaId=" + schemaId,
                "baseManifestList=" + baseManifestList,
                "deltaManifestList=" + deltaManifestList,
                "changelogManifestList=" + changelogManifestList,
                "indexManifest=" + indexManifest,
                "commitUser=" + commitUser,
                "commitIdentifier=" + commitIdentifier,
                "commitKind=" + commitKind,
                "timeMillis=" + timeMillis,
                "totalRecordCount=" + totalRecordCount,
                "deltaRecordCount=" + deltaRecordCount,
                "changelogRecordCount=" + changelogRecordCount,
                "watermark=" + watermark,
                "statistics=" + statistics,
                "properties=" + properties(properties),
                "nextRowId=" + nextRowId);
    }

    /** Absent and empty commit properties mean the same (both are omitted from the JSON). */
    private static String properties(java.util.Map<String, String> properties) {
        return properties == null || properties.isEmpty() ? "none" : properties.toString();
    }

    static String stats(byte[] min, byte[] max, List<Long> nullCounts) {
        return "{min=" + hex(min) + ", max=" + hex(max) + ", nulls=" + nullCounts + "}";
    }

    /** The 20 data-file fields in manifest order. */
    static String dataFile(
            String fileName,
            long fileSize,
            long rowCount,
            byte[] minKey,
            byte[] maxKey,
            String keyStats,
            String valueStats,
            long minSeq,
            long maxSeq,
            long schemaId,
            int level,
            List<String> extraFiles,
            Long creationTime,
            Long deleteRowCount,
            byte[] embeddedIndex,
            Integer fileSource,
            List<String> valueStatsCols,
            String externalPath,
            Long firstRowId,
            List<String> writeCols) {
        return String.join(
                "\n  ",
                "file=" + fileName,
                "size=" + fileSize,
                "rows=" + rowCount,
                "minKey=" + hex(minKey),
                "maxKey=" + hex(maxKey),
                "keyStats=" + keyStats,
                "valueStats=" + valueStats,
                "seq=" + minSeq + ".." + maxSeq,
                "schemaId=" + schemaId,
                "level=" + level,
                "extraFiles=" + extraFiles,
                "creationTime=" + creationTime,
                "deleteRowCount=" + deleteRowCount,
                "embeddedIndex=" + hex(embeddedIndex),
                "fileSource=" + fileSource,
                "valueStatsCols=" + valueStatsCols,
                "externalPath=" + externalPath,
                "firstRowId=" + firstRowId,
                "writeCols=" + writeCols);
    }

    static String entry(int kind, byte[] partition, int bucket, int totalBuckets, String file) {
        return "kind="
                + kind
                + " partition="
                + hex(partition)
                + " bucket="
                + bucket
                + " totalBuckets="
                + totalBuckets
                + "\n  "
                + file;
    }

    static String manifestMeta(
            String fileName,
            long fileSize,
            long added,
            long deleted,
            String partitionStats,
            long schemaId,
            Integer minBucket,
            Integer maxBucket,
            Integer minLevel,
            Integer maxLevel,
            Long minRowId,
            Long maxRowId) {
        return String.join(
                " ",
                fileName,
                "size=" + fileSize,
                "added=" + added,
                "deleted=" + deleted,
                "partitionStats=" + partitionStats,
                "schemaId=" + schemaId,
                "bucket=" + minBucket + ".." + maxBucket,
                "level=" + minLevel + ".." + maxLevel,
                "rowId=" + minRowId + ".." + maxRowId);
    }
}
