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
package io.dovetail.e2e.interop;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Data-evolution tables the interop tests create and append to through Dovetail. */
public final class DovetailTables {

    private DovetailTables() {}

    /**
     * Creates {@code default.<name>} in {@code warehouse}: row tracking and data evolution on,
     * Parquet files, plus {@code options}.
     */
    static TableStore create(
            java.nio.file.Path warehouse,
            String name,
            List<DataField> fields,
            List<String> partitionKeys,
            Map<String, String> options) {
        return create(new Path(warehouse.toUri()), name, fields, partitionKeys, options);
    }

    /** Like {@link #create(java.nio.file.Path, String, List, List, Map)} on any file system. */
    public static TableStore create(
            Path warehouse,
            String name,
            List<DataField> fields,
            List<String> partitionKeys,
            Map<String, String> options) {
        TableStore store = TableStore.at(new Warehouse(warehouse).table("default", name));
        Map<String, String> all = new HashMap<>();
        all.put("row-tracking.enabled", "true");
        all.put("data-evolution.enabled", "true");
        all.put("file.format", "parquet");
        all.putAll(options);
        store.schemas().createTable(fields, partitionKeys, List.of(), all, null);
        return store;
    }

    /** {@code id BIGINT, name STRING, score DOUBLE, region STRING}, partitioned by region. */
    static TableStore regionTable(java.nio.file.Path warehouse, String name) {
        return regionTable(new Path(warehouse.toUri()), name, Map.of());
    }

    /** A region table in any warehouse, with extra {@code options}. */
    public static TableStore regionTable(Path warehouse, String name, Map<String, String> options) {
        return create(
                warehouse,
                name,
                List.of(
                        new DataField(0, "id", DataTypes.BIGINT()),
                        new DataField(1, "name", DataTypes.STRING()),
                        new DataField(2, "score", DataTypes.DOUBLE()),
                        new DataField(3, "region", DataTypes.STRING())),
                List.of("region"),
                options);
    }

    /** Appends rows {@code id = first ..} to {@code region} of a region table as one file. */
    public static void appendToRegion(
            TableStore store, String user, long identifier, long first, int count, String region) {
        List<RowData> rows = new ArrayList<>();
        for (long id = first; id < first + count; id++) {
            rows.add(GenericRowData.of(id, str("name-" + id), id * 0.25, str(region)));
        }
        append(store, user, identifier, GenericRowData.of(str(region)), rows);
    }

    /** Writes {@code rows} (every column) as one file of {@code partition} and commits it. */
    static void append(
            TableStore store,
            String user,
            long identifier,
            RowData partition,
            List<? extends RowData> rows) {
        List<ManifestEntry> files;
        try (DataFileWriter writer =
                DataFileWriter.forAppend(store.paths(), store.latestSchema(), partition)) {
            rows.forEach(writer::write);
            files = writer.finish();
        }
        new TableCommit(store).commit(CommitRequest.append(user, identifier, files));
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
