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

import io.dovetail.table.read.ChangelogScope;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.time.Duration;

/**
 * Where a changelog read starts and how it follows the table.
 *
 * @param fullSnapshot read this snapshot in full as inserts first (null: no full read)
 * @param firstChangeSnapshot the first snapshot whose changes are emitted
 * @param discoveryInterval how often the table is checked for new snapshots
 * @param consumerId when set, the read records its position in {@code consumer/consumer-<id>} on
 *     every completed checkpoint, and a read started without state resumes from that position
 * @param scope what the read emits of each snapshot
 * @param readOverwrites whether an insert-only read emits the rows an overwrite added
 */
public record ChangelogStart(
        @Nullable Long fullSnapshot,
        long firstChangeSnapshot,
        Duration discoveryInterval,
        @Nullable String consumerId,
        ChangelogScope scope,
        boolean readOverwrites)
        implements Serializable {

    public ChangelogStart {
        if (firstChangeSnapshot < 1
                || discoveryInterval.isNegative()
                || discoveryInterval.isZero()) {
            throw new IllegalArgumentException(
                    "Bad changelog start: first snapshot "
                            + firstChangeSnapshot
                            + ", discovery interval "
                            + discoveryInterval);
        }
    }
}
