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
 * A Dovetail data type: Paimon's type tree, which (unlike Flink's) carries a field id on every ROW
 * field, nested ones included. Values are immutable; equality includes nullability and nested field
 * ids.
 */
public sealed interface DataType
        permits AtomicType, RowType, ArrayType, MapType, MultisetType, VectorType {

    TypeRoot root();

    boolean nullable();

    /** The same type with the given nullability (nested types unchanged). */
    DataType withNullable(boolean nullable);

    /**
     * A readable SQL-like spelling, e.g. {@code DECIMAL(10, 2) NOT NULL} or {@code ARRAY<INT>}. For
     * atomic types this is exactly the JSON string Paimon writes.
     */
    String asSqlString();

    /** Appends {@code " NOT NULL"} when the type is not nullable. */
    static String withNullability(String spelling, boolean nullable) {
        return nullable ? spelling : spelling + " NOT NULL";
    }
}
