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
package io.dovetail.flink.procedure;

import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.EvolvingTable;
import io.dovetail.table.testing.RenderedReads;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A batch SQL session on catalog {@code dt} over a warehouse, and table {@code db.t} written there
 * through the core ({@link EvolvingTable}) for procedures to work on.
 */
final class ProcedureSession {

    final TableEnvironment sql;
    final EvolvingTable table;

    ProcedureSession(java.nio.file.Path warehouse, Map<String, String> tableOptions) {
        table = new EvolvingTable(warehouse.resolve("db.db").resolve("t"), true, tableOptions);
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
    }

    /** The rows a statement returns, their fields by column name. */
    List<Row> call(String statement) {
        return namedRows(sql.executeSql(statement));
    }

    /** The rows of {@code result}, their fields by column name. */
    static List<Row> namedRows(TableResult result) {
        List<Row> rows = new ArrayList<>();
        List<String> columns = result.getResolvedSchema().getColumnNames();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(
                    row -> {
                        Row named = Row.withNames();
                        for (int i = 0; i < columns.size(); i++) {
                            named.setField(columns.get(i), row.getField(i));
                        }
                        rows.add(named);
                    });
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }

    /** Every column of {@code snapshot} and the row ids, read by the core reader. */
    List<String> read(Snapshot snapshot) {
        ReadRequest request =
                ReadRequest.allColumns(table.store.latestSchema())
                        .withColumns("id", "name", "score", "dt", "_ROW_ID");
        return RenderedReads.read(new ReadPlanner(table.store).plan(snapshot, request));
    }
}
