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
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * C9, the field-level history check of a column update planned on base snapshot B (data-evolution
 * semantics §7.3, DML variant): the update's files are merged into write ranges, each with the
 * field ids it writes ({@code writeCols} resolved through each file's own schema). Every entry that
 * a non-COMPACT snapshot in (B, L] added or deleted for rows that existed at B conflicts when its
 * range intersects a write range and it wrote all fields ({@code writeCols} null) or one of that
 * range's fields. Updates of disjoint fields of the same range therefore both commit.
 */
final class FieldConflictCheck {

    private final FileFieldIds fileFields;

    FieldConflictCheck(FileFieldIds fileFields) {
        this.fileFields = fileFields;
    }

    /** A merged row range and the field ids written to it. */
    private record WriteRange(RowRange range, Set<Integer> fieldIds) {}

    /**
     * @param history the snapshots (B, L] in order, each with its delta entries
     */
    void check(
            Snapshot base,
            List<ManifestEntry> update,
            List<Map.Entry<Snapshot, List<ManifestEntry>>> history) {
        List<WriteRange> writes = writeRanges(update);
        long baseNextRowId = base.nextRowId() == null ? 0 : base.nextRowId();
        for (Map.Entry<Snapshot, List<ManifestEntry>> snapshot : history) {
            if (snapshot.getKey().commitKind() == CommitKind.COMPACT) {
                continue;
            }
            for (ManifestEntry entry : snapshot.getValue()) {
                DataFileMeta file = entry.file();
                if (file.firstRowId() == null || file.firstRowId() >= baseNextRowId) {
                    continue;
                }
                RowRange range = RowRange.of(file);
                for (WriteRange write : writes) {
                    if (!range.overlaps(write.range())) {
                        continue;
                    }
                    Set<Integer> theirs = file.writeCols() == null ? null : fileFields.of(file);
                    if (theirs == null || theirs.stream().anyMatch(write.fieldIds()::contains)) {
                        throw conflict(base, snapshot.getKey(), entry, range, write, theirs);
                    }
                }
            }
        }
    }

    private List<WriteRange> writeRanges(List<ManifestEntry> update) {
        List<ManifestEntry> files = new ArrayList<>(update);
        files.removeIf(e -> e.kind() != FileKind.ADD || e.file().firstRowId() == null);
        files.sort(Comparator.comparingLong(e -> e.file().firstRowId()));
        List<WriteRange> merged = new ArrayList<>();
        for (ManifestEntry entry : files) {
            RowRange range = RowRange.of(entry.file());
            Set<Integer> ids = fileFields.of(entry.file());
            WriteRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && last.range().overlaps(range)) {
                Set<Integer> union = new TreeSet<>(last.fieldIds());
                union.addAll(ids);
                RowRange joined =
                        new RowRange(
                                last.range().first(), Math.max(last.range().last(), range.last()));
                merged.set(merged.size() - 1, new WriteRange(joined, union));
            } else {
                merged.add(new WriteRange(range, ids));
            }
        }
        return merged;
    }

    private RuntimeException conflict(
            Snapshot base,
            Snapshot other,
            ManifestEntry entry,
            RowRange range,
            WriteRange write,
            Set<Integer> theirs) {
        TableSchema latest = fileFields.schema(other.schemaId());
        String common =
                theirs == null
                        ? "all fields"
                        : "fields "
                                + describe(
                                        latest,
                                        theirs.stream()
                                                .filter(write.fieldIds()::contains)
                                                .collect(Collectors.toCollection(TreeSet::new)));
        return Errors.conflict(
                "Field conflict: this column update planned on snapshot "
                        + base.id()
                        + " writes fields "
                        + describe(latest, write.fieldIds())
                        + " of rows "
                        + write.range()
                        + ", but snapshot "
                        + other.id()
                        + " ("
                        + other.commitKind()
                        + " by '"
                        + other.commitUser()
                        + "' #"
                        + other.commitIdentifier()
                        + ") "
                        + (entry.kind() == FileKind.ADD ? "wrote " : "removed ")
                        + common
                        + " of rows "
                        + range
                        + " (file "
                        + entry.file().fileName()
                        + "). Committing would undo that change; the table is unchanged. Plan the"
                        + " update again on the latest snapshot.");
    }

    private static String describe(TableSchema schema, Set<Integer> ids) {
        List<String> names = new ArrayList<>();
        for (int id : ids) {
            String name =
                    schema.fields().stream()
                            .filter(f -> f.id() == id)
                            .map(DataField::name)
                            .findFirst()
                            .orElse("<dropped>");
            names.add(name + " (id " + id + ")");
        }
        return names.toString();
    }
}
