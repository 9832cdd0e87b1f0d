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
package io.dovetail.table.commit;

import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.DataFileMeta;

/**
 * An inclusive interval of row ids {@code [first, last]}. A data file with first row id {@code s}
 * and {@code n} rows covers {@code [s, s + n - 1]}; its position {@code i} holds row {@code s + i}.
 */
public record RowRange(long first, long last) {

    public RowRange {
        if (first < 0 || last < first) {
            throw Errors.invalidArgument("Invalid row range [" + first + ", " + last + "]");
        }
    }

    /** The rows of a committed file; a file without a first row id or rows has none. */
    public static RowRange of(DataFileMeta file) {
        if (file.firstRowId() == null || file.rowCount() == 0) {
            throw Errors.invalidLayout(
                    "Data file "
                            + file.fileName()
                            + " has no row-id range (first row id "
                            + file.firstRowId()
                            + ", "
                            + file.rowCount()
                            + " rows).");
        }
        return new RowRange(file.firstRowId(), file.firstRowId() + file.rowCount() - 1);
    }

    public boolean intersects(RowRange other) {
        return first <= other.last && other.first <= last;
    }

    public boolean contains(RowRange other) {
        return first <= other.first && other.last <= last;
    }

    public boolean contains(long rowId) {
        return first <= rowId && rowId <= last;
    }

    @Override
    public String toString() {
        return "[" + first + ", " + last + "]";
    }
}
