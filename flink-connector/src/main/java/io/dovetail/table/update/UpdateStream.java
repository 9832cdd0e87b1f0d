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
package io.dovetail.table.update;

import io.dovetail.table.error.Errors;

import javax.annotation.Nullable;

import java.util.Iterator;

/**
 * The caller's updates, checked as they are pulled: strictly ascending row ids (a repeated id is
 * named as such) and one value per updated column. An update is pulled only when the previous one
 * has been used, so callers may reuse their row objects.
 */
final class UpdateStream {

    private final Iterator<RowUpdate> updates;
    private final int columns;
    @Nullable private RowUpdate pending;
    private long lastRowId = Long.MIN_VALUE;

    UpdateStream(Iterator<RowUpdate> updates, int columns) {
        this.updates = updates;
        this.columns = columns;
    }

    /** The next update without taking it, or null when there is none left. */
    @Nullable
    RowUpdate peek() {
        if (pending == null && updates.hasNext()) {
            pending = check(updates.next());
        }
        return pending;
    }

    /** Takes the next update if it is for {@code rowId}, else returns null. */
    @Nullable
    RowUpdate takeIf(long rowId) {
        RowUpdate next = peek();
        if (next == null || next.rowId() != rowId) {
            return null;
        }
        pending = null;
        return next;
    }

    private RowUpdate check(RowUpdate update) {
        if (update == null) {
            throw Errors.invalidArgument("The updates contain a null element.");
        }
        if (update.rowId() == lastRowId) {
            throw Errors.invalidArgument(
                    "Row id "
                            + update.rowId()
                            + " is updated twice; give each row at most one new value.");
        }
        if (update.rowId() < lastRowId) {
            throw Errors.invalidArgument(
                    "Updates must come in ascending row-id order, but row id "
                            + update.rowId()
                            + " follows "
                            + lastRowId
                            + "; sort them by _ROW_ID.");
        }
        if (update.values().getArity() != columns) {
            throw Errors.invalidArgument(
                    "The update of row "
                            + update.rowId()
                            + " has "
                            + update.values().getArity()
                            + " values, but "
                            + columns
                            + " columns are updated.");
        }
        lastRowId = update.rowId();
        return update;
    }
}
