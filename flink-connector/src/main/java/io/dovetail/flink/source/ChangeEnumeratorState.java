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

import javax.annotation.Nullable;

import java.util.List;
import java.util.Set;

/**
 * The checkpointed state of a changelog read's enumerator: the snapshot still to read in full (null
 * once its splits were planned, or for reads without a full start), the next snapshot whose changes
 * to plan, the planned splits not yet assigned, and the ids of the splits assigned to readers and
 * not yet reported finished.
 */
public record ChangeEnumeratorState(
        @Nullable Long fullSnapshot,
        long nextSnapshot,
        List<ChangeSplit> pending,
        Set<String> inFlight) {

    public ChangeEnumeratorState {
        pending = List.copyOf(pending);
        inFlight = Set.copyOf(inFlight);
    }
}
