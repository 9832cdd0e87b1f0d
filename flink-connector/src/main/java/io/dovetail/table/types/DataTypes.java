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

import java.util.List;

/** Factories for nullable data types; use {@link DataType#withNullable} for NOT NULL. */
public final class DataTypes {

    private DataTypes() {}

    public static AtomicType BOOLEAN() {
        return simple(TypeRoot.BOOLEAN);
    }

    public static AtomicType TINYINT() {
        return simple(TypeRoot.TINYINT);
    }

    public static AtomicType SMALLINT() {
        return simple(TypeRoot.SMALLINT);
    }

    public static AtomicType INT() {
        return simple(TypeRoot.INT);
    }

    public static AtomicType BIGINT() {
        return simple(TypeRoot.BIGINT);
    }

    public static AtomicType FLOAT() {
        return simple(TypeRoot.FLOAT);
    }

    public static AtomicType DOUBLE() {
        return simple(TypeRoot.DOUBLE);
    }

    public static AtomicType DECIMAL(int precision, int scale) {
        return new AtomicType(TypeRoot.DECIMAL, precision, scale, true);
    }

    public static AtomicType CHAR(int length) {
        return sized(TypeRoot.CHAR, length);
    }

    public static AtomicType VARCHAR(int length) {
        return sized(TypeRoot.VARCHAR, length);
    }

    /** VARCHAR(2147483647), written as {@code STRING}. */
    public static AtomicType STRING() {
        return VARCHAR(AtomicType.MAX_LENGTH);
    }

    public static AtomicType BINARY(int length) {
        return sized(TypeRoot.BINARY, length);
    }

    public static AtomicType VARBINARY(int length) {
        return sized(TypeRoot.VARBINARY, length);
    }

    /** VARBINARY(2147483647), written as {@code BYTES}. */
    public static AtomicType BYTES() {
        return VARBINARY(AtomicType.MAX_LENGTH);
    }

    public static AtomicType DATE() {
        return simple(TypeRoot.DATE);
    }

    public static AtomicType TIME(int precision) {
        return sized(TypeRoot.TIME, precision);
    }

    public static AtomicType TIMESTAMP(int precision) {
        return sized(TypeRoot.TIMESTAMP, precision);
    }

    /** TIMESTAMP(p) WITH LOCAL TIME ZONE. */
    public static AtomicType TIMESTAMP_LTZ(int precision) {
        return sized(TypeRoot.TIMESTAMP_LTZ, precision);
    }

    public static AtomicType VARIANT() {
        return simple(TypeRoot.VARIANT);
    }

    public static AtomicType BLOB() {
        return simple(TypeRoot.BLOB);
    }

    public static RowType ROW(DataField... fields) {
        return new RowType(true, List.of(fields));
    }

    public static ArrayType ARRAY(DataType element) {
        return new ArrayType(true, element);
    }

    public static MapType MAP(DataType key, DataType value) {
        return new MapType(true, key, value);
    }

    public static MultisetType MULTISET(DataType element) {
        return new MultisetType(true, element);
    }

    public static VectorType VECTOR(DataType element, int length) {
        return new VectorType(true, element, length);
    }

    private static AtomicType simple(TypeRoot root) {
        return new AtomicType(root, 0, 0, true);
    }

    private static AtomicType sized(TypeRoot root, int precisionOrLength) {
        return new AtomicType(root, precisionOrLength, 0, true);
    }
}
