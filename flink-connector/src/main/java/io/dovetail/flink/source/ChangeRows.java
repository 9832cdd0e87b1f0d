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
package io.dovetail.flink.source;

import io.dovetail.table.error.Errors;
import io.dovetail.table.read.ChangeRead;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.types.RowKind;

import javax.annotation.Nullable;

import java.util.List;

/**
 * The change rows of one {@link ChangeRead}, in row-id order: both sides are read by the core's
 * {@link SplitReader} and merged by {@code _ROW_ID}. A row only before is {@code -D}, a row only
 * after {@code +I}, a row on both sides whose values (the read's columns) differ is {@code -U}
 * followed by {@code +U}, and an unchanged row emits nothing. A read without a before side emits
 * its rows as they are read (reused views); compared rows are emitted as copies.
 */
final class ChangeRows implements AutoCloseable {

    private final ChangeRead read;
    private final int rowIdField;
    private final RowDataSerializer serializer;
    private final Side before;
    private final Side after;
    @Nullable private BinaryRowData updateAfter;
    private long rowsRead;

    ChangeRows(List<DataField> fields, int rowIdField, ChangeRead read, int batchSize) {
        this.read = read;
        this.rowIdField = rowIdField;
        this.serializer = new RowDataSerializer(FlinkTypes.toFlinkRowType(fields));
        this.before = new Side(SplitReader.open(fields, read.before(), batchSize));
        this.after = new Side(SplitReader.open(fields, read.after(), batchSize));
    }

    /** The next change row (valid until the next call), or null after the last one. */
    @Nullable
    RowData next() {
        if (updateAfter != null) {
            RowData row = updateAfter;
            updateAfter = null;
            return row;
        }
        if (read.insertsOnly()) {
            return after.next() ? after.row() : null;
        }
        while (true) {
            boolean hasBefore = before.current() || before.next();
            boolean hasAfter = after.current() || after.next();
            if (!hasBefore && !hasAfter) {
                return null;
            }
            long beforeId = hasBefore ? before.rowId() : Long.MAX_VALUE;
            long afterId = hasAfter ? after.rowId() : Long.MAX_VALUE;
            if (beforeId < afterId) {
                return before.take(RowKind.DELETE);
            }
            if (afterId < beforeId) {
                return after.take(RowKind.INSERT);
            }
            BinaryRowData old = before.take(RowKind.INSERT);
            BinaryRowData now = after.take(RowKind.INSERT);
            if (!old.equals(now)) { // same kind, so the bytes differ exactly where values do
                old.setRowKind(RowKind.UPDATE_BEFORE);
                now.setRowKind(RowKind.UPDATE_AFTER);
                updateAfter = now;
                return old;
            }
        }
    }

    /** Rows read from files so far, on both sides, changed or not. */
    long rowsRead() {
        return rowsRead;
    }

    @Override
    public void close() {
        before.reader.close();
        after.reader.close();
    }

    /** One side's rows in ascending row-id order, with one row looked at. */
    private final class Side {

        private final SplitReader reader;
        @Nullable private ReadBatch batch;
        private int index = -1;
        private boolean holding;
        private long lastRowId = -1;

        Side(SplitReader reader) {
            this.reader = reader;
        }

        /** Whether a row is looked at and not yet taken. */
        boolean current() {
            return holding;
        }

        /** Moves to the next row; false at the end. */
        boolean next() {
            index++;
            while (batch == null || index >= batch.size()) {
                batch = reader.nextBatch();
                index = 0;
                if (batch == null) {
                    holding = false;
                    return false;
                }
            }
            holding = true;
            rowsRead++;
            long rowId = row().getLong(rowIdField);
            if (rowId <= lastRowId) {
                throw Errors.invalidLayout(
                        "A changelog read of snapshot "
                                + read.snapshotId()
                                + " met row id "
                                + rowId
                                + " after "
                                + lastRowId
                                + "; the groups of a row range must yield ascending row ids.");
            }
            lastRowId = rowId;
            return true;
        }

        RowData row() {
            return batch.row(index);
        }

        long rowId() {
            return row().getLong(rowIdField);
        }

        /** A copy of the row looked at, of {@code kind}; the side moves on at the next look. */
        BinaryRowData take(RowKind kind) {
            BinaryRowData copy = serializer.toBinaryRow(row()).copy();
            copy.setRowKind(kind);
            holding = false;
            return copy;
        }
    }
}
