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
package io.dovetail.table.manifest;

import io.dovetail.table.error.Errors;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** An inclusive interval {@code [first, last]} of row ids. */
public record RowRange(long first, long last) {

    public RowRange {
        if (first < 0 || last < first) {
            throw Errors.invalidArgument("Invalid row-id range [" + first + ", " + last + "]");
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

    /** The range of {@code count >= 1} rows starting at {@code first}. */
    public static RowRange ofCount(long first, long count) {
        return new RowRange(first, first + count - 1);
    }

    public long count() {
        return last - first + 1;
    }

    public boolean contains(long rowId) {
        return rowId >= first && rowId <= last;
    }

    public boolean overlaps(RowRange other) {
        return first <= other.last && other.first <= last;
    }

    public boolean contains(RowRange other) {
        return first <= other.first && other.last <= last;
    }

    /**
     * Sorted, disjoint, non-adjacent ranges covering exactly the ids of {@code ranges} (the form
     * {@code _ROW_ID =}, {@code IN}, {@code BETWEEN} and their AND/OR combinations reduce to).
     */
    public static List<RowRange> normalize(List<RowRange> ranges) {
        List<RowRange> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(RowRange::first));
        List<RowRange> out = new ArrayList<>();
        for (RowRange r : sorted) {
            RowRange previous = out.isEmpty() ? null : out.get(out.size() - 1);
            if (previous != null && r.first - 1 <= previous.last) { // no overflow at MAX_VALUE
                out.set(
                        out.size() - 1,
                        new RowRange(previous.first, Math.max(previous.last, r.last)));
            } else {
                out.add(r);
            }
        }
        return List.copyOf(out);
    }

    /** The parts of normalized {@code ranges} inside this range, in order. */
    public List<RowRange> intersect(List<RowRange> ranges) {
        List<RowRange> out = new ArrayList<>();
        for (RowRange r : ranges) {
            if (overlaps(r)) {
                out.add(new RowRange(Math.max(first, r.first), Math.min(last, r.last)));
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "[" + first + ", " + last + "]";
    }
}
