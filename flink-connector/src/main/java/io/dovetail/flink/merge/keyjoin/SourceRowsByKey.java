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
package io.dovetail.flink.merge.keyjoin;

import io.dovetail.flink.memory.RowArena;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.List;

/**
 * A merge source's rows by join key, for the broadcast key join (the merge's broadcast key join
 * writer): the rows as copies in a {@link RowArena} (no object per row) under an open-addressing
 * table of their keys. Source rows and the target rows probed both carry the key in their first
 * fields, with no NULL in it. A key given by two source rows keeps both, so a target row it matches
 * can be refused naming both rows.
 */
public interface SourceRowsByKey {

    /** A table for keys of {@code keyTypes}: one integral column is held as a long. */
    public static SourceRowsByKey of(List<LogicalType> keyTypes) {
        return keyTypes.size() == 1 && LongKeyedRows.holds(keyTypes.get(0))
                ? new LongKeyedRows(keyTypes.get(0))
                : new BinaryKeyedRows(keyTypes);
    }

    /** Adds a copy of source row {@code row}. */
    public void add(BinaryRowData row);

    /** The entry of the source row whose key {@code target}'s first fields are, or -1. */
    public int find(RowData target);

    /** Another entry with the key of {@code entry}, or -1 if no other source row has it. */
    public int duplicateOf(int entry);

    /** Points {@code view} at the source row of {@code entry}. */
    public BinaryRowData row(int entry, BinaryRowData view);

    /** The source rows added. */
    public int size();

    /** The heap the rows and their table take, about. */
    public long heapBytes();
}
