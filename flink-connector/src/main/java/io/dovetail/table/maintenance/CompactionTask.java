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
package io.dovetail.table.maintenance;

import io.dovetail.table.delete.DeletionVectorAnchors;
import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;

import java.util.ArrayList;
import java.util.List;

/**
 * One normal-compaction task (data-evolution semantics §8.1): adjacent row-range groups of one
 * partition whose normal files are rewritten into one file covering {@code range}, the union of the
 * groups' ranges. Files are the entries the planned snapshot lists.
 */
public record CompactionTask(byte[] partition, RowRange range, List<Group> groups) {

    /** One row-range group: its range and its normal files. */
    public record Group(RowRange range, List<ManifestEntry> files) {
        public Group {
            files = List.copyOf(files);
        }

        /**
         * The file the group's deletion vector is keyed by (semantics §5.2): never a dedicated
         * file, which a materialization's group lists too.
         */
        public ManifestEntry anchor() {
            return files.stream()
                    .filter(e -> DataFileKinds.isNormal(e.file().fileName()))
                    .min((a, b) -> DeletionVectorAnchors.ANCHOR_ORDER.compare(a.file(), b.file()))
                    .orElseThrow();
        }

        long weight(long openFileCost) {
            return files.stream().mapToLong(f -> Math.max(f.file().fileSize(), openFileCost)).sum();
        }
    }

    public CompactionTask {
        partition = partition.clone();
        groups = List.copyOf(groups);
        long next = range.first();
        for (Group group : groups) {
            if (group.range().first() != next) {
                throw Errors.invalidArgument(
                        "The groups of a compaction task must tile its range "
                                + range
                                + " in order; group "
                                + group.range()
                                + " does not start at "
                                + next
                                + ".");
            }
            next = group.range().last() + 1;
        }
        if (next != range.last() + 1) {
            throw Errors.invalidArgument(
                    "The groups of a compaction task must tile its range " + range + ".");
        }
    }

    @Override
    public byte[] partition() {
        return partition.clone();
    }

    /** Every input file, group by group in row order. */
    public List<ManifestEntry> inputs() {
        List<ManifestEntry> inputs = new ArrayList<>();
        groups.forEach(g -> inputs.addAll(g.files()));
        return inputs;
    }

    /**
     * The smallest {@code minSequenceNumber} of the inputs: the compacted file keeps the inputs'
     * sequence bounds, so a partial-column file committed after the planned snapshot still wins.
     */
    public long minSequenceNumber() {
        return inputs().stream().mapToLong(e -> e.file().minSequenceNumber()).min().orElseThrow();
    }

    /** The largest {@code maxSequenceNumber} of the inputs. */
    public long maxSequenceNumber() {
        return inputs().stream().mapToLong(e -> e.file().maxSequenceNumber()).max().orElseThrow();
    }
}
