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

import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.ClientUtils;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.streaming.api.graph.StreamGraph;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@code execution.target: dovetail-embedded}: submits jobs to the {@link EmbeddedCluster}.
 * Registered through ServiceLoader, so every job of the session goes there: queries, DML, and the
 * jobs procedures build on {@code ProcedureContext#getExecutionEnvironment()}.
 */
public final class EmbeddedExecutorFactory implements PipelineExecutorFactory {

    public static final String TARGET = "dovetail-embedded";

    @Override
    public String getName() {
        return TARGET;
    }

    @Override
    public boolean isCompatibleWith(Configuration configuration) {
        return TARGET.equalsIgnoreCase(configuration.get(DeploymentOptions.TARGET));
    }

    @Override
    public PipelineExecutor getExecutor(Configuration configuration) {
        return EmbeddedExecutorFactory::execute;
    }

    private static CompletableFuture<JobClient> execute(
            Pipeline pipeline, Configuration configuration, ClassLoader userCodeClassLoader)
            throws Exception {
        StreamGraph streamGraph = PipelineExecutorUtils.getStreamGraph(pipeline, configuration);
        MiniCluster cluster = EmbeddedCluster.getOrStart(configuration);
        return cluster.submitJob(streamGraph)
                .thenApplyAsync(
                        submitted -> {
                            try {
                                ClientUtils.waitUntilJobInitializationFinished(
                                        () -> cluster.getJobStatus(submitted.getJobID()).get(),
                                        () -> cluster.requestJobResult(submitted.getJobID()).get(),
                                        userCodeClassLoader);
                            } catch (Exception e) {
                                throw new CompletionException(e);
                            }
                            return new MiniClusterJobClient(
                                    submitted.getJobID(),
                                    cluster,
                                    userCodeClassLoader,
                                    MiniClusterJobClient.JobFinalizationBehavior.NOTHING);
                        });
    }
}
