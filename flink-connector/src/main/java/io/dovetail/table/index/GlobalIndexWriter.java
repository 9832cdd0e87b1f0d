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
package io.dovetail.table.index;

import org.apache.flink.core.fs.Path;

import javax.annotation.Nullable;

/** Writes one global index file of one column over a run of row ids, as Paimon 1.4.2 does. */
public interface GlobalIndexWriter {

    /**
     * A writer of a new file of {@code indexType} ({@code btree} or {@code bitmap}) in {@code
     * indexDir} whose keys are of {@code keys}.
     */
    static GlobalIndexWriter create(String indexType, Path indexDir, BTreeKeys keys) {
        return BitmapIndexFile.INDEX_TYPE.equals(indexType)
                ? new BitmapIndexWriter(indexDir, keys)
                : new BTreeIndexWriter(indexDir, keys);
    }

    /**
     * Adds a row: its key ({@code null} for a NULL value) and its row id relative to the file's row
     * range start. Non-null keys must come in ascending order.
     */
    void add(@Nullable byte[] rowKey, long rowId);

    /** Rows added so far, NULL values included. */
    long rowCount();

    /**
     * Completes the file and returns its index manifest metadata: the index of field {@code
     * fieldId} over rows {@code [rowRangeStart, rowRangeEnd]}.
     */
    IndexFileMeta finish(long rowRangeStart, long rowRangeEnd, int fieldId);

    /** Closes and deletes the unfinished file. */
    void abort();
}
