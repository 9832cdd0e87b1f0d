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
package io.dovetail.flink.system;

import io.dovetail.table.TableStore;
import io.dovetail.table.delete.DeletionVectorAnchors;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.RowGroups;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

import static io.dovetail.flink.system.Values.string;
import static io.dovetail.flink.system.Values.strings;

/**
 * {@code t$row_groups}: one row per row-range group of the snapshot, as the read planner groups the
 * live files ({@link RowGroups}), in row-id order: what a reader stitches into one set of rows and
 * what compaction would merge. {@code files} lists the group's files oldest first, by the anchor
 * order, so the first is the anchor the deletion vector is stored against; each names the columns
 * it stores (its write columns resolved through its own schema). {@code row_count} counts every
 * position of the range, {@code deleted_rows} those the group's deletion vector hides, and {@code
 * max_sequence_number} is the newest file's.
 */
final class RowGroupsTable implements SystemTable {

    /** One file of a group: its name, the columns it stores, its bytes and sequence number. */
    private static final DataType FILE =
            DataTypes.ROW(
                    DataTypes.FIELD("file_name", DataTypes.STRING().notNull()),
                    DataTypes.FIELD("columns", DataTypes.ARRAY(DataTypes.STRING())),
                    DataTypes.FIELD("bytes", DataTypes.BIGINT().notNull()),
                    DataTypes.FIELD("max_sequence_number", DataTypes.BIGINT().notNull()));

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("partition", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("first_row_id", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("last_row_id", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("row_count", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("file_count", DataTypes.INT().notNull()),
                                    DataTypes.FIELD("files", DataTypes.ARRAY(FILE).notNull()),
                                    DataTypes.FIELD("total_bytes", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("deleted_rows", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD(
                                            "max_sequence_number", DataTypes.BIGINT().notNull()))
                            .notNull()
                            .getLogicalType();

    @Override
    public String name() {
        return "row_groups";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }

    @Override
    public List<RowData> rows(TableStore store, @Nullable Snapshot snapshot) {
        if (snapshot == null) {
            return List.of();
        }
        LiveFiles files = LiveFiles.of(store, snapshot);
        List<List<ManifestEntry>> groups = RowGroups.ofLiveFiles(files.entries());
        List<RowData> rows = new ArrayList<>();
        for (List<ManifestEntry> group : groups) {
            rows.add(row(group, files));
        }
        return rows;
    }

    private static RowData row(List<ManifestEntry> group, LiveFiles files) {
        List<DataFileMeta> members =
                group.stream()
                        .map(ManifestEntry::file)
                        .sorted(DeletionVectorAnchors.ANCHOR_ORDER)
                        .toList();
        DataFileMeta anchor = members.get(0);
        RowRange range = RowRange.of(anchor);
        Object[] described = new Object[members.size()];
        long bytes = 0;
        for (int i = 0; i < described.length; i++) {
            DataFileMeta file = members.get(i);
            described[i] =
                    GenericRowData.of(
                            string(file.fileName()),
                            strings(files.columns(file)),
                            file.fileSize(),
                            file.maxSequenceNumber());
            bytes += file.fileSize();
        }
        Long deleted = files.deletedRows(anchor);
        return GenericRowData.of(
                string(files.partition(group.get(0))),
                range.first(),
                range.last(),
                range.count(),
                members.size(),
                new GenericArrayData(described),
                bytes,
                deleted == null ? 0L : deleted,
                members.get(members.size() - 1).maxSequenceNumber());
    }
}
