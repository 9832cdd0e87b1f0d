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
package io.dovetail.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** One JSON object per line on standard output: a measurement or a summary. */
final class Measurement {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode node = JSON.createObjectNode();

    Measurement(String bench, String phase) {
        node.put("bench", bench);
        node.put("phase", phase);
    }

    Measurement put(String key, long value) {
        node.put(key, value);
        return this;
    }

    Measurement put(String key, double value) {
        node.put(key, Math.round(value * 1000) / 1000.0);
        return this;
    }

    Measurement put(String key, boolean value) {
        node.put(key, value);
        return this;
    }

    Measurement put(String key, String value) {
        node.put(key, value);
        return this;
    }

    /** Adds {@code wall_ms} and {@code rows_per_s} for {@code rows} rows in {@code nanos}. */
    Measurement timing(long rows, long nanos) {
        double ms = nanos / 1e6;
        put("rows", rows);
        put("wall_ms", ms);
        put("rows_per_s", rows / (nanos / 1e9));
        return this;
    }

    void print() {
        System.out.println(node.toString());
    }
}
