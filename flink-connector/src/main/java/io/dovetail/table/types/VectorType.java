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

import java.util.Objects;
import java.util.Set;

/**
 * VECTOR(element, length): a fixed-length dense vector, stored in dedicated vector-store files by
 * Paimon. The element must be BOOLEAN, an integer type, FLOAT or DOUBLE; the length is at least 1.
 */
public record VectorType(boolean nullable, DataType element, int length) implements DataType {

    private static final Set<TypeRoot> ELEMENT_ROOTS =
            Set.of(
                    TypeRoot.BOOLEAN,
                    TypeRoot.TINYINT,
                    TypeRoot.SMALLINT,
                    TypeRoot.INT,
                    TypeRoot.BIGINT,
                    TypeRoot.FLOAT,
                    TypeRoot.DOUBLE);

    public VectorType {
        Objects.requireNonNull(element, "element");
        String problem = problem(element, length);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** Why element and length do not form a valid vector, or null when they do. */
    static String problem(DataType element, int length) {
        if (!ELEMENT_ROOTS.contains(element.root())) {
            return "VECTOR element must be BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT or"
                    + " DOUBLE, was "
                    + element.asSqlString();
        }
        return length >= 1 ? null : "VECTOR length must be at least 1, was " + length;
    }

    @Override
    public TypeRoot root() {
        return TypeRoot.VECTOR;
    }

    @Override
    public VectorType withNullable(boolean newNullable) {
        return new VectorType(newNullable, element, length);
    }

    @Override
    public String asSqlString() {
        return DataType.withNullability(
                "VECTOR<" + element.asSqlString() + ", " + length + ">", nullable);
    }

    @Override
    public String toString() {
        return asSqlString();
    }
}
