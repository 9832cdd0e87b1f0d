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
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.Path;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Data-evolution tables the interop tests create through Dovetail. */
final class DovetailTables {

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
        TableStore store =
                TableStore.at(new Warehouse(new Path(warehouse.toUri())).table("default", name));
        Map<String, String> all = new HashMap<>();
        all.put("row-tracking.enabled", "true");
        all.put("data-evolution.enabled", "true");
        all.put("file.format", "parquet");
        all.putAll(options);
        store.schemas().createTable(fields, partitionKeys, List.of(), all, null);
        return store;
    }
}
