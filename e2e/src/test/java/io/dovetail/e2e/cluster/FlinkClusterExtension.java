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
package io.dovetail.e2e.cluster;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * One {@link FlinkCluster} (a JobManager, two TaskManagers, the SQL Gateway) for all tests of a
 * class, in a new directory under {@code target/cluster-e2e} (system property {@code
 * dovetail.cluster.dir}). A failed test prints the processes' log tails; stopping the cluster fails
 * the class when a process it started outlives it.
 */
final class FlinkClusterExtension implements BeforeAllCallback, AfterAllCallback, TestWatcher {

    static final int TASK_MANAGERS = 2;

    private final Map<String, ?> configuration;
    private FlinkCluster cluster;
    private Path warehouse;

    FlinkClusterExtension() {
        this(Map.of());
    }

    /** A cluster whose configuration has {@code configuration} on top of the defaults. */
    FlinkClusterExtension(Map<String, ?> configuration) {
        this.configuration = Map.copyOf(configuration);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Path base =
                Files.createDirectories(
                        Path.of(System.getProperty("dovetail.cluster.dir", "target/cluster-e2e"))
                                .toAbsolutePath());
        Path dir =
                Files.createTempDirectory(
                        base, context.getRequiredTestClass().getSimpleName() + "-");
        warehouse = Files.createDirectories(dir.resolve("warehouse"));
        cluster = FlinkCluster.start(dir, TASK_MANAGERS, configuration);
    }

    FlinkCluster cluster() {
        return cluster;
    }

    /** The warehouse directory every process of the cluster and the test itself see. */
    Path warehouse() {
        return warehouse;
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        if (cluster != null) {
            System.err.println(
                    context.getDisplayName() + " failed; the cluster's logs:\n" + cluster.tails());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }
}
