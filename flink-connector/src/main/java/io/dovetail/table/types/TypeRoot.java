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

/**
 * The kinds of Dovetail (Paimon) data types, with the keyword each is written with and the kind of
 * parameter its atomic form carries.
 */
public enum TypeRoot {
    BOOLEAN("BOOLEAN", Parameter.NONE),
    TINYINT("TINYINT", Parameter.NONE),
    SMALLINT("SMALLINT", Parameter.NONE),
    INT("INT", Parameter.NONE),
    BIGINT("BIGINT", Parameter.NONE),
    FLOAT("FLOAT", Parameter.NONE),
    DOUBLE("DOUBLE", Parameter.NONE),
    DECIMAL("DECIMAL", Parameter.PRECISION_AND_SCALE),
    CHAR("CHAR", Parameter.LENGTH),
    VARCHAR("VARCHAR", Parameter.LENGTH),
    BINARY("BINARY", Parameter.LENGTH),
    VARBINARY("VARBINARY", Parameter.LENGTH),
    DATE("DATE", Parameter.NONE),
    TIME("TIME", Parameter.PRECISION),
    TIMESTAMP("TIMESTAMP", Parameter.PRECISION),
    TIMESTAMP_LTZ("TIMESTAMP", Parameter.PRECISION),
    VARIANT("VARIANT", Parameter.NONE),
    BLOB("BLOB", Parameter.NONE),
    ROW("ROW", Parameter.COMPOSITE),
    ARRAY("ARRAY", Parameter.COMPOSITE),
    MAP("MAP", Parameter.COMPOSITE),
    MULTISET("MULTISET", Parameter.COMPOSITE),
    VECTOR("VECTOR", Parameter.COMPOSITE);

    /** What the atomic form of a type carries besides its root and nullability. */
    public enum Parameter {
        NONE,
        /** CHAR, VARCHAR, BINARY, VARBINARY: length 1 .. 2147483647. */
        LENGTH,
        /** TIME, TIMESTAMP, TIMESTAMP_LTZ: fractional-second precision 0 .. 9. */
        PRECISION,
        /** DECIMAL: precision 1 .. 38, scale 0 .. precision. */
        PRECISION_AND_SCALE,
        /** ROW, ARRAY, MAP, MULTISET, VECTOR: written as a JSON object, never as a string. */
        COMPOSITE
    }

    private final String keyword;
    private final Parameter parameter;

    TypeRoot(String keyword, Parameter parameter) {
        this.keyword = keyword;
        this.parameter = parameter;
    }

    /** The leading keyword of the type's SQL spelling. */
    public String keyword() {
        return keyword;
    }

    public Parameter parameter() {
        return parameter;
    }

    public boolean isComposite() {
        return parameter == Parameter.COMPOSITE;
    }
}
