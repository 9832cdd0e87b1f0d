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

import io.dovetail.flink.sink.FaultyFileSystem;
import io.dovetail.table.TableStore;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pipeline data-evolution tables are for, in Flink SQL on one MiniCluster: a streaming INSERT
 * of documents with an image column, and a second streaming job that reads each new row (the
 * default insert-only changelog) and writes an embedding of {@value #DIM} floats back by {@code
 * _ROW_ID} through {@code docs$column_updates}. Both jobs are checkpointed and fail: each one's UDF
 * throws once mid-stream, and two snapshot publications crash (whichever job's committer makes
 * them), before and after the rename. Every row arrives once and gets exactly its embedding, no
 * checkpoint commits twice, and no file but the appends' holds an image: the embeddings are
 * partial-column files of that column alone.
 */
class EmbedPipelineITCase {

    static final int DIM = 8;
    private static final int ROWS = 3_000;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir java.nio.file.Path dir;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void everyNewRowGetsItsEmbeddingOnceDespiteFailuresInBothJobs() throws Exception {
        String warehouse = FaultyFileSystem.SCHEME + "://" + dir.resolve("wh");
        TableEnvironment batch = session(EnvironmentSettings.inBatchMode(), warehouse);
        SqlTesting.execute(
                batch,
                "CREATE TABLE docs (id BIGINT, body STRING, image BYTES, embedding"
                        + " ARRAY<FLOAT>)");
        TableEnvironment streaming = session(EnvironmentSettings.inStreamingMode(), warehouse);
        streaming.getConfig().set("execution.checkpointing.interval", "200 ms");
        streaming.getConfig().set("restart-strategy.type", "fixed-delay");
        streaming.getConfig().set("restart-strategy.fixed-delay.attempts", "20");
        streaming.getConfig().set("restart-strategy.fixed-delay.delay", "100 ms");
        streaming.getConfig().set("parallelism.default", "2");
        streaming.createTemporarySystemFunction("arrive", FailingOnce.Arrive.class);
        streaming.createTemporarySystemFunction("embed", FailingOnce.Embed.class);
        FailingOnce.arm(ROWS / 2);
        int published = FaultyFileSystem.publications.get();
        int crashes = FaultyFileSystem.crashes.get();
        FaultyFileSystem.crashBefore.add(published + 4);
        FaultyFileSystem.crashAfter.add(published + 9);

        TableResult embedding =
                streaming.executeSql(
                        "INSERT INTO `docs$column_updates` (_ROW_ID, embedding) SELECT _ROW_ID,"
                                + " embed(body) FROM `docs$row_tracking` /*+"
                                + " OPTIONS('continuous.discovery-interval' = '100 ms') */");
        SqlTesting.execute(
                streaming,
                "CREATE TEMPORARY TABLE arrivals (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '0',"
                        + " 'fields.id.end' = '"
                        + (ROWS - 1)
                        + "', 'rows-per-second' = '100000000')");
        try {
            streaming
                    .executeSql(
                            "INSERT INTO docs SELECT arrive(id), CONCAT('document ', CAST(id AS"
                                    + " STRING)), ENCODE(CONCAT('image of ', CAST(id AS STRING)),"
                                    + " 'UTF-8'), CAST(NULL AS ARRAY<FLOAT>) FROM arrivals")
                    .await();
            long deadline = System.currentTimeMillis() + 120_000;
            while (embedded(batch) < ROWS && System.currentTimeMillis() < deadline) {
                Thread.sleep(500);
            }
        } finally {
            embedding.getJobClient().orElseThrow().cancel().get();
        }

        assertThat(embedded(batch)).as("rows with their embedding").isEqualTo(ROWS);
        assertThat(FailingOnce.failed()).as("both UDFs failed their job once").isEqualTo(2);
        assertThat(FaultyFileSystem.crashes.get() - crashes).isEqualTo(2);
        Map<Long, Long> rowIdsById = new HashMap<>();
        try (CloseableIterator<Row> rows =
                batch.executeSql(
                                "SELECT id, body, image, embedding, _ROW_ID FROM"
                                        + " `docs$row_tracking`")
                        .collect()) {
            while (rows.hasNext()) {
                Row row = rows.next();
                long id = (Long) row.getField(0);
                assertThat(rowIdsById.put(id, (Long) row.getField(4)))
                        .as("row %s arrived once", id)
                        .isNull();
                assertThat(row.getField(1)).isEqualTo("document " + id);
                assertThat(new String((byte[]) row.getField(2), "UTF-8"))
                        .isEqualTo("image of " + id);
                assertThat((Float[]) row.getField(3))
                        .as("embedding of row %s", id)
                        .containsExactly(FailingOnce.embedding("document " + id));
            }
        }
        assertThat(rowIdsById).hasSize(ROWS);
        assertThat(new HashSet<>(rowIdsById.values())).hasSize(ROWS);

        TableStore store =
                TableStore.open(new Warehouse(new Path(warehouse)).table("default", "docs"));
        Set<String> commits = new HashSet<>();
        for (long id = 1; id <= store.snapshots().latestId().orElseThrow(); id++) {
            Snapshot snapshot = store.snapshots().snapshot(id);
            assertThat(commits.add(snapshot.commitUser() + "/" + snapshot.commitIdentifier()))
                    .as("snapshot %s: each checkpoint of each job commits once", id)
                    .isTrue();
        }
        long imageRows = 0;
        for (ManifestEntry entry : store.files(store.latestSnapshot().orElseThrow()).liveFiles()) {
            DataFileMeta file = entry.file();
            if (file.writeCols() == null || file.writeCols().contains("image")) {
                imageRows += file.rowCount();
            } else {
                assertThat(file.writeCols()).containsExactly("embedding");
            }
        }
        assertThat(imageRows).as("every image written once, by the appends").isEqualTo(ROWS);
    }

    private static TableEnvironment session(EnvironmentSettings settings, String warehouse) {
        TableEnvironment sql = TableEnvironment.create(settings);
        sql.getConfig().addConfiguration(CLUSTER.getClientConfiguration());
        sql.getConfig().set("execution.target", "remote");
        SqlTesting.execute(
                sql,
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '" + warehouse + "')");
        SqlTesting.execute(sql, "USE CATALOG dt");
        return sql;
    }

    private static long embedded(TableEnvironment batch) {
        List<String> count =
                SqlTesting.rows(
                        batch,
                        "SELECT COUNT(*) FROM `docs$row_tracking` WHERE embedding IS NOT NULL");
        return Long.parseLong(count.get(0).replaceAll("\\D", ""));
    }

    /**
     * The pipeline's UDFs, each failing its task once when it has seen {@link #arm half the rows}
     * (the flags are static: the MiniCluster runs in the test's JVM).
     */
    public static final class FailingOnce {

        private static final AtomicInteger threshold = new AtomicInteger();
        private static final AtomicInteger arrived = new AtomicInteger();
        private static final AtomicInteger embedded = new AtomicInteger();
        private static final AtomicBoolean arriveFailed = new AtomicBoolean();
        private static final AtomicBoolean embedFailed = new AtomicBoolean();

        private FailingOnce() {}

        static void arm(int rows) {
            threshold.set(rows);
            arrived.set(0);
            embedded.set(0);
            arriveFailed.set(false);
            embedFailed.set(false);
        }

        static int failed() {
            return (arriveFailed.get() ? 1 : 0) + (embedFailed.get() ? 1 : 0);
        }

        /** A toy embedding: {@value #DIM} floats from the text's hash. */
        static Float[] embedding(String text) {
            Float[] vector = new Float[DIM];
            int hash = text.hashCode();
            for (int i = 0; i < DIM; i++) {
                vector[i] = ((hash >>> (i * 4)) & 0xFF) / 255f;
            }
            return vector;
        }

        private static void failOnce(AtomicInteger seen, AtomicBoolean failed, String job) {
            if (seen.incrementAndGet() >= threshold.get() && failed.compareAndSet(false, true)) {
                throw new IllegalStateException("Injected failure of the " + job + " job");
            }
        }

        /**
         * The id, unchanged, about 2 rows a millisecond a subtask, so that the rows arrive over
         * many checkpoints; fails the INSERT job once. (The pace is not datagen's
         * 'rows-per-second': with its rate limiter and a task failure, 1 row in 3,000 went missing
         * in about one run of 15, the same without Dovetail's embedding job or crashes; never in 20
         * runs paced here.)
         */
        public static final class Arrive extends ScalarFunction {
            public Long eval(Long id) throws InterruptedException {
                if (id % 2 == 0) {
                    Thread.sleep(1);
                }
                failOnce(arrived, arriveFailed, "insert");
                return id;
            }
        }

        /** The embedding of a text; fails the embedding job once. */
        public static final class Embed extends ScalarFunction {
            public Float[] eval(String text) {
                failOnce(embedded, embedFailed, "embedding");
                return embedding(text);
            }
        }
    }
}
