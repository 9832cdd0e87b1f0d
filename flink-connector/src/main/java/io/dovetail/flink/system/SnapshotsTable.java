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
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

import static io.dovetail.flink.system.Values.string;

/**
 * {@code t$snapshots}: one row per snapshot file present, earliest to latest, with Paimon's
 * columns. {@code total_record_count} sums the rows of every live file, partial-column files
 * included, so it is not the logical row count; {@code commit_time} is the commit's local time in
 * this JVM's zone.
 */
final class SnapshotsTable implements SystemTable {

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("snapshot_id", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("schema_id", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("commit_user", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD(
                                            "commit_identifier", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("commit_kind", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD(
                                            "commit_time", DataTypes.TIMESTAMP(3).notNull()),
                                    DataTypes.FIELD(
                                            "base_manifest_list", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD(
                                            "delta_manifest_list", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("changelog_manifest_list", DataTypes.STRING()),
                                    DataTypes.FIELD("total_record_count", DataTypes.BIGINT()),
                                    DataTypes.FIELD("delta_record_count", DataTypes.BIGINT()),
                                    DataTypes.FIELD("changelog_record_count", DataTypes.BIGINT()),
                                    DataTypes.FIELD("watermark", DataTypes.BIGINT()),
                                    DataTypes.FIELD("next_row_id", DataTypes.BIGINT()))
                            .notNull()
                            .getLogicalType();

    @Override
    public String name() {
        return "snapshots";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }

    @Override
    public List<RowData> rows(TableStore store, @Nullable Snapshot latest) {
        List<RowData> rows = new ArrayList<>();
        for (long id : store.snapshots().listIds()) {
            Snapshot s = store.snapshots().snapshot(id);
            rows.add(
                    GenericRowData.of(
                            s.id(),
                            s.schemaId(),
                            string(s.commitUser()),
                            s.commitIdentifier(),
                            string(s.commitKind()),
                            Values.localTime(s.timeMillis()),
                            string(s.baseManifestList()),
                            string(s.deltaManifestList()),
                            string(s.changelogManifestList()),
                            s.totalRecordCount(),
                            s.deltaRecordCount(),
                            s.changelogRecordCount(),
                            s.watermark(),
                            s.nextRowId()));
        }
        return rows;
    }
}
