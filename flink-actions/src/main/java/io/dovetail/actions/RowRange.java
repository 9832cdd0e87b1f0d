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
package io.dovetail.actions;

import io.dovetail.table.manifest.DataFileMeta;

import java.util.Comparator;
import java.util.Optional;

/** The row ids {@code [first, first + count)} a data file covers. */
record RowRange(long first, long count) {

    static final Comparator<RowRange> ORDER =
            Comparator.comparingLong(RowRange::first).thenComparingLong(RowRange::count);

    /** The file's range, or empty for a file without row ids (a table without row tracking). */
    static Optional<RowRange> of(DataFileMeta file) {
        return file.firstRowId() == null
                ? Optional.empty()
                : Optional.of(new RowRange(file.firstRowId(), file.rowCount()));
    }

    long end() {
        return first + count;
    }

    @Override
    public String toString() {
        return "[" + first + ", " + end() + ")";
    }
}
