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
package io.dovetail.table.read;

import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.types.DataField;

import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.List;

/**
 * Every row of one contiguous row-id range, in row-id order, read in full (no deletion vector, no
 * row selection) from the groups that tile it: the read behind each rewrite that must keep files
 * aligned by position (backfill, compaction, rebase). A row id that is missing or out of place is a
 * clear invalid-layout error, and nothing is committed.
 */
public final class RangeRows implements AutoCloseable {

    private final SplitReader reader;
    private final RowRange range;
    private final String action;
    private final int rowIdField;
    @Nullable private ReadBatch batch;
    private int next;
    private long expected;

    private RangeRows(SplitReader reader, RowRange range, String action, int rowIdField) {
        this.reader = reader;
        this.range = range;
        this.action = action;
        this.rowIdField = rowIdField;
        this.expected = range.first();
    }

    /**
     * @param fields the columns to read, {@code _ROW_ID} last
     * @param groups the groups that tile {@code range}, in row-id order
     * @param action what the rows are read for, for errors ("compact row range [0, 9]")
     */
    public static RangeRows open(
            List<DataField> fields, List<FileGroup> groups, RowRange range, String action) {
        if (fields.isEmpty() || !fields.get(fields.size() - 1).equals(SystemFields.ROW_ID)) {
            throw new IllegalArgumentException("_ROW_ID must be the last field read: " + fields);
        }
        List<FileGroup> inFull = groups.stream().map(FileGroup::readInFull).toList();
        return new RangeRows(
                SplitReader.open(fields, new ReadSplit(inFull), SplitReader.DEFAULT_BATCH_SIZE),
                range,
                action,
                fields.size() - 1);
    }

    /** The next row (valid until the following call), or null after the last row of the range. */
    @Nullable
    public RowData next() {
        while (batch == null || next == batch.size()) {
            batch = reader.nextBatch();
            next = 0;
            if (batch == null) {
                if (expected != range.last() + 1) {
                    throw misaligned("the read ended before row id " + expected);
                }
                return null;
            }
        }
        RowData row = batch.row(next++);
        long rowId = row.getLong(rowIdField);
        if (rowId != expected) {
            throw misaligned("read row id " + rowId + " where " + expected + " was due");
        }
        expected++;
        return row;
    }

    @Override
    public void close() {
        reader.close();
    }

    private RuntimeException misaligned(String problem) {
        return Errors.invalidLayout(
                "Cannot "
                        + action
                        + ": "
                        + problem
                        + "; every position of the range must be written once, in row-id order."
                        + " Nothing was committed.");
    }
}
