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
package io.dovetail.flink.source;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

import javax.annotation.Nullable;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

/**
 * Hands out the splits of a bounded read, one per request, in planned order; a reader that asks
 * when none are left is told there are no more. Splits of a failed reader come back first.
 */
final class StaticSplitEnumerator implements SplitEnumerator<DovetailSplit, PendingSplits> {

    private final SplitEnumeratorContext<DovetailSplit> context;
    private final Deque<DovetailSplit> remaining;

    StaticSplitEnumerator(
            SplitEnumeratorContext<DovetailSplit> context, List<DovetailSplit> splits) {
        this.context = context;
        this.remaining = new ArrayDeque<>(splits);
    }

    @Override
    public void start() {}

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        DovetailSplit split = remaining.poll();
        if (split == null) {
            context.signalNoMoreSplits(subtaskId);
        } else {
            context.assignSplit(split, subtaskId);
        }
    }

    @Override
    public void addSplitsBack(List<DovetailSplit> splits, int subtaskId) {
        List<DovetailSplit> reversed = new ArrayList<>(splits);
        Collections.reverse(reversed);
        reversed.forEach(remaining::addFirst);
    }

    @Override
    public void addReader(int subtaskId) {}

    @Override
    public PendingSplits snapshotState(long checkpointId) {
        return new PendingSplits(List.copyOf(remaining));
    }

    @Override
    public void close() {}
}
