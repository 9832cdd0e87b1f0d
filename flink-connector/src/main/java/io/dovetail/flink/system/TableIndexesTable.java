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
import io.dovetail.table.index.DeletionVectorMeta;
import io.dovetail.table.index.GlobalIndexMeta;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

import static io.dovetail.flink.system.Values.string;

/**
 * {@code t$table_indexes}: one row per index file of the snapshot, with Paimon's columns: the
 * deletion-vector files ({@code DELETION_VECTORS}, {@code dv_ranges} one element per vector: data
 * file, offset, length, cardinality) and the global indexes built by {@code create_global_index}
 * ({@code btree}, {@code bitmap} ...: the row ids they cover and the indexed field, by id and by
 * its current name). {@code partition} is rendered as in {@code $files}.
 */
final class TableIndexesTable implements SystemTable {

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("partition", DataTypes.STRING()),
                                    DataTypes.FIELD("bucket", DataTypes.INT().notNull()),
                                    DataTypes.FIELD("index_type", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("file_name", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("file_size", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("row_count", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD(
                                            "dv_ranges",
                                            DataTypes.ARRAY(
                                                    DataTypes.ROW(
                                                            DataTypes.FIELD(
                                                                    "f0",
                                                                    DataTypes.STRING().notNull()),
                                                            DataTypes.FIELD(
                                                                    "f1",
                                                                    DataTypes.INT().notNull()),
                                                            DataTypes.FIELD(
                                                                    "f2",
                                                                    DataTypes.INT().notNull()),
                                                            DataTypes.FIELD(
                                                                    "_CARDINALITY",
                                                                    DataTypes.BIGINT())))),
                                    DataTypes.FIELD("row_range_start", DataTypes.BIGINT()),
                                    DataTypes.FIELD("row_range_end", DataTypes.BIGINT()),
                                    DataTypes.FIELD("index_field_id", DataTypes.INT()),
                                    DataTypes.FIELD("index_field_name", DataTypes.STRING()))
                            .notNull()
                            .getLogicalType();

    @Override
    public String name() {
        return "table_indexes";
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
        TableSchema schema = store.latestSchema();
        List<RowData> rows = new ArrayList<>();
        for (IndexManifestEntry entry : files.indexFiles()) {
            IndexFileMeta file = entry.indexFile();
            GlobalIndexMeta global = file.globalIndex();
            rows.add(
                    GenericRowData.of(
                            string(files.partition(entry.partition())),
                            entry.bucket(),
                            string(file.indexType()),
                            string(file.fileName()),
                            file.fileSize(),
                            file.rowCount(),
                            ranges(file.deletionVectors()),
                            global == null ? null : global.rowRangeStart(),
                            global == null ? null : global.rowRangeEnd(),
                            global == null ? null : global.indexFieldId(),
                            global == null ? null : string(fieldName(schema, global))));
        }
        return rows;
    }

    @Nullable
    private static ArrayData ranges(@Nullable List<DeletionVectorMeta> vectors) {
        if (vectors == null) {
            return null;
        }
        return new GenericArrayData(
                vectors.stream()
                        .map(
                                v ->
                                        GenericRowData.of(
                                                string(v.dataFileName()),
                                                v.offset(),
                                                v.length(),
                                                v.cardinality()))
                        .toArray());
    }

    /**
     * The indexed field's name in {@code schema}, or null when the field was dropped; a
     * multi-column index names its fields joined by commas.
     */
    @Nullable
    private static String fieldName(TableSchema schema, GlobalIndexMeta meta) {
        List<Integer> ids = new ArrayList<>();
        ids.add(meta.indexFieldId());
        if (meta.extraFieldIds() != null) {
            ids.addAll(meta.extraFieldIds());
        }
        List<String> names = new ArrayList<>();
        for (int id : ids) {
            String name =
                    schema.fields().stream()
                            .filter(f -> f.id() == id)
                            .map(DataField::name)
                            .findFirst()
                            .orElse(null);
            if (name == null) {
                return null;
            }
            names.add(name);
        }
        return String.join(",", names);
    }
}
