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
package io.dovetail.flink.maintenance;

import io.dovetail.table.TableStore;

import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.types.Row;

import java.io.Serializable;
import java.util.List;

/**
 * What one kind of maintenance rewrite does, the part in which compaction and deletion-vector
 * materialization differ; {@link RewriteJob} is the job both run. It travels with the job's
 * operators.
 *
 * @param <P> the kind's plan: its pinned snapshot, schema and tasks
 */
interface Rewrite<P> extends Serializable {

    /** The plan the operators carry as bytes. */
    P plan(MaintenancePlanBytes bytes);

    /**
     * Opens a rewriter subtask's work on {@code plan} (its read planned once, on the pinned
     * snapshot), counting its progress in {@code metrics}.
     */
    TaskRewriter open(TableStore store, P plan, MetricGroup metrics);

    /**
     * Commits what the rewriters wrote ({@code payloads} by task index) as one COMPACT snapshot and
     * returns the job's result row.
     *
     * @param rewriteSubtasks how many rewriter subtasks wrote
     */
    Row commit(
            TableStore store,
            String commitUser,
            P plan,
            List<byte[]> payloads,
            int rewriteSubtasks);

    /** A rewriter subtask's work: rewrites task {@code task} into its payload for the committer. */
    @FunctionalInterface
    interface TaskRewriter {
        byte[] rewrite(int task);
    }
}
