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
package io.dovetail.table.types;

import io.dovetail.table.error.Errors;
import io.dovetail.table.json.Json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The JSON encoding of types and fields in schema files (Paimon metadata format section 2.3-2.4):
 * atomic types as strings ({@code "INT NOT NULL"}, {@code "DECIMAL(10, 2)"}), composite types as
 * objects whose {@code type} member is the kind word, fields as objects with keys {@code id},
 * {@code name}, {@code type}, {@code description}, {@code defaultValue} in that order (the last two
 * omitted when null).
 *
 * <p>Readers name the file and the position in it of anything they cannot decode.
 */
public final class TypeJson {

    private TypeJson() {}

    public static ObjectNode writeField(DataField field) {
        ObjectNode node = Json.newObject();
        node.put("id", field.id());
        node.put("name", field.name());
        node.set("type", writeType(field.type()));
        if (field.description() != null) {
            node.put("description", field.description());
        }
        if (field.defaultValue() != null) {
            node.put("defaultValue", field.defaultValue());
        }
        return node;
    }

    public static ArrayNode writeFields(List<DataField> fields) {
        ArrayNode array = Json.newObject().arrayNode();
        fields.forEach(f -> array.add(writeField(f)));
        return array;
    }

    public static JsonNode writeType(DataType type) {
        if (type instanceof AtomicType atomic) {
            return TextNode.valueOf(atomic.asSqlString());
        }
        ObjectNode node = Json.newObject();
        node.put("type", DataType.withNullability(type.root().keyword(), type.nullable()));
        if (type instanceof RowType row) {
            node.set("fields", writeFields(row.fields()));
        } else if (type instanceof ArrayType array) {
            node.set("element", writeType(array.element()));
        } else if (type instanceof MultisetType multiset) {
            node.set("element", writeType(multiset.element()));
        } else if (type instanceof MapType map) {
            node.set("key", writeType(map.key()));
            node.set("value", writeType(map.value()));
        } else if (type instanceof VectorType vector) {
            node.set("element", writeType(vector.element()));
            node.put("length", vector.length());
        }
        return node;
    }

    /**
     * Reads a JSON array of fields.
     *
     * @param source the file being read, named in errors
     * @param where the position of the array in the file, e.g. {@code "fields"}
     */
    public static List<DataField> readFields(JsonNode array, Object source, String where) {
        if (array == null || !array.isArray()) {
            throw Errors.corruptFile(source, where + " must be a JSON array of fields");
        }
        List<DataField> fields = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            fields.add(readField(array.get(i), source, where + "[" + i + "]"));
        }
        return fields;
    }

    public static DataField readField(JsonNode node, Object source, String where) {
        if (node == null || !node.isObject()) {
            throw Errors.corruptFile(source, where + " must be a JSON object describing a field");
        }
        JsonNode id = node.get("id");
        if (id == null || !id.isInt()) {
            throw Errors.corruptFile(
                    source, where + " has no integer field id ('id' is missing or not an int)");
        }
        JsonNode name = node.get("name");
        if (name == null || !name.isTextual()) {
            throw Errors.corruptFile(source, where + " has no string 'name'");
        }
        String named = where + " ('" + name.asText() + "')";
        if (!node.has("type")) {
            throw Errors.corruptFile(source, named + " has no 'type'");
        }
        return new DataField(
                id.asInt(),
                name.asText(),
                readType(node.get("type"), source, named + ".type"),
                optionalText(node, "description", source, named),
                optionalText(node, "defaultValue", source, named));
    }

    public static DataType readType(JsonNode node, Object source, String where) {
        if (node.isTextual()) {
            try {
                return AtomicTypeParser.parse(node.asText());
            } catch (IllegalArgumentException e) {
                throw Errors.corruptFile(source, where + ": " + e.getMessage(), e);
            }
        }
        if (!node.isObject()) {
            throw Errors.corruptFile(
                    source, where + " must be a type string or a composite type object");
        }
        JsonNode kindNode = node.get("type");
        if (kindNode == null || !kindNode.isTextual()) {
            throw Errors.corruptFile(source, where + " is an object without a string 'type'");
        }
        String[] words = kindNode.asText().trim().toUpperCase(Locale.ROOT).split("\\s+");
        boolean nullable = nullability(words, kindNode.asText(), source, where);
        switch (words[0]) {
            case "ROW":
                return new RowType(
                        nullable, readFields(node.get("fields"), source, where + ".fields"));
            case "ARRAY":
                return new ArrayType(nullable, member(node, "element", source, where));
            case "MULTISET":
                return new MultisetType(nullable, member(node, "element", source, where));
            case "MAP":
                return new MapType(
                        nullable,
                        member(node, "key", source, where),
                        member(node, "value", source, where));
            case "VECTOR":
                return readVector(node, nullable, source, where);
            default:
                throw Errors.corruptFile(
                        source,
                        where
                                + ": unknown composite type '"
                                + kindNode.asText()
                                + "' (expected ROW, ARRAY, MAP, MULTISET or VECTOR)");
        }
    }

    private static VectorType readVector(
            JsonNode node, boolean nullable, Object source, String where) {
        DataType element = member(node, "element", source, where);
        JsonNode length = node.get("length");
        if (length == null || !length.isInt()) {
            throw Errors.corruptFile(source, where + ": VECTOR has no integer 'length'");
        }
        String problem = VectorType.problem(element, length.asInt());
        if (problem != null) {
            throw Errors.corruptFile(source, where + ": " + problem);
        }
        return new VectorType(nullable, element, length.asInt());
    }

    private static boolean nullability(String[] words, String text, Object source, String where) {
        if (words.length == 1) {
            return true;
        }
        if (words.length == 2 && words[1].equals("NULL")) {
            return true;
        }
        if (words.length == 3 && words[1].equals("NOT") && words[2].equals("NULL")) {
            return false;
        }
        throw Errors.corruptFile(source, where + ": invalid composite type kind '" + text + "'");
    }

    private static DataType member(JsonNode node, String key, Object source, String where) {
        JsonNode member = node.get(key);
        if (member == null) {
            throw Errors.corruptFile(
                    source, where + ": " + node.get("type").asText() + " has no '" + key + "'");
        }
        return readType(member, source, where + "." + key);
    }

    private static String optionalText(JsonNode node, String key, Object source, String where) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw Errors.corruptFile(source, where + ": '" + key + "' must be a string");
        }
        return value.asText();
    }
}
