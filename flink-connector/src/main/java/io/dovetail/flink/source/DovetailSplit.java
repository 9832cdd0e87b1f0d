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

import io.dovetail.table.read.ReadSplit;

import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A Dovetail read split as Flink assigns it: whole row-range groups of one partition, and how many
 * of its rows a reader has already emitted (skipped again after a restore).
 */
public record DovetailSplit(String splitId, ReadSplit split, long recordsToSkip)
        implements SourceSplit {

    public DovetailSplit {
        if (recordsToSkip < 0) {
            throw new IllegalArgumentException("Negative records to skip: " + recordsToSkip);
        }
    }

    /** This split with {@code emitted} of its rows already emitted. */
    DovetailSplit afterEmitting(long emitted) {
        return new DovetailSplit(splitId, split, emitted);
    }

    @Override
    public String toString() {
        return "DovetailSplit{"
                + splitId
                + ", "
                + split.groups().size()
                + " groups, skip "
                + recordsToSkip
                + "}";
    }
}
