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
package io.dovetail.table.predicate;

import io.dovetail.table.error.Errors;

import javax.annotation.Nullable;

/**
 * What is known about one column's values over a set of rows, in the column's read type: bounds
 * every non-null value lies within (null when unknown) and the number of NULLs (null when unknown).
 * Bounds need not be attained: a truncated string maximum lies above every value.
 *
 * @param rowCount the number of rows described
 */
public record ColumnBounds(
        @Nullable Object min, @Nullable Object max, @Nullable Long nullCount, long rowCount) {

    public ColumnBounds {
        if (rowCount < 0) {
            throw Errors.invalidArgument("A row count cannot be negative, got " + rowCount);
        }
    }

    /** Nothing known about {@code rowCount} rows. */
    public static ColumnBounds unknown(long rowCount) {
        return new ColumnBounds(null, null, null, rowCount);
    }

    /** {@code rowCount} rows that are all NULL, e.g. of a column no file wrote. */
    public static ColumnBounds allNull(long rowCount) {
        return new ColumnBounds(null, null, rowCount, rowCount);
    }

    /**
     * These bounds if they are self-consistent, otherwise {@link #unknown}: the null count lies in
     * [0, rowCount], min and max are both present or both absent, and with values present and only
     * NULLs counted there are no bounds. (Consistency of min ≤ max is checked where values are
     * compared.)
     */
    public ColumnBounds checked() {
        boolean consistent =
                (nullCount == null || (nullCount >= 0 && nullCount <= rowCount))
                        && (min == null) == (max == null)
                        && !(min != null && nullCount != null && nullCount == rowCount);
        return consistent ? this : unknown(rowCount);
    }

    /** Whether some of the rows may be NULL. */
    boolean mayHaveNull() {
        return rowCount > 0 && (nullCount == null || nullCount > 0);
    }

    /** Whether some of the rows may hold a value. */
    boolean mayHaveValue() {
        return nullCount == null ? rowCount > 0 : nullCount < rowCount;
    }
}
