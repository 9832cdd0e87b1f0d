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
package io.dovetail.e2e.random;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A column type of the random test's tables: integers (values kept as {@code Long} whatever their
 * width), strings, and rows of those. Values are stored as written and read through the current
 * type ({@link #read}), as a data file of an older schema is cast on read.
 */
sealed interface ModelType {

    /** The type in Flink SQL. */
    String sql();

    /** Renders a value read through this type, as the test renders Flink's and Paimon's values. */
    String render(Object value);

    /**
     * A stored value read through this type: an integer read as a string after a type change to
     * STRING, a row's fields resolved by field id (missing ones NULL).
     */
    Object read(Object stored);

    /** A value as this type reads it ({@link #read}'s form), in the form the model stores. */
    Object store(Object value);

    /** Integer and string types. */
    enum Scalar implements ModelType {
        SMALLINT,
        INT,
        BIGINT,
        STRING;

        @Override
        public String sql() {
            return name();
        }

        boolean isInteger() {
            return this != STRING;
        }

        @Override
        public String render(Object value) {
            return value == null ? "null" : value.toString();
        }

        @Override
        public Object read(Object stored) {
            if (stored == null) {
                return null;
            }
            if (this == STRING) {
                return stored.toString();
            }
            return stored;
        }

        @Override
        public Object store(Object value) {
            if (value == null) {
                return null;
            }
            return this == STRING ? value.toString() : (Long) value;
        }

        /** Whether Paimon's rules let a column of this type change into {@code to} (widening). */
        boolean widensTo(Scalar to) {
            return isInteger() && (to == STRING || to.ordinal() > ordinal());
        }
    }

    /**
     * {@code ROW<...>}: values are stored as maps by nested field id, read as lists by position.
     */
    record RowOf(List<Field> fields) implements ModelType {

        public RowOf {
            fields = List.copyOf(fields);
        }

        @Override
        public String sql() {
            return fields.stream()
                    .map(f -> Sql.name(f.name()) + " " + f.type().sql())
                    .collect(Collectors.joining(", ", "ROW<", ">"));
        }

        @Override
        public String render(Object value) {
            if (value == null) {
                return "null";
            }
            List<?> values = (List<?>) value;
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < fields.size(); i++) {
                parts.add(fields.get(i).type().render(values.get(i)));
            }
            return "{" + String.join(", ", parts) + "}";
        }

        @Override
        public Object read(Object stored) {
            if (stored == null) {
                return null;
            }
            Map<?, ?> byId = (Map<?, ?>) stored;
            List<Object> values = new ArrayList<>();
            for (Field f : fields) {
                values.add(f.type().read(byId.get(f.id())));
            }
            return values;
        }

        @Override
        public Object store(Object value) {
            if (value == null) {
                return null;
            }
            List<?> values = (List<?>) value;
            Map<Integer, Object> byId = new java.util.HashMap<>();
            for (int i = 0; i < fields.size(); i++) {
                byId.put(fields.get(i).id(), fields.get(i).type().store(values.get(i)));
            }
            return java.util.Collections.unmodifiableMap(byId);
        }

        Field field(String name) {
            return fields.stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
        }
    }
}
