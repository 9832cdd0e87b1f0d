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
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decides whether a column update whose staged partial-column files no longer match the live layout
 * of the latest snapshot L can be rebased instead of failing (data-evolution semantics §7.6). A
 * staged normal file needs a rebase when no live normal file of L has exactly its range; it can be
 * rebased when only compaction moved that range:
 *
 * <ul>
 *   <li>a COMPACT snapshot after the base replaced a normal file with exactly the staged range
 *       (compaction rewrites files without changing values), and
 *   <li>the staged range now lies inside one live normal range of its partition.
 * </ul>
 *
 * The staged files inside one live range become one {@link Target}; they must write the same
 * columns under the same schema. If any staged file cannot be rebased, nothing is planned and the
 * commit fails C5 with a layout conflict naming it. Changes of the same rows by other snapshots
 * than compactions are C9's business ({@link FieldConflictCheck}), which runs on the staged files
 * first.
 */
final class RebasePlanner {

    /**
     * The staged files (ascending first row id) to rewrite into one file covering the live {@code
     * range}.
     */
    record Target(byte[] partition, RowRange range, List<ManifestEntry> staged) {}

    private record PartitionRange(ByteBuffer partition, RowRange range) {}

    private RebasePlanner() {}

    /**
     * @param history the snapshots (B, L] in order, each with its delta entries
     * @return the targets, empty if no staged file needs a rebase or one cannot be rebased
     */
    static List<Target> plan(
            TableState latest,
            List<ManifestEntry> staged,
            List<Map.Entry<Snapshot, List<ManifestEntry>>> history) {
        Set<PartitionRange> compactedAway = compactedAway(history);
        if (compactedAway.isEmpty()) {
            return List.of();
        }
        Map<ByteBuffer, TreeMap<Long, RowRange>> live =
                LayoutCheck.normalRanges(latest.liveFiles());
        Map<PartitionRange, List<ManifestEntry>> targets = new LinkedHashMap<>();
        for (ManifestEntry entry : staged) {
            if (!DataFileKinds.isNormal(entry.file().fileName())) {
                continue; // a dedicated file stays inside the range a compaction grew (C5)
            }
            latest.requireLoaded(entry);
            RowRange range = RowRange.of(entry.file());
            ByteBuffer partition = ByteBuffer.wrap(entry.partition());
            TreeMap<Long, RowRange> ranges = live.getOrDefault(partition, new TreeMap<>());
            if (range.equals(ranges.get(range.first()))) {
                continue;
            }
            Map.Entry<Long, RowRange> container = ranges.floorEntry(range.first());
            if (container == null
                    || !container.getValue().contains(range)
                    || !compactedAway.contains(new PartitionRange(partition, range))
                    || entry.file().writeCols() == null) {
                return List.of();
            }
            targets.computeIfAbsent(
                            new PartitionRange(partition, container.getValue()),
                            k -> new ArrayList<>())
                    .add(entry);
        }
        List<Target> planned = new ArrayList<>();
        targets.forEach(
                (key, files) -> {
                    files.sort(Comparator.comparingLong(e -> e.file().firstRowId()));
                    checkSameColumns(latest, key.range(), files);
                    byte[] partition = files.get(0).partition();
                    planned.add(new Target(partition, key.range(), List.copyOf(files)));
                });
        return planned;
    }

    /** The normal ranges that COMPACT snapshots of {@code history} replaced, by partition. */
    private static Set<PartitionRange> compactedAway(
            List<Map.Entry<Snapshot, List<ManifestEntry>>> history) {
        Set<PartitionRange> ranges = new HashSet<>();
        for (Map.Entry<Snapshot, List<ManifestEntry>> snapshot : history) {
            if (snapshot.getKey().commitKind() != CommitKind.COMPACT) {
                continue;
            }
            for (ManifestEntry entry : snapshot.getValue()) {
                DataFileMeta file = entry.file();
                if (entry.kind() == FileKind.DELETE
                        && file.firstRowId() != null
                        && DataFileKinds.isNormal(file.fileName())) {
                    ranges.add(
                            new PartitionRange(
                                    ByteBuffer.wrap(entry.partition()), RowRange.of(file)));
                }
            }
        }
        return ranges;
    }

    private static void checkSameColumns(
            TableState latest, RowRange range, List<ManifestEntry> files) {
        DataFileMeta first = files.get(0).file();
        for (ManifestEntry entry : files) {
            DataFileMeta file = entry.file();
            if (file.schemaId() != first.schemaId()
                    || !Objects.equals(file.writeCols(), first.writeCols())) {
                throw Errors.conflict(
                        "Layout conflict: files "
                                + first.fileName()
                                + " (rows "
                                + RowRange.of(first)
                                + ", columns "
                                + first.writeCols()
                                + " of schema "
                                + first.schemaId()
                                + ") and "
                                + file.fileName()
                                + " (rows "
                                + RowRange.of(file)
                                + ", columns "
                                + file.writeCols()
                                + " of schema "
                                + file.schemaId()
                                + ") lie in rows "
                                + range
                                + ", which a compaction merged into one file by snapshot "
                                + latest.snapshotId()
                                + "; they write different columns, so they cannot be rebased"
                                + " into one file. The table is unchanged; plan the update again"
                                + " on the latest snapshot.");
            }
        }
    }
}
