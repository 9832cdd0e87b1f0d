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

import io.dovetail.table.types.DataType;
import io.dovetail.table.types.TypeRoot;

import java.util.List;

/**
 * Which column type changes ({@code ALTER TABLE ... MODIFY}) are allowed: the type-change matrix of
 * seed 002 / data-evolution semantics section 4.8, over these families: TINYINT, SMALLINT, INT,
 * BIGINT, FLOAT, DOUBLE, BOOLEAN, string (CHAR, VARCHAR), binary (BINARY, VARBINARY), DATE,
 * TIMESTAMP (without time zone), DECIMAL. Old files keep their type and are cast to the new one on
 * read, so a change is allowed exactly when the reader has a cast for it. In short:
 *
 * <ul>
 *   <li>numbers and BOOLEAN change into any number, BOOLEAN (except DECIMAL to BOOLEAN) or string;
 *   <li>strings change into every family;
 *   <li>binary changes into string or binary; DATE into string, DATE or TIMESTAMP;
 *   <li>INT and BIGINT change into TIMESTAMP; TIMESTAMP into INT, BIGINT, string, DATE, TIMESTAMP;
 *   <li>within a family any length, precision or scale change is allowed (narrowing included:
 *       values are truncated or wrapped the Java way).
 * </ul>
 *
 * <p>Any other change, including every change from or to TIME, TIMESTAMP WITH LOCAL TIME ZONE,
 * VARIANT, BLOB and composite types, is refused unless the type stays the same apart from
 * nullability. Nullability itself is checked separately.
 */
public final class TypeChangeRules {

    private enum Family {
        TINYINT,
        SMALLINT,
        INT,
        BIGINT,
        FLOAT,
        DOUBLE,
        BOOLEAN,
        STRING,
        BINARY,
        DATE,
        TIMESTAMP,
        DECIMAL
    }

    /** Row = from, column = to, both in {@link Family} order; Y = allowed. */
    private static final List<String> MATRIX =
            List.of(
                    "YYYYYYYY...Y", // TINYINT
                    "YYYYYYYY...Y", // SMALLINT
                    "YYYYYYYY..YY", // INT
                    "YYYYYYYY..YY", // BIGINT
                    "YYYYYYYY...Y", // FLOAT
                    "YYYYYYYY...Y", // DOUBLE
                    "YYYYYYYY...Y", // BOOLEAN
                    "YYYYYYYYYYYY", // STRING
                    ".......YY...", // BINARY
                    ".......Y.YY.", // DATE
                    "..YY...Y.YY.", // TIMESTAMP
                    "YYYYYY.Y...Y"); // DECIMAL

    private TypeChangeRules() {}

    /** Whether a column of type {@code from} may change to {@code to} (nullability ignored). */
    public static boolean isAllowed(DataType from, DataType to) {
        if (from.withNullable(true).equals(to.withNullable(true))) {
            return true;
        }
        Family source = family(from.root());
        Family target = family(to.root());
        return source != null
                && target != null
                && MATRIX.get(source.ordinal()).charAt(target.ordinal()) == 'Y';
    }

    private static Family family(TypeRoot root) {
        switch (root) {
            case TINYINT:
                return Family.TINYINT;
            case SMALLINT:
                return Family.SMALLINT;
            case INT:
                return Family.INT;
            case BIGINT:
                return Family.BIGINT;
            case FLOAT:
                return Family.FLOAT;
            case DOUBLE:
                return Family.DOUBLE;
            case BOOLEAN:
                return Family.BOOLEAN;
            case CHAR:
            case VARCHAR:
                return Family.STRING;
            case BINARY:
            case VARBINARY:
                return Family.BINARY;
            case DATE:
                return Family.DATE;
            case TIMESTAMP:
                return Family.TIMESTAMP;
            case DECIMAL:
                return Family.DECIMAL;
            default:
                return null;
        }
    }
}
