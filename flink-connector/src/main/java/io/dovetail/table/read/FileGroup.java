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

import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.RowRange;

import javax.annotation.Nullable;

import java.util.List;

/**
 * One row-range group of a partition, planned for one read: the range, the group's anchor (its
 * oldest normal file: the deletion-vector key and the row-count representative), the files to open
 * with the columns each provides, where every output column comes from, the anchor's deletion
 * vector and the selected row ranges (sorted, disjoint, inside the range; null: the whole range).
 * Readers skip the blocks of every file that hold no selected row.
 */
public record FileGroup(
        byte[] partition,
        RowRange range,
        DataFileMeta anchor,
        List<GroupFile> files,
        List<FieldSource> sources,
        @Nullable DeletionFile deletionFile,
        @Nullable List<RowRange> selection) {

    public FileGroup {
        partition = partition.clone();
        files = List.copyOf(files);
        sources = List.copyOf(sources);
        selection = selection == null ? null : List.copyOf(selection);
    }

    @Override
    public byte[] partition() {
        return partition.clone();
    }

    /**
     * This group with every position of its range: no deletion vector, no row selection. Writers
     * that rewrite a whole range (partial-column files, compaction) read it so, keeping positions
     * hidden by the vector aligned.
     */
    public FileGroup readInFull() {
        return new FileGroup(partition, range, anchor, files, sources, null, null);
    }

    /** The split-packing weight: the bytes of the opened files, at least {@code openFileCost}. */
    public long weight(long openFileCost) {
        long bytes = 0;
        for (GroupFile file : files) {
            bytes += file.meta().fileSize();
        }
        return Math.max(bytes, openFileCost);
    }
}
