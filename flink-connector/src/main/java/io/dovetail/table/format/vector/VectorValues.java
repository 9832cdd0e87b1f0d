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
package io.dovetail.table.format.vector;

import io.dovetail.table.error.Errors;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.VectorType;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;

import java.util.List;

/**
 * The rule every value of a VECTOR column keeps (Paimon's {@code VECTOR<t, n>}): exactly {@code n}
 * elements, none of them NULL. A value that breaks it fails the write, naming the column.
 */
final class VectorValues {

    private VectorValues() {}

    /** Checks every VECTOR value of {@code row} (its fields are {@code columns}, in order). */
    static void check(List<DataField> columns, RowData row) {
        for (int i = 0; i < columns.size(); i++) {
            DataField column = columns.get(i);
            if (row.isNullAt(i)) {
                if (!column.type().nullable()) {
                    throw Errors.invalidArgument(
                            "VECTOR column '"
                                    + column.name()
                                    + "' is NOT NULL, but a value is NULL.");
                }
            } else {
                check(column, row.getArray(i));
            }
        }
    }

    private static void check(DataField column, ArrayData value) {
        int dimension = ((VectorType) column.type()).length();
        if (value.size() != dimension) {
            throw Errors.invalidArgument(
                    "VECTOR column '"
                            + column.name()
                            + "' has dimension "
                            + dimension
                            + ", but a value has "
                            + value.size()
                            + " elements. Write vectors of exactly "
                            + dimension
                            + " elements ('"
                            + TableOptions.vectorDimKey(column.name())
                            + "').");
        }
        for (int i = 0; i < dimension; i++) {
            if (value.isNullAt(i)) {
                throw Errors.invalidArgument(
                        "VECTOR column '"
                                + column.name()
                                + "' cannot hold NULL elements, but element "
                                + i
                                + " of a value is NULL. A whole vector may be NULL (when the"
                                + " column is nullable), its elements may not.");
            }
        }
    }
}
