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
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.snapshot.Consumers;

import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Streaming reads against the writers' snapshot expiry: each SQL INSERT commit expires snapshots
 * per {@code snapshot.num-retained.*} (here: keep one). A read that needs an expired snapshot fails
 * with an error naming {@code consumer-id}; a read with {@code consumer-id} keeps what it has not
 * read yet, and a new job with the same id continues there.
 */
class StreamingReadConsumerITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir java.nio.file.Path warehouse;

    private TableEnvironment batch;
    private TableEnvironment streaming;
    private TableStore store;

    @BeforeEach
    void createTable() {
        batch = session(EnvironmentSettings.inBatchMode());
        streaming = session(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("execution.checkpointing.interval", "100ms");
        streaming.getConfig().set("restart-strategy.type", "none"); // a failed read stays failed
        batch.executeSql(
                "CREATE TABLE t (id BIGINT) WITH ('snapshot.num-retained.min' = '1',"
                        + " 'snapshot.num-retained.max' = '1')");
        store = TableStore.open(new Warehouse(new Path(warehouse.toUri())).table("default", "t"));
    }

    /**
     * The read is stopped with a savepoint after snapshot 1 and resumed from it after 2 and 3
     * expired 1 and 2: it cannot read the changes of 2. (A read that keeps running meets the same
     * error, but could also read 2 in the instant between its commit and that commit's expiry.)
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void readingChangesWhoseBaseExpiredFailsNamingConsumerId() throws Exception {
        insert(1); // 1
        String query = "SELECT id FROM t";
        TableResult first = streaming.executeSql(query);
        String savepoint;
        try (CloseableIterator<Row> rows = first.collect()) {
            assertThat(take(rows, 1)).containsExactly("+I[1]");
            savepoint =
                    first.getJobClient()
                            .orElseThrow()
                            .stopWithSavepoint(
                                    false,
                                    warehouse.resolve("savepoints").toUri().toString(),
                                    SavepointFormatType.CANONICAL)
                            .get();
        }
        insert(2); // 2: expires 1, the base of the changes of 2
        insert(3); // 3: expires 2
        assertThat(store.snapshots().listIds()).containsExactly(3);

        streaming.getConfig().set("execution.state-recovery.path", savepoint);
        // the collect sink of the new query is a new operator; the source is restored
        streaming.getConfig().set("execution.state-recovery.ignore-unclaimed-state", "true");
        try (CloseableIterator<Row> rows = streaming.executeSql(query).collect()) {
            assertThatThrownBy(rows::hasNext)
                    .hasStackTraceContaining("was expired before this streaming read got to it")
                    .hasStackTraceContaining("Set the 'consumer-id' option");
        }
    }

    @Test
    void startingFromAnExpiredSnapshotFailsNamingConsumerId() throws Exception {
        insert(1);
        insert(2);
        insert(3); // keeps 3 alone
        assertThatThrownBy(
                        () ->
                                streaming.executeSql(
                                        "SELECT id FROM t /*+ OPTIONS('scan.mode' ="
                                                + " 'from-snapshot', 'scan.snapshot-id' = '2') */"))
                .hasStackTraceContaining("snapshot 1 was expired before this streaming read got")
                .hasStackTraceContaining("Set the 'consumer-id' option");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aConsumerIdKeepsUnreadSnapshotsAndANewJobContinuesThere() throws Exception {
        insert(1); // 1
        String query =
                "SELECT id FROM t /*+ OPTIONS('consumer-id' = 'reader',"
                        + " 'continuous.discovery-interval' = '50ms') */";
        TableResult first = streaming.executeSql(query);
        try (CloseableIterator<Row> rows = first.collect()) {
            assertThat(take(rows, 1)).containsExactly("+I[1]");
            Consumers consumers = new Consumers(store.paths());
            while (consumers.position("reader").orElse(0) != 2) {
                Thread.sleep(50); // read to 1: snapshot 2 is next (compared with 1)
            }
        } finally {
            first.getJobClient().orElseThrow().cancel().get();
        }

        insert(2); // 2
        insert(3); // 3
        insert(4); // 4
        assertThat(store.snapshots().listIds())
                .as("expiry keeps the consumer's snapshot and all after it")
                .containsExactly(1, 2, 3, 4);

        TableResult second = streaming.executeSql(query);
        try (CloseableIterator<Row> rows = second.collect()) {
            assertThat(take(rows, 3)).containsExactly("+I[2]", "+I[3]", "+I[4]");
            insert(5); // 5: the next row is this one, row 1 is not read again
            assertThat(take(rows, 1)).containsExactly("+I[5]");
        } finally {
            second.getJobClient().orElseThrow().cancel().get();
        }
    }

    private void insert(long id) throws Exception {
        batch.executeSql("INSERT INTO t VALUES (" + id + ")").await();
    }

    private static List<String> take(CloseableIterator<Row> rows, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(rows.next().toString());
        }
        return out;
    }

    private TableEnvironment session(EnvironmentSettings settings) {
        TableEnvironment env = TableEnvironment.create(settings);
        env.getConfig().set("parallelism.default", "1");
        env.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        env.executeSql("USE CATALOG dt");
        return env;
    }
}
