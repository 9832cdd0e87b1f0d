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

import io.dovetail.table.read.ChangeRead;

import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A changelog read split ({@link ChangeRead}: the rows of one row-range as they were before its
 * snapshot and as they are in it) and how many change rows a reader has already emitted from it
 * (skipped again after a restore: the comparison is deterministic). A {@code finished} split is a
 * reader's record that it read the split to the end and told the enumerator, kept in the reader's
 * state until the enumerator acknowledged it (so a restore cannot lose the report).
 */
public record ChangeSplit(String splitId, ChangeRead read, long emitted, boolean finished)
        implements SourceSplit {

    public ChangeSplit {
        if (emitted < 0) {
            throw new IllegalArgumentException("Negative emitted count: " + emitted);
        }
    }

    /** This split with {@code count} change rows emitted. */
    ChangeSplit afterEmitting(long count) {
        return new ChangeSplit(splitId, read, count, false);
    }

    /** The record that this split was read to the end (its groups are no longer needed). */
    ChangeSplit asFinished() {
        ChangeRead nothing =
                new ChangeRead(read.snapshotId(), ChangeRead.NOTHING, ChangeRead.NOTHING);
        return new ChangeSplit(splitId, nothing, emitted, true);
    }

    @Override
    public String toString() {
        return "ChangeSplit{"
                + splitId
                + ", snapshot "
                + read.snapshotId()
                + ", "
                + read.before().groups().size()
                + " groups before, "
                + read.after().groups().size()
                + " after, emitted "
                + emitted
                + (finished ? ", finished}" : "}");
    }
}
