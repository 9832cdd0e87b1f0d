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

import io.dovetail.table.error.Errors;
import io.dovetail.table.types.ArrayType;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.TypeRoot;

import java.util.Map;

/**
 * The one reading of the options that make engine types into Paimon's dedicated column types, at
 * CREATE TABLE and at ALTER TABLE ADD: a column named in {@code blob-field} is a BLOB (declared
 * {@code BYTES}); a column named in {@code vector-field} is a {@code VECTOR} of its {@code ARRAY}
 * element type and of the dimension {@code field.<column>.vector-dim} gives.
 */
public final class ColumnDeclarations {

    private ColumnDeclarations() {}

    /** The type column {@code name} declared as {@code type} gets under {@code options}. */
    public static DataType declared(String name, DataType type, Map<String, String> options) {
        if (TableOptions.names(options, TableOptions.BLOB_FIELD).contains(name)) {
            return asBlob(name, type);
        }
        if (TableOptions.names(options, TableOptions.VECTOR_FIELD).contains(name)) {
            return asVector(name, type, options);
        }
        return type;
    }

    private static DataType asBlob(String name, DataType type) {
        if (type.root() != TypeRoot.VARBINARY && type.root() != TypeRoot.BINARY) {
            throw Errors.invalidSchema(
                    "'"
                            + TableOptions.BLOB_FIELD
                            + "' names column '"
                            + name
                            + "' of type "
                            + type.asSqlString()
                            + "; a BLOB column is declared BYTES.");
        }
        return DataTypes.BLOB().withNullable(type.nullable());
    }

    private static DataType asVector(String name, DataType type, Map<String, String> options) {
        String dimKey = TableOptions.vectorDimKey(name);
        if (!(type instanceof ArrayType array)) {
            throw Errors.invalidSchema(
                    "'"
                            + TableOptions.VECTOR_FIELD
                            + "' names column '"
                            + name
                            + "' of type "
                            + type.asSqlString()
                            + "; a VECTOR column is declared ARRAY<FLOAT> (or ARRAY of BOOLEAN,"
                            + " TINYINT, SMALLINT, INT, BIGINT, DOUBLE).");
        }
        if (!options.containsKey(dimKey)) {
            throw Errors.invalidSchema(
                    "VECTOR column '"
                            + name
                            + "' needs its dimension: set '"
                            + dimKey
                            + "' (for example '"
                            + dimKey
                            + "' = '768').");
        }
        int dimension;
        try {
            dimension = TableOptions.intValue(options, dimKey, 0, 1);
        } catch (RuntimeException e) {
            throw Errors.invalidSchema(e.getMessage());
        }
        try {
            return DataTypes.VECTOR(array.element(), dimension).withNullable(type.nullable());
        } catch (IllegalArgumentException e) {
            throw Errors.invalidSchema("VECTOR column '" + name + "': " + e.getMessage() + ".");
        }
    }
}
