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

import org.apache.flink.table.data.RowData;

/**
 * The new values of one row: its {@code _ROW_ID} and one field per updated column, in the order the
 * {@link ColumnUpdater} was given the columns. A null field is an explicit NULL.
 */
public record RowUpdate(long rowId, RowData values) {

    public RowUpdate {
        if (values == null) {
            throw Errors.invalidArgument(
                    "The update of row " + rowId + " has no values; use a row of NULLs instead.");
        }
    }
}
