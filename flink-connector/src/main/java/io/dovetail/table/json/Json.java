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
package io.dovetail.table.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;

/**
 * The JSON encoding of schema and snapshot files: UTF-8, Jackson's default pretty printer
 * (two-space indent, {@code "key" : value}, no trailing newline), which is what Paimon writes.
 * Readers accept any valid JSON.
 */
public final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    public static ObjectNode newObject() {
        return MAPPER.createObjectNode();
    }

    public static byte[] toBytes(JsonNode node) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(node)
                    .getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("JSON tree could not be written", e);
        }
    }

    /** Parses bytes; the caller turns the exception into an error naming the file. */
    public static JsonNode parse(byte[] bytes) throws JsonProcessingException {
        try {
            return MAPPER.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw e;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
