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
package io.dovetail.table.delete;

import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;

import javax.annotation.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The row-range groups of a snapshot's live files and their anchors (data-evolution semantics
 * §5.2): a group is a maximal set of files of one partition whose row ranges overlap transitively;
 * its anchor is the normal file with the smallest {@code (maxSequenceNumber, fileName)}. Deletion
 * vectors are keyed by the anchor, and a position {@code p} means row {@code anchor.firstRowId +
 * p}.
 */
public final class DeletionVectorAnchors {

    /** One group: its rows, its anchor (null if it has no normal file) and its files. */
    public record Group(RowRange range, @Nullable ManifestEntry anchor, List<ManifestEntry> files) {
        public Group {
            files = List.copyOf(files);
        }
    }

    /** The anchor order: smallest max sequence number first, then smallest file name. */
    public static final Comparator<DataFileMeta> ANCHOR_ORDER =
            Comparator.comparingLong(DataFileMeta::maxSequenceNumber)
                    .thenComparing(DataFileMeta::fileName);

    private final TreeMap<Long, Group> byFirstRow = new TreeMap<>();
    private final Map<String, Group> byAnchorName = new HashMap<>();
    private final Map<String, Group> byFileName = new HashMap<>();

    private DeletionVectorAnchors() {}

    /** The groups of {@code liveFiles} (files without a row range are ignored). */
    public static DeletionVectorAnchors of(Collection<ManifestEntry> liveFiles) {
        Map<ByteBuffer, List<ManifestEntry>> byPartition = new HashMap<>();
        for (ManifestEntry entry : liveFiles) {
            if (entry.file().firstRowId() != null && entry.file().rowCount() > 0) {
                byPartition
                        .computeIfAbsent(ByteBuffer.wrap(entry.partition()), k -> new ArrayList<>())
                        .add(entry);
            }
        }
        DeletionVectorAnchors anchors = new DeletionVectorAnchors();
        for (List<ManifestEntry> files : byPartition.values()) {
            files.sort(Comparator.comparingLong(e -> e.file().firstRowId()));
            List<ManifestEntry> group = new ArrayList<>();
            long last = -1;
            for (ManifestEntry entry : files) {
                RowRange range = RowRange.of(entry.file());
                if (!group.isEmpty() && range.first() > last) {
                    anchors.add(group, last);
                    group = new ArrayList<>();
                }
                last = group.isEmpty() ? range.last() : Math.max(last, range.last());
                group.add(entry);
            }
            if (!group.isEmpty()) {
                anchors.add(group, last);
            }
        }
        return anchors;
    }

    private void add(List<ManifestEntry> files, long last) {
        ManifestEntry anchor =
                files.stream()
                        .filter(e -> DataFileKinds.isNormal(e.file().fileName()))
                        .min((a, b) -> ANCHOR_ORDER.compare(a.file(), b.file()))
                        .orElse(null);
        RowRange range = new RowRange(files.get(0).file().firstRowId(), last);
        Group group = new Group(range, anchor, files);
        Group other = byFirstRow.put(range.first(), group);
        if (other != null) {
            throw Errors.invalidLayout(
                    "Row ranges "
                            + other.range()
                            + " and "
                            + range
                            + " exist in two partitions; row ids must be unique in a table.");
        }
        files.forEach(f -> byFileName.put(f.file().fileName(), group));
        if (anchor != null) {
            byAnchorName.put(anchor.file().fileName(), group);
        }
    }

    /** The group whose anchor is named {@code fileName}. */
    public Optional<Group> groupOfAnchor(String fileName) {
        return Optional.ofNullable(byAnchorName.get(fileName));
    }

    /** The group holding live file {@code fileName}. */
    public Optional<Group> groupOfFile(String fileName) {
        return Optional.ofNullable(byFileName.get(fileName));
    }

    /** The group holding row {@code rowId}. */
    public Optional<Group> groupOfRow(long rowId) {
        Map.Entry<Long, Group> floor = byFirstRow.floorEntry(rowId);
        return floor != null && floor.getValue().range().contains(rowId)
                ? Optional.of(floor.getValue())
                : Optional.empty();
    }
}
