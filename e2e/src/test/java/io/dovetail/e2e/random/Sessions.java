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
package io.dovetail.e2e.random;

import io.dovetail.flink.sink.FaultyFileSystem;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.ArrayList;
import java.util.List;

/**
 * The SQL sessions of the test, each with catalog {@code dovetail} over the warehouse, current, as
 * {@code bin/dovetail-sql} opens it: one that reads ({@code SELECT *} without the metadata columns,
 * as in {@code bin/dovetail-sql}), one batch writer, one streaming writer (checkpoints every 200
 * ms), two batch writers for writes that run at once and one whose commits crash.
 */
final class Sessions {

    final TableEnvironment reads;
    final TableEnvironment writes;
    final TableEnvironment streaming;

    /**
     * A batch writer whose catalog reaches the warehouse through the fault-injecting file system,
     * with one restart allowed ({@link CrashedWrite}).
     */
    final TableEnvironment crashing;

    /** Batch writers of their own for {@link ConcurrentWrites}, one per write. */
    final List<TableEnvironment> concurrent = new ArrayList<>();

    Sessions(String warehouse) {
        reads = open(EnvironmentSettings.inBatchMode(), warehouse);
        reads.getConfig()
                .set("table.column-expansion-strategy", "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS");
        writes = open(EnvironmentSettings.inBatchMode(), warehouse);
        streaming = open(EnvironmentSettings.inStreamingMode(), warehouse);
        streaming.getConfig().set("execution.checkpointing.interval", "200 ms");
        for (int i = 0; i < 2; i++) {
            concurrent.add(open(EnvironmentSettings.inBatchMode(), warehouse));
        }
        crashing =
                open(
                        EnvironmentSettings.inBatchMode(),
                        FaultyFileSystem.SCHEME + "://" + warehouse);
        crashing.getConfig().set("restart-strategy.type", "fixed-delay");
        crashing.getConfig().set("restart-strategy.fixed-delay.attempts", "1");
        crashing.getConfig().set("restart-strategy.fixed-delay.delay", "0 s");
    }

    private static TableEnvironment open(EnvironmentSettings settings, String warehouse) {
        TableEnvironment sql = TableEnvironment.create(settings);
        sql.getConfig().set("parallelism.default", "2");
        sql.getConfig().set("restart-strategy.type", "disable");
        sql.executeSql(
                "CREATE CATALOG dovetail WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse
                        + "')");
        sql.executeSql("USE CATALOG dovetail");
        return sql;
    }

    /**
     * Runs one statement to its end; returns the rows it gives (a query's or a procedure's), taken
     * before waiting for its job: a query's job ends only once its rows are taken.
     */
    static List<Row> run(TableEnvironment sql, String statement) throws Exception {
        TableResult result = sql.executeSql(statement);
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(rows::add);
        }
        if (result.getJobClient().isPresent()) {
            result.getJobClient().get().getJobExecutionResult().get();
        }
        return rows;
    }
}
