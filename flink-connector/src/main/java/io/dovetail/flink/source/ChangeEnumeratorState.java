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

import io.dovetail.table.manifest.RowRange;

import javax.annotation.Nullable;

import java.util.List;

/**
 * The checkpointed state of a changelog read's enumerator: the snapshot still to read in full (null
 * once its splits were planned, or for reads without a full start), the next snapshot whose changes
 * to plan, the planned splits not yet assigned (in snapshot order), and the splits assigned to
 * readers and not yet reported finished.
 */
public record ChangeEnumeratorState(
        @Nullable Long fullSnapshot,
        long nextSnapshot,
        List<ChangeSplit> pending,
        List<AssignedSplit> inFlight) {

    public ChangeEnumeratorState {
        pending = List.copyOf(pending);
        inFlight = List.copyOf(inFlight);
    }

    /**
     * A split a reader holds: its id, its snapshot and the row ids it emits changes of (null:
     * unknown, from the state of a version that did not record them; such a split counts as
     * touching every row).
     */
    public record AssignedSplit(String splitId, long snapshotId, @Nullable List<RowRange> rows) {

        public AssignedSplit {
            rows = rows == null ? null : List.copyOf(rows);
        }

        /** The assigned split {@code split}, with the rows of its groups on both sides. */
        static AssignedSplit of(ChangeSplit split) {
            return new AssignedSplit(
                    split.splitId(), split.read().snapshotId(), RowClaims.rowsOf(split));
        }
    }
}
