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
package io.dovetail.table.schema;

import io.dovetail.table.error.Errors;
import io.dovetail.table.json.Json;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.TypeJson;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes schema files (metadata format section 2.2). Writes version 3 with the keys in
 * Paimon's order: {@code version, id, fields, highestFieldId, partitionKeys, primaryKeys, options,
 * comment} (omitted when null){@code , timeMillis}. Reads versions 1 to 3, applying Paimon's
 * defaults for old versions (version 1: {@code bucket=1} when absent; versions 1 and 2: {@code
 * file.format=orc} when absent), ignores unknown keys, and names the file in every error.
 */
public final class TableSchemaJson {

    private static final int V1_DEFAULT_BUCKET = 1;
    private static final String V2_DEFAULT_FILE_FORMAT = "orc";

    private TableSchemaJson() {}

    public static byte[] toBytes(TableSchema schema) {
        ObjectNode node = Json.newObject();
        node.put("version", TableSchema.CURRENT_VERSION);
        node.put("id", schema.id());
        node.set("fields", TypeJson.writeFields(schema.fields()));
        node.put("highestFieldId", schema.highestFieldId());
        node.set("partitionKeys", strings(node, schema.partitionKeys()));
        node.set("primaryKeys", strings(node, schema.primaryKeys()));
        ObjectNode options = node.objectNode();
        schema.options().forEach(options::put);
        node.set("options", options);
        if (schema.comment() != null) {
            node.put("comment", schema.comment());
        }
        node.put("timeMillis", schema.timeMillis());
        return Json.toBytes(node);
    }

    private static ArrayNode strings(ObjectNode factory, List<String> values) {
        ArrayNode array = factory.arrayNode();
        values.forEach(array::add);
        return array;
    }

    /** Decodes a schema file; {@code file} is named in every error. */
    public static TableSchema fromBytes(byte[] bytes, Object file) {
        JsonNode root;
        try {
            root = Json.parse(bytes);
        } catch (JsonProcessingException e) {
            throw Errors.corruptFile(
                    file, "not valid JSON (truncated?): " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw Errors.corruptFile(file, "a schema file must hold one JSON object");
        }
        int version = version(root, file);
        long id = requiredLong(root, "id", file);
        List<DataField> fields =
                TypeJson.readFields(required(root, "fields", file), file, "fields");
        JsonNode highest = required(root, "highestFieldId", file);
        if (!highest.isInt()) {
            throw Errors.corruptFile(file, "'highestFieldId' must be an int");
        }
        List<String> partitionKeys = stringList(root, "partitionKeys", file);
        List<String> primaryKeys = stringList(root, "primaryKeys", file);
        Map<String, String> options = options(root, file);
        if (version <= 1) {
            options.putIfAbsent(TableOptions.BUCKET, String.valueOf(V1_DEFAULT_BUCKET));
        }
        if (version <= 2) {
            options.putIfAbsent(TableOptions.FILE_FORMAT, V2_DEFAULT_FILE_FORMAT);
        }
        String comment = comment(root, file);
        long timeMillis = root.has("timeMillis") ? requiredLong(root, "timeMillis", file) : 0L;

        String problem =
                TableSchema.structuralProblem(
                        id, fields, highest.asInt(), partitionKeys, primaryKeys);
        if (problem != null) {
            throw Errors.corruptFile(file, problem);
        }
        return new TableSchema(
                id,
                fields,
                highest.asInt(),
                partitionKeys,
                primaryKeys,
                options,
                comment,
                timeMillis);
    }

    private static int version(JsonNode root, Object file) {
        JsonNode node = root.get("version");
        if (node == null) {
            return 1;
        }
        if (!node.isInt() || node.asInt() < 1) {
            throw Errors.corruptFile(file, "'version' must be a positive int, was " + node);
        }
        if (node.asInt() > TableSchema.CURRENT_VERSION) {
            throw Errors.corruptFile(
                    file,
                    "schema format version "
                            + node.asInt()
                            + " is newer than the versions this reader understands (1 to "
                            + TableSchema.CURRENT_VERSION
                            + "); upgrade Dovetail to read this table");
        }
        return node.asInt();
    }

    private static JsonNode required(JsonNode root, String key, Object file) {
        JsonNode node = root.get(key);
        if (node == null || node.isNull()) {
            throw Errors.corruptFile(file, "required key '" + key + "' is missing");
        }
        return node;
    }

    private static long requiredLong(JsonNode root, String key, Object file) {
        JsonNode node = required(root, key, file);
        if (!node.canConvertToExactIntegral() || !node.canConvertToLong()) {
            throw Errors.corruptFile(file, "'" + key + "' must be an integer, was " + node);
        }
        return node.asLong();
    }

    private static List<String> stringList(JsonNode root, String key, Object file) {
        JsonNode node = required(root, key, file);
        if (!node.isArray()) {
            throw Errors.corruptFile(file, "'" + key + "' must be an array of strings");
        }
        List<String> values = new ArrayList<>(node.size());
        for (JsonNode item : node) {
            if (!item.isTextual()) {
                throw Errors.corruptFile(file, "'" + key + "' holds a non-string " + item);
            }
            values.add(item.asText());
        }
        return values;
    }

    private static Map<String, String> options(JsonNode root, Object file) {
        JsonNode node = required(root, "options", file);
        if (!node.isObject()) {
            throw Errors.corruptFile(file, "'options' must be an object of strings");
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (!entry.getValue().isTextual()) {
                throw Errors.corruptFile(
                        file,
                        "option '"
                                + entry.getKey()
                                + "' must be a string, was "
                                + entry.getValue());
            }
            options.put(entry.getKey(), entry.getValue().asText());
        }
        return options;
    }

    private static String comment(JsonNode root, Object file) {
        JsonNode node = root.get("comment");
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw Errors.corruptFile(file, "'comment' must be a string");
        }
        return node.asText();
    }
}
