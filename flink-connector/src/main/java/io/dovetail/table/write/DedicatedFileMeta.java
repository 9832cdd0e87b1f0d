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
package io.dovetail.table.write;

import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.stats.SimpleStatsConverter;

import java.util.List;

/**
 * The metadata of a new dedicated file ({@code .blob} or vector-store): its columns in {@code
 * writeCols} and no value statistics (readers take none from dedicated files, and Paimon writes
 * them so).
 */
final class DedicatedFileMeta {

    private DedicatedFileMeta() {}

    static DataFileMeta of(
            String fileName, long size, long rows, long schemaId, List<String> writeCols) {
        return DataFileMeta.builder(fileName)
                .fileSize(size)
                .rowCount(rows)
                .valueStats(new SimpleStatsConverter(List.of()).toStats(List.of()))
                .valueStatsCols(List.of())
                .schemaId(schemaId)
                .creationTime(DataFileMeta.localNowAsUtcMillis())
                .writeCols(writeCols)
                .build();
    }
}
