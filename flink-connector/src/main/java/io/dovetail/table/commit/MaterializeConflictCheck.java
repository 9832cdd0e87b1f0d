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
package io.dovetail.table.commit;

import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * C9, materialize variant (data-evolution semantics §7.3): a materialization fails when a
 * non-COMPACT snapshot committed after its base added a file with a first row id whose range
 * intersects a file the materialization removes, in the same partition (e.g. a column update of a
 * materialized group, which would otherwise bring the deleted rows back).
 */
final class MaterializeConflictCheck {

    private MaterializeConflictCheck() {}

    static void check(
            CommitOperation.Materialize materialize,
            List<Map.Entry<Snapshot, List<ManifestEntry>>> since) {
        for (Map.Entry<Snapshot, List<ManifestEntry>> snapshot : since) {
            if (snapshot.getKey().commitKind() == CommitKind.COMPACT) {
                continue;
            }
            for (ManifestEntry added : snapshot.getValue()) {
                if (added.kind() != FileKind.ADD || added.file().firstRowId() == null) {
                    continue;
                }
                RowRange range = RowRange.of(added.file());
                for (ManifestEntry removed : materialize.removed()) {
                    RowRange old = RowRange.of(removed.file());
                    if (ByteBuffer.wrap(removed.partition())
                                    .equals(ByteBuffer.wrap(added.partition()))
                            && range.first() <= old.last()
                            && old.first() <= range.last()) {
                        throw Errors.conflict(
                                "Materialization conflict: snapshot "
                                        + snapshot.getKey().id()
                                        + " wrote file "
                                        + added.file().fileName()
                                        + " for rows "
                                        + range
                                        + ", which this materialization of base snapshot "
                                        + materialize.baseSnapshotId()
                                        + " rewrites with new row ids. The table is unchanged;"
                                        + " run it again.");
                    }
                }
            }
        }
    }
}
