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
package io.dovetail.bench;

import io.dovetail.sql.EmbeddedCluster;
import io.dovetail.sql.EmbeddedExecutorFactory;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.gateway.environment.SqlGatewayStreamExecutionEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.ArrayList;
import java.util.List;

/**
 * One batch-mode TableEnvironment whose jobs all run on the JVM's one {@link EmbeddedCluster}, at a
 * fixed default parallelism, with Flink's default settings otherwise (UPDATE needs the default
 * column expansion). Statements run as in Flink's SQL gateway (and so its SQL client): with the
 * gateway's context environment set, so the jobs that procedures build go to the session's cluster
 * too; without it each {@code CALL} would start a MiniCluster of its own (about a second), which no
 * deployment does. Closing it stops the cluster.
 */
final class BenchSqlSession implements AutoCloseable {

    private final TableEnvironment sql;

    BenchSqlSession(int parallelism) {
        this(parallelism, new Configuration());
    }

    /**
     * A session whose cluster also takes {@code clusterOptions} (managed memory and temporary
     * directories) when its first job starts it.
     */
    BenchSqlSession(int parallelism, Configuration clusterOptions) {
        Configuration config = new Configuration(clusterOptions);
        config.set(DeploymentOptions.TARGET, EmbeddedExecutorFactory.TARGET);
        config.set(DeploymentOptions.ATTACHED, true);
        config.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        sql =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance()
                                .inBatchMode()
                                .withConfiguration(config)
                                .build());
    }

    /** Sets a session option, like the SQL client's {@code SET}. */
    void set(String key, String value) {
        sql.getConfig().set(key, value);
    }

    /** Registers {@code function} as the temporary system function {@code name}. */
    void function(String name, Class<? extends UserDefinedFunction> function) {
        sql.createTemporarySystemFunction(name, function);
    }

    /** Runs {@code statement} and waits until its job, if it has one, finished. */
    void execute(String statement) {
        SqlGatewayStreamExecutionEnvironment.setAsContext(getClass().getClassLoader());
        try {
            sql.executeSql(statement).await();
        } catch (Exception e) {
            throw new IllegalStateException("failed: " + statement, e);
        } finally {
            SqlGatewayStreamExecutionEnvironment.unsetAsContext();
        }
    }

    /** Runs {@code query} and collects its rows. */
    List<Row> rows(String query) {
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
            it.forEachRemaining(out::add);
        } catch (Exception e) {
            throw new IllegalStateException("failed: " + query, e);
        }
        return out;
    }

    /** Runs a query of one result row. */
    Row row(String query) {
        List<Row> rows = rows(query);
        if (rows.size() != 1) {
            throw new IllegalStateException(rows.size() + " rows, expected 1: " + query);
        }
        return rows.get(0);
    }

    @Override
    public void close() throws Exception {
        EmbeddedCluster.shutdown();
    }
}
