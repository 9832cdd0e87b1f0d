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
package io.dovetail.actions;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A batch Flink SQL session with the Dovetail catalog {@code dovetail} on one warehouse: how the
 * maintenance actions run the same procedures and statements as SQL users. Under {@code flink run}
 * its jobs go to the cluster the client submits to; elsewhere to an embedded MiniCluster.
 */
final class ActionSql {

    static final String CATALOG = "dovetail";

    private final TableEnvironment sql;

    ActionSql(String warehouse) {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.executeSql(
                "CREATE CATALOG "
                        + CATALOG
                        + " WITH ('type' = 'dovetail', 'warehouse' = "
                        + literal(Locations.toPath(warehouse).toString())
                        + ")");
    }

    /** Runs {@code statement} and prints each result row as {@code column: value} lines. */
    void runAndPrint(String statement, PrintStream out) {
        TableResult result = sql.executeSql(statement);
        List<String> columns = result.getResolvedSchema().getColumnNames();
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(rows::add);
        } catch (Exception e) {
            throw new IllegalStateException("Could not read the result of " + statement, e);
        }
        for (Row row : rows) {
            for (int i = 0; i < columns.size(); i++) {
                out.println(columns.get(i) + ": " + row.getField(i));
            }
        }
    }

    /** Runs {@code statement} to completion. */
    void execute(String statement) throws Exception {
        sql.executeSql(statement).await();
    }

    /** A SQL string literal. */
    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    /** A SQL identifier. */
    static String identifier(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
