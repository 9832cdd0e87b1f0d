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
import io.dovetail.table.manifest.ManifestFileMeta;
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
 * {@code t$manifests}: the data manifests of the snapshot (base manifests, then delta manifests) as
 * its manifest lists record them. Bucket, level and row-id bounds are null where the list does not
 * carry them; {@code max_row_id} is the last row id of the manifest's files.
 */
final class ManifestsTable implements SystemTable {

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("file_name", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("file_size", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD(
                                            "num_added_files", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD(
                                            "num_deleted_files", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("schema_id", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("min_bucket", DataTypes.INT()),
                                    DataTypes.FIELD("max_bucket", DataTypes.INT()),
                                    DataTypes.FIELD("min_level", DataTypes.INT()),
                                    DataTypes.FIELD("max_level", DataTypes.INT()),
                                    DataTypes.FIELD("min_row_id", DataTypes.BIGINT()),
                                    DataTypes.FIELD("max_row_id", DataTypes.BIGINT()))
                            .notNull()
                            .getLogicalType();

    @Override
    public String name() {
        return "manifests";
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
        List<RowData> rows = new ArrayList<>();
        for (ManifestFileMeta m : store.files(snapshot).dataManifests()) {
            rows.add(
                    GenericRowData.of(
                            string(m.fileName()),
                            m.fileSize(),
                            m.numAddedFiles(),
                            m.numDeletedFiles(),
                            m.schemaId(),
                            m.minBucket(),
                            m.maxBucket(),
                            m.minLevel(),
                            m.maxLevel(),
                            m.minRowId(),
                            m.maxRowId()));
        }
        return rows;
    }
}
