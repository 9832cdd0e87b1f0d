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

import org.apache.flink.runtime.client.JobStatusMessage;

import java.io.PrintStream;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Progress of a long-running statement on stderr: every few seconds, the time since it started and
 * the name and status of each job that is still running on the {@link EmbeddedCluster}.
 */
final class Progress {

    static final long INTERVAL_MILLIS = 5_000;

    private static final int TEXT_WIDTH = 60;

    private final PrintStream err;
    private final LongSupplier clock;
    private long started;
    private long lastReport;

    Progress(PrintStream err, LongSupplier clock) {
        this.err = err;
        this.clock = clock;
    }

    /** A statement starts. */
    void start() {
        started = clock.getAsLong();
        lastReport = started;
    }

    /** Milliseconds since {@link #start()}. */
    long elapsedMillis() {
        return clock.getAsLong() - started;
    }

    /** The statement is still running: reports if the last report is old enough. */
    void tick() {
        long now = clock.getAsLong();
        if (now - lastReport < INTERVAL_MILLIS) {
            return;
        }
        lastReport = now;
        err.println("dovetail-sql: " + (now - started) / 1000 + " s, " + runningJobs());
    }

    private static String runningJobs() {
        List<JobStatusMessage> running;
        try {
            running =
                    EmbeddedCluster.jobs().stream()
                            .filter(job -> !job.getJobState().isGloballyTerminalState())
                            .toList();
        } catch (Exception e) {
            return "running (job status unavailable: " + e.getMessage() + ")";
        }
        if (running.isEmpty()) {
            return "running";
        }
        return running.stream()
                .map(job -> "job '" + abbreviated(job.getJobName()) + "' " + job.getJobState())
                .collect(Collectors.joining(", "));
    }

    /** {@code text} on one line, cut to about {@code 60} characters. */
    static String abbreviated(String text) {
        String oneLine = text.strip().replaceAll("\\s+", " ");
        return oneLine.length() <= TEXT_WIDTH
                ? oneLine
                : oneLine.substring(0, TEXT_WIDTH - 3) + "...";
    }
}
