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

import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Row tracking at commit time, for the snapshot being created: new files (minimum sequence number
 * 0) get the snapshot id as minimum and maximum sequence number; new appended files without a first
 * row id get consecutive row-id ranges starting at the previous {@code nextRowId}, files of one
 * partition kept together in their original order. A {@code .blob} file takes the next row ids of
 * its field inside the normal file before it, and a vector-store file the next row ids of its
 * column set there (the writer lists a normal file, then its BLOB files, then its vector-store
 * files; Paimon's running counter of vector-store rows gives the same ids for such a list). Files
 * that already carry a first row id (partial-column updates, compaction output) keep it.
 */
final class RowTrackingAssigner {

    static final String ROW_ID_COLUMN = "_ROW_ID";

    private RowTrackingAssigner() {}

    /** The assigned entries and the snapshot's new {@code nextRowId}. */
    record Result(List<ManifestEntry> entries, long nextRowId) {}

    static Result assign(List<ManifestEntry> changes, long snapshotId, long nextRowId) {
        long next = nextRowId;
        long ownerFirst = -1; // the range of the last normal file given row ids
        // per BLOB field, or vector-store column set: its next row id in the owning normal file
        Map<String, Long> dedicatedNext = new HashMap<>();
        List<ManifestEntry> out = new ArrayList<>(changes.size());
        for (ManifestEntry entry : groupedByPartition(changes)) {
            if (entry.kind() != FileKind.ADD) {
                out.add(entry);
                continue;
            }
            DataFileMeta file = entry.file();
            DataFileMeta.Builder builder = file.toBuilder();
            if (file.minSequenceNumber() == 0) {
                builder.sequenceNumbers(snapshotId, snapshotId);
            }
            if (needsRowIds(file) && DataFileKinds.isDedicated(file.fileName())) {
                String columns =
                        DataFileKinds.isBlob(file.fileName())
                                ? file.writeCols().get(0)
                                : "vector " + file.writeCols();
                long first = dedicatedNext.getOrDefault(columns, ownerFirst);
                if (ownerFirst < 0 || first + file.rowCount() > next) {
                    throw new IllegalStateException(
                            "Dedicated file "
                                    + file.fileName()
                                    + " does not follow a normal file with rows for it");
                }
                builder.firstRowId(first);
                dedicatedNext.put(columns, first + file.rowCount());
            } else if (needsRowIds(file)) {
                builder.firstRowId(next);
                ownerFirst = next;
                dedicatedNext.clear();
                next += file.rowCount();
            }
            out.add(
                    new ManifestEntry(
                            entry.kind(),
                            entry.partition(),
                            entry.bucket(),
                            entry.totalBuckets(),
                            builder.build()));
        }
        return new Result(out, next);
    }

    private static boolean needsRowIds(DataFileMeta file) {
        return file.fileSource() == FileSource.APPEND
                && file.firstRowId() == null
                && (file.writeCols() == null || !file.writeCols().contains(ROW_ID_COLUMN));
    }

    /** Stable grouping: partitions in order of first appearance, entries in original order. */
    private static List<ManifestEntry> groupedByPartition(List<ManifestEntry> changes) {
        Map<ByteBuffer, List<ManifestEntry>> groups = new LinkedHashMap<>();
        for (ManifestEntry entry : changes) {
            groups.computeIfAbsent(ByteBuffer.wrap(entry.partition()), k -> new ArrayList<>())
                    .add(entry);
        }
        List<ManifestEntry> out = new ArrayList<>(changes.size());
        groups.values().forEach(out::addAll);
        return out;
    }
}
