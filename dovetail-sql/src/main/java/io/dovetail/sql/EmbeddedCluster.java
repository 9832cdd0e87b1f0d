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
package io.dovetail.sql;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The JVM's one embedded Flink cluster: started when the first job is submitted to it (a session of
 * DDL alone never starts it), then shared by every later job, and stopped by {@link #shutdown()}. A
 * local TableEnvironment would start a fresh MiniCluster per job instead.
 */
public final class EmbeddedCluster {

    private static MiniCluster cluster;

    private EmbeddedCluster() {}

    /**
     * The running cluster, started first if need be with one task manager and as many slots as
     * {@code parallelism.default} of the job that starts it; its managed memory ({@code
     * taskmanager.memory.managed.size}) and temporary directories ({@code io.tmp.dirs}) are those
     * of that job's configuration where it sets them, Flink's local defaults otherwise.
     */
    static synchronized MiniCluster getOrStart(Configuration jobConfig) throws Exception {
        if (cluster == null) {
            Configuration config = new Configuration();
            config.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
            config.set(RestOptions.ADDRESS, "127.0.0.1");
            config.set(RestOptions.BIND_PORT, "0");
            jobConfig
                    .getOptional(TaskManagerOptions.MANAGED_MEMORY_SIZE)
                    .ifPresent(size -> config.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, size));
            jobConfig
                    .getOptional(CoreOptions.TMP_DIRS)
                    .ifPresent(dirs -> config.set(CoreOptions.TMP_DIRS, dirs));
            MiniCluster started =
                    new MiniCluster(
                            new MiniClusterConfiguration.Builder()
                                    .withRandomPorts()
                                    .setConfiguration(config)
                                    .setNumTaskManagers(1)
                                    .setNumSlotsPerTaskManager(
                                            Math.max(
                                                    1,
                                                    jobConfig.get(CoreOptions.DEFAULT_PARALLELISM)))
                                    .build());
            started.start();
            cluster = started;
        }
        return cluster;
    }

    /** The cluster if a job has started it. */
    public static synchronized Optional<MiniCluster> running() {
        return Optional.ofNullable(cluster);
    }

    /** The jobs submitted so far, finished or not. */
    static List<JobStatusMessage> jobs() throws Exception {
        Optional<MiniCluster> current = running();
        if (current.isEmpty()) {
            return List.of();
        }
        Collection<JobStatusMessage> jobs = current.get().listJobs().get();
        return List.copyOf(jobs);
    }

    /** Stops the cluster if it runs; a later job starts a new one. */
    public static synchronized void shutdown() throws Exception {
        if (cluster != null) {
            try {
                cluster.close();
            } finally {
                cluster = null;
            }
        }
    }
}
