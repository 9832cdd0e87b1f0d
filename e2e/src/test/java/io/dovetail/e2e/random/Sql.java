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

/** SQL text helpers: quoted names and literals. */
final class Sql {

    private Sql() {}

    static String name(String name) {
        return "`" + name + "`";
    }

    static String string(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    /** A literal of {@code type}; NULL as a typed cast. */
    static String literal(ModelType type, Object value) {
        if (value == null) {
            return "CAST(NULL AS " + type.sql() + ")";
        }
        if (type == ModelType.Scalar.STRING) {
            return string(value.toString());
        }
        if (type == ModelType.Scalar.INT) {
            return value.toString();
        }
        return "CAST(" + value + " AS " + type.sql() + ")";
    }
}
