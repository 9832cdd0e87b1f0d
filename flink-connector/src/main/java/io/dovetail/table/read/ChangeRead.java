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

import java.util.List;

/**
 * One unit of a changelog read: rows of one partition's row-id range as they were in the previous
 * snapshot ({@code before}, empty for rows the snapshot added or a full read) and as they are in
 * snapshot {@code snapshotId} ({@code after}), both with deletion vectors applied and the same
 * columns, {@code _ROW_ID} among them. Each side yields its rows in ascending row-id order, so
 * comparing them by row id gives the changes: a row only before was removed, a row only after was
 * added, a row on both sides with different values was updated.
 */
public record ChangeRead(long snapshotId, ReadSplit before, ReadSplit after) {

    /** A read with no groups: the side of a change that has no rows. */
    public static final ReadSplit NOTHING = new ReadSplit(List.of());

    /** Whether every row of this read is an insert (nothing to compare with). */
    public boolean insertsOnly() {
        return before.groups().isEmpty();
    }
}
