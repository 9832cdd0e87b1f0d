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
package io.dovetail.flink.sink;

import io.dovetail.table.TableStore;
import io.dovetail.table.path.Warehouse;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write path's metrics on Flink's operator metric groups, read through a reporter that keeps
 * every metric it was handed (the tasks have finished when they are read): records, bytes and files
 * written, snapshots and files committed, commit duration, rows updated and deleted.
 */
class ConnectorMetricsITCase {

    /** Metrics by name, over all operators and subtasks (a name may be reported many times). */
    static final Map<String, List<Metric>> REPORTED = new ConcurrentHashMap<>();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(reporting())
                            .build());

    @TempDir static java.nio.file.Path warehouse;

    @Test
    void writesCommitsReadsUpdatesAndDeletesAreCounted() throws Exception {
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().set("parallelism.default", "2");
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        sql.executeSql("USE CATALOG dt");
        sql.executeSql(
                "CREATE TABLE m (id INT, v STRING) WITH ('deletion-vectors.enabled' = 'true')");
        sql.executeSql("INSERT INTO m VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')")
                .await();
        TableStore store =
                TableStore.open(new Warehouse(new Path(warehouse.toUri())).table("default", "m"));
        long written =
                store.files(store.latestSnapshot().orElseThrow()).liveFiles().stream()
                        .mapToLong(e -> e.file().fileSize())
                        .sum();

        assertThat(sum(SinkMetrics.RECORDS_WRITTEN)).as(REPORTED.keySet().toString()).isEqualTo(5);
        assertThat(sum(SinkMetrics.BYTES_WRITTEN)).isEqualTo(written);
        assertThat(sum(SinkMetrics.FILES_COMMITTED)).isEqualTo(sum(SinkMetrics.FILES_WRITTEN));
        assertThat(sum(SinkMetrics.SNAPSHOTS_COMMITTED)).isEqualTo(1);
        assertThat(gauges(SinkMetrics.LAST_COMMITTED_SNAPSHOT)).contains(1L);
        assertThat(gauges(SinkMetrics.LAST_COMMIT_DURATION)).allMatch(ms -> ms >= 0);

        sql.executeSql("SELECT * FROM m").collect().forEachRemaining(row -> {});
        assertThat(sum("numRowsRead")).isEqualTo(5);
        assertThat(sum("numSplitsRead")).isPositive();

        sql.executeSql("UPDATE m SET v = 'x' WHERE id < 4").await();
        sql.executeSql("DELETE FROM m WHERE id = 5").await();
        assertThat(sum(SinkMetrics.ROWS_UPDATED)).isEqualTo(3);
        assertThat(sum(SinkMetrics.ROWS_DELETED)).isEqualTo(1);
        assertThat(sum(SinkMetrics.SNAPSHOTS_COMMITTED)).isEqualTo(3);
        assertThat(gauges(SinkMetrics.LAST_COMMITTED_SNAPSHOT)).contains(1L, 2L, 3L);
    }

    private static long sum(String name) {
        return REPORTED.getOrDefault(name, List.of()).stream()
                .mapToLong(m -> ((Counter) m).getCount())
                .sum();
    }

    private static List<Long> gauges(String name) {
        return REPORTED.getOrDefault(name, List.of()).stream()
                .map(m -> (Long) ((Gauge<?>) m).getValue())
                .toList();
    }

    private static Configuration reporting() {
        Configuration config = new Configuration();
        config.setString("metrics.reporter.keeping.factory.class", Factory.class.getName());
        return config;
    }

    /** Creates the reporter that fills {@link #REPORTED}. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new MetricReporter() {
                @Override
                public void open(MetricConfig config) {}

                @Override
                public void close() {}

                @Override
                public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
                    REPORTED.computeIfAbsent(name, n -> new CopyOnWriteArrayList<>()).add(metric);
                }

                @Override
                public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {}
            };
        }
    }
}
