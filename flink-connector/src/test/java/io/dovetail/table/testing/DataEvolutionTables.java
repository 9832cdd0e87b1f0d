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
package io.dovetail.table.testing;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

import java.util.List;
import java.util.Map;

/** Unpartitioned data-evolution tables for tests, written through the core writer and commit. */
public final class DataEvolutionTables {

    private DataEvolutionTables() {}

    /** Creates an unpartitioned data-evolution table of {@code fields} at {@code store}. */
    public static TableSchema create(TableStore store, DataField... fields) {
        return store.schemas()
                .createTable(
                        List.of(fields),
                        List.of(),
                        List.of(),
                        Map.of("row-tracking.enabled", "true", "data-evolution.enabled", "true"),
                        null);
    }

    /** Appends {@code rows} as one file, committed by user "test" under {@code identifier}. */
    public static void append(
            TableStore store, TableSchema schema, long identifier, List<RowData> rows) {
        try (DataFileWriter writer =
                DataFileWriter.forAppend(store.paths(), schema, GenericRowData.of())) {
            for (RowData row : rows) {
                writer.write(row);
            }
            new TableCommit(store)
                    .commit(CommitRequest.append("test", identifier, writer.finish()));
        }
    }
}
