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
package io.dovetail.table.snapshot;

import io.dovetail.table.error.Errors;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One snapshot of a table: the content of {@code snapshot/snapshot-<id>} (format version 3, see
 * {@link SnapshotJson}). Boxed fields are optional and absent from the JSON when null; {@code
 * properties} is never null (empty = absent). The table state is the base manifest list followed by
 * the delta manifest list; {@code nextRowId} is the first row id not yet assigned.
 */
public record Snapshot(
        long id,
        long schemaId,
        String baseManifestList,
        Long baseManifestListSize,
        String deltaManifestList,
        Long deltaManifestListSize,
        String changelogManifestList,
        Long changelogManifestListSize,
        String indexManifest,
        String commitUser,
        long commitIdentifier,
        CommitKind commitKind,
        long timeMillis,
        long totalRecordCount,
        long deltaRecordCount,
        Long changelogRecordCount,
        Long watermark,
        String statistics,
        Map<String, String> properties,
        Long nextRowId) {

    public Snapshot {
        require(id >= 1, "id", "snapshot ids start at 1, got " + id);
        require(schemaId >= 0, "schemaId", "schema ids start at 0, got " + schemaId);
        requireName(baseManifestList, "baseManifestList");
        requireName(deltaManifestList, "deltaManifestList");
        require(commitUser != null && !commitUser.isEmpty(), "commitUser", "it is missing");
        require(commitKind != null, "commitKind", "it is missing");
        requireSize(baseManifestListSize, "baseManifestListSize");
        requireSize(deltaManifestListSize, "deltaManifestListSize");
        requireSize(changelogManifestListSize, "changelogManifestListSize");
        require(
                nextRowId == null || nextRowId >= 0,
                "nextRowId",
                "row ids are not negative, got " + nextRowId);
        properties =
                properties == null || properties.isEmpty()
                        ? Map.of()
                        : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder preset with every field of this snapshot, e.g. to derive the next one. */
    public Builder toBuilder() {
        return new Builder()
                .id(id)
                .schemaId(schemaId)
                .baseManifestList(baseManifestList)
                .baseManifestListSize(baseManifestListSize)
                .deltaManifestList(deltaManifestList)
                .deltaManifestListSize(deltaManifestListSize)
                .changelogManifestList(changelogManifestList)
                .changelogManifestListSize(changelogManifestListSize)
                .indexManifest(indexManifest)
                .commitUser(commitUser)
                .commitIdentifier(commitIdentifier)
                .commitKind(commitKind)
                .timeMillis(timeMillis)
                .totalRecordCount(totalRecordCount)
                .deltaRecordCount(deltaRecordCount)
                .changelogRecordCount(changelogRecordCount)
                .watermark(watermark)
                .statistics(statistics)
                .properties(properties)
                .nextRowId(nextRowId);
    }

    private static void require(boolean condition, String field, String problem) {
        if (!condition) {
            throw Errors.invalidArgument(
                    "Invalid snapshot field '" + field + "': " + problem + ".");
        }
    }

    private static void requireName(String name, String field) {
        require(name != null && !name.isEmpty(), field, "it is missing");
    }

    private static void requireSize(Long size, String field) {
        require(size == null || size >= 0, field, "sizes are not negative, got " + size);
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private long id;
        private long schemaId;
        private String baseManifestList;
        private Long baseManifestListSize;
        private String deltaManifestList;
        private Long deltaManifestListSize;
        private String changelogManifestList;
        private Long changelogManifestListSize;
        private String indexManifest;
        private String commitUser;
        private long commitIdentifier;
        private CommitKind commitKind;
        private long timeMillis;
        private long totalRecordCount;
        private long deltaRecordCount;
        private Long changelogRecordCount;
        private Long watermark;
        private String statistics;
        private Map<String, String> properties;
        private Long nextRowId;

        private Builder() {}

        public Builder id(long value) {
            id = value;
            return this;
        }

        public Builder schemaId(long value) {
            schemaId = value;
            return this;
        }

        public Builder baseManifestList(String value) {
            baseManifestList = value;
            return this;
        }

        public Builder baseManifestListSize(Long value) {
            baseManifestListSize = value;
            return this;
        }

        public Builder deltaManifestList(String value) {
            deltaManifestList = value;
            return this;
        }

        public Builder deltaManifestListSize(Long value) {
            deltaManifestListSize = value;
            return this;
        }

        public Builder changelogManifestList(String value) {
            changelogManifestList = value;
            return this;
        }

        public Builder changelogManifestListSize(Long value) {
            changelogManifestListSize = value;
            return this;
        }

        public Builder indexManifest(String value) {
            indexManifest = value;
            return this;
        }

        public Builder commitUser(String value) {
            commitUser = value;
            return this;
        }

        public Builder commitIdentifier(long value) {
            commitIdentifier = value;
            return this;
        }

        public Builder commitKind(CommitKind value) {
            commitKind = value;
            return this;
        }

        public Builder timeMillis(long value) {
            timeMillis = value;
            return this;
        }

        public Builder totalRecordCount(long value) {
            totalRecordCount = value;
            return this;
        }

        public Builder deltaRecordCount(long value) {
            deltaRecordCount = value;
            return this;
        }

        public Builder changelogRecordCount(Long value) {
            changelogRecordCount = value;
            return this;
        }

        public Builder watermark(Long value) {
            watermark = value;
            return this;
        }

        public Builder statistics(String value) {
            statistics = value;
            return this;
        }

        public Builder properties(Map<String, String> value) {
            properties = value;
            return this;
        }

        public Builder nextRowId(Long value) {
            nextRowId = value;
            return this;
        }

        public Snapshot build() {
            return new Snapshot(
                    id,
                    schemaId,
                    baseManifestList,
                    baseManifestListSize,
                    deltaManifestList,
                    deltaManifestListSize,
                    changelogManifestList,
                    changelogManifestListSize,
                    indexManifest,
                    commitUser,
                    commitIdentifier,
                    commitKind,
                    timeMillis,
                    totalRecordCount,
                    deltaRecordCount,
                    changelogRecordCount,
                    watermark,
                    statistics,
                    properties,
                    nextRowId);
        }
    }
}
