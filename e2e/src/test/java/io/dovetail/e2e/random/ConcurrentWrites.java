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
package io.dovetail.e2e.random;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Writes started at once, each in a session of its own, so that they plan on the same snapshot and
 * race to commit: UPDATEs and DELETEs, or a streaming INSERT beside a merge or a compaction (a
 * procedure, last: its CALL returns only once it ends). Each alone must succeed; together, each
 * either commits or is refused with an error that says "conflict" and leaves the table as it was.
 * The table must then equal the model of the committed writes in some order: one after the other (a
 * write that planned after the other committed) or both on the snapshot they started from (snapshot
 * isolation: they committed without a conflict because they wrote different columns or groups), see
 * {@link SequenceRun}.
 */
final class ConcurrentWrites extends Op {

    final List<Op> writes;

    ConcurrentWrites(List<Op> writes) {
        this.writes = List.copyOf(writes);
    }

    @Override
    String kind() {
        return "concurrent " + writes.stream().map(Op::kind).collect(Collectors.joining(" + "));
    }

    /** Every write's statements, in order (the script replays them one after the other). */
    @Override
    List<String> statements(ModelTable model) {
        List<String> all = new ArrayList<>();
        for (Op write : writes) {
            all.addAll(write.statements(model));
        }
        return all;
    }

    @Override
    boolean applicable(ModelTable model) {
        return writes.stream().allMatch(w -> w.applicable(model) && w.refusal(model) == null);
    }

    @Override
    public String toString() {
        return kind() + " (run at once)";
    }
}
