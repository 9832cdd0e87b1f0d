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
package io.dovetail.flink.merge;

import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.util.SerializedThrowable;

/**
 * A broadcast key join writer's copy of the merge source outgrew its heap budget. It fails the job
 * without restarts (every attempt would fail the same way) before anything is written, and {@link
 * MergeJob} recognizes it by type ({@link #isCauseOf}) to rerun the merge as the SQL join.
 */
final class SourceTooLargeToBroadcast extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private SourceTooLargeToBroadcast(String message) {
        super(message);
    }

    /** The failure to throw from a writer that holds {@code rows} source rows in {@code bytes}. */
    static RuntimeException failure(int rows, long bytes, long budget) {
        return new SuppressRestartsException(
                new SourceTooLargeToBroadcast(
                        String.format(
                                "The merge source is too large for a broadcast key join: %d source"
                                        + " rows took %d bytes of heap, over %d",
                                rows, bytes, budget)));
    }

    /**
     * Whether a job failure was caused by this, also when the cause arrives serialized (the client
     * sees a {@link SerializedThrowable} where it could not load the original class).
     */
    static boolean isCauseOf(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SourceTooLargeToBroadcast
                    || (t instanceof SerializedThrowable serialized
                            && SourceTooLargeToBroadcast.class
                                    .getName()
                                    .equals(serialized.getOriginalErrorClassName()))) {
                return true;
            }
        }
        return false;
    }
}
