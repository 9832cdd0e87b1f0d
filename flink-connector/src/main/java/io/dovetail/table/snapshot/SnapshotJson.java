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

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.error.Errors;
import io.dovetail.table.json.Json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON encoding of {@link Snapshot}: keys in the order Paimon 1.4.2 writes them, optional keys
 * omitted when null ({@code properties} when empty). Reading ignores unknown keys (newer Paimon
 * writes {@code uuid}, {@code writerVersion}, {@code operation}) but rejects any other version than
 * 3, a missing always-present key, a wrongly typed value, and unparsable (e.g. truncated) content,
 * naming the file.
 */
public final class SnapshotJson {

    /** The snapshot format version written and understood. */
    public static final int VERSION = 3;

    private static final String K_VERSION = "version";
    private static final String K_ID = "id";
    private static final String K_SCHEMA_ID = "schemaId";
    private static final String K_BASE_LIST = "baseManifestList";
    private static final String K_BASE_LIST_SIZE = "baseManifestListSize";
    private static final String K_DELTA_LIST = "deltaManifestList";
    private static final String K_DELTA_LIST_SIZE = "deltaManifestListSize";
    private static final String K_CHANGELOG_LIST = "changelogManifestList";
    private static final String K_CHANGELOG_LIST_SIZE = "changelogManifestListSize";
    private static final String K_INDEX_MANIFEST = "indexManifest";
    private static final String K_COMMIT_USER = "commitUser";
    private static final String K_COMMIT_IDENTIFIER = "commitIdentifier";
    private static final String K_COMMIT_KIND = "commitKind";
    private static final String K_TIME_MILLIS = "timeMillis";
    private static final String K_TOTAL_RECORDS = "totalRecordCount";
    private static final String K_DELTA_RECORDS = "deltaRecordCount";
    private static final String K_CHANGELOG_RECORDS = "changelogRecordCount";
    private static final String K_WATERMARK = "watermark";
    private static final String K_STATISTICS = "statistics";
    private static final String K_PROPERTIES = "properties";
    private static final String K_NEXT_ROW_ID = "nextRowId";

    private SnapshotJson() {}

    public static byte[] toBytes(Snapshot s) {
        ObjectNode o = Json.newObject();
        o.put(K_VERSION, VERSION);
        o.put(K_ID, s.id());
        o.put(K_SCHEMA_ID, s.schemaId());
        o.put(K_BASE_LIST, s.baseManifestList());
        putOptional(o, K_BASE_LIST_SIZE, s.baseManifestListSize());
        o.put(K_DELTA_LIST, s.deltaManifestList());
        putOptional(o, K_DELTA_LIST_SIZE, s.deltaManifestListSize());
        putOptional(o, K_CHANGELOG_LIST, s.changelogManifestList());
        putOptional(o, K_CHANGELOG_LIST_SIZE, s.changelogManifestListSize());
        putOptional(o, K_INDEX_MANIFEST, s.indexManifest());
        o.put(K_COMMIT_USER, s.commitUser());
        o.put(K_COMMIT_IDENTIFIER, s.commitIdentifier());
        o.put(K_COMMIT_KIND, s.commitKind().name());
        o.put(K_TIME_MILLIS, s.timeMillis());
        o.put(K_TOTAL_RECORDS, s.totalRecordCount());
        o.put(K_DELTA_RECORDS, s.deltaRecordCount());
        putOptional(o, K_CHANGELOG_RECORDS, s.changelogRecordCount());
        putOptional(o, K_WATERMARK, s.watermark());
        putOptional(o, K_STATISTICS, s.statistics());
        if (!s.properties().isEmpty()) {
            ObjectNode properties = o.putObject(K_PROPERTIES);
            s.properties().forEach(properties::put);
        }
        putOptional(o, K_NEXT_ROW_ID, s.nextRowId());
        return Json.toBytes(o);
    }

    /** Decodes a snapshot file; {@code file} names it in errors. */
    public static Snapshot fromBytes(byte[] bytes, Object file) {
        JsonNode root;
        try {
            root = Json.parse(bytes);
        } catch (JsonProcessingException e) {
            throw Errors.corruptFile(
                    file, "not valid JSON (truncated or damaged): " + e.getOriginalMessage(), e);
        }
        if (root == null || root.isMissingNode()) {
            throw Errors.corruptFile(file, "the snapshot file is empty");
        }
        if (!root.isObject()) {
            throw Errors.corruptFile(file, "expected a JSON object, found " + root.getNodeType());
        }
        Fields f = new Fields(root, file);
        long version = f.requiredLong(K_VERSION);
        if (version != VERSION) {
            throw Errors.corruptFile(
                    file,
                    "unsupported snapshot version "
                            + version
                            + "; only version "
                            + VERSION
                            + " is understood");
        }
        try {
            return Snapshot.builder()
                    .id(f.requiredLong(K_ID))
                    .schemaId(f.requiredLong(K_SCHEMA_ID))
                    .baseManifestList(f.requiredString(K_BASE_LIST))
                    .baseManifestListSize(f.optionalLong(K_BASE_LIST_SIZE))
                    .deltaManifestList(f.requiredString(K_DELTA_LIST))
                    .deltaManifestListSize(f.optionalLong(K_DELTA_LIST_SIZE))
                    .changelogManifestList(f.optionalString(K_CHANGELOG_LIST))
                    .changelogManifestListSize(f.optionalLong(K_CHANGELOG_LIST_SIZE))
                    .indexManifest(f.optionalString(K_INDEX_MANIFEST))
                    .commitUser(f.requiredString(K_COMMIT_USER))
                    .commitIdentifier(f.requiredLong(K_COMMIT_IDENTIFIER))
                    .commitKind(f.commitKind())
                    .timeMillis(f.requiredLong(K_TIME_MILLIS))
                    .totalRecordCount(f.requiredLong(K_TOTAL_RECORDS))
                    .deltaRecordCount(f.requiredLong(K_DELTA_RECORDS))
                    .changelogRecordCount(f.optionalLong(K_CHANGELOG_RECORDS))
                    .watermark(f.optionalLong(K_WATERMARK))
                    .statistics(f.optionalString(K_STATISTICS))
                    .properties(f.properties())
                    .nextRowId(f.optionalLong(K_NEXT_ROW_ID))
                    .build();
        } catch (DovetailException e) {
            if (e.kind() == DovetailException.Kind.INVALID_ARGUMENT) {
                throw Errors.corruptFile(file, e.getMessage(), e);
            }
            throw e;
        }
    }

    private static void putOptional(ObjectNode o, String key, Long value) {
        if (value != null) {
            o.put(key, value.longValue());
        }
    }

    private static void putOptional(ObjectNode o, String key, String value) {
        if (value != null) {
            o.put(key, value);
        }
    }

    /** Typed access to the keys of one snapshot object, failing with the file name. */
    private static final class Fields {
        private final JsonNode root;
        private final Object file;

        Fields(JsonNode root, Object file) {
            this.root = root;
            this.file = file;
        }

        private JsonNode present(String key) {
            JsonNode node = root.get(key);
            return node == null || node.isNull() ? null : node;
        }

        private JsonNode required(String key) {
            JsonNode node = present(key);
            if (node == null) {
                throw Errors.corruptFile(file, "the required key '" + key + "' is missing");
            }
            return node;
        }

        long requiredLong(String key) {
            return asLong(key, required(key));
        }

        Long optionalLong(String key) {
            JsonNode node = present(key);
            return node == null ? null : asLong(key, node);
        }

        String requiredString(String key) {
            return asString(key, required(key));
        }

        String optionalString(String key) {
            JsonNode node = present(key);
            return node == null ? null : asString(key, node);
        }

        CommitKind commitKind() {
            String kind = requiredString(K_COMMIT_KIND);
            try {
                return CommitKind.valueOf(kind);
            } catch (IllegalArgumentException e) {
                throw Errors.corruptFile(file, "unknown commitKind '" + kind + "'");
            }
        }

        Map<String, String> properties() {
            JsonNode node = present(K_PROPERTIES);
            if (node == null) {
                return Map.of();
            }
            if (!node.isObject()) {
                throw wrongType(K_PROPERTIES, "an object of strings", node);
            }
            Map<String, String> properties = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                if (!entry.getValue().isTextual()) {
                    throw wrongType(
                            K_PROPERTIES + "." + entry.getKey(), "a string", entry.getValue());
                }
                properties.put(entry.getKey(), entry.getValue().textValue());
            }
            return properties;
        }

        private long asLong(String key, JsonNode node) {
            if (!node.isIntegralNumber() || !node.canConvertToLong()) {
                throw wrongType(key, "a 64-bit integer", node);
            }
            return node.longValue();
        }

        private String asString(String key, JsonNode node) {
            if (!node.isTextual()) {
                throw wrongType(key, "a string", node);
            }
            return node.textValue();
        }

        private DovetailException wrongType(String key, String expected, JsonNode node) {
            return Errors.corruptFile(
                    file, "the value of '" + key + "' is not " + expected + ": " + node);
        }
    }
}
