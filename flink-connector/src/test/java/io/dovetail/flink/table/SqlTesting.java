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
package io.dovetail.flink.table;

import io.dovetail.table.TableStore;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.ArrayList;
import java.util.List;

/** Statements run to completion and tables of the {@code default} database, for SQL tests. */
final class SqlTesting {

    private final java.nio.file.Path warehouse;

    SqlTesting(java.nio.file.Path warehouse) {
        this.warehouse = warehouse;
    }

    /** Runs a statement and waits for its job (if any) to finish. */
    static void execute(TableEnvironment env, String statement) {
        try {
            env.executeSql(statement).await();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** A query's rows in {@link Row#toString()} form. */
    static List<String> rows(TableEnvironment env, String query) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        return out;
    }

    /**
     * A streaming session on {@code cluster} with the warehouse as catalog {@code dt}: parallelism
     * 2, a checkpoint a second.
     */
    TableEnvironment streamingSession(MiniClusterExtension cluster) {
        TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().addConfiguration(cluster.getClientConfiguration());
        streaming.getConfig().set("execution.target", "remote");
        streaming.getConfig().set("parallelism.default", "2");
        streaming.getConfig().set("execution.checkpointing.interval", "1 s");
        execute(
                streaming,
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        return streaming;
    }

    TableStore store(String table) {
        return TableStore.open(new Warehouse(new Path(warehouse.toUri())).table("default", table));
    }

    Snapshot latest(String table) {
        return store(table).latestSnapshot().orElseThrow();
    }

    List<ManifestEntry> liveFiles(String table) {
        return store(table).files(latest(table)).liveFiles();
    }
}
