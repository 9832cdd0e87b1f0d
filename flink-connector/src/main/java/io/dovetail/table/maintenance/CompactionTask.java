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

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One normal-compaction task (data-evolution semantics §8.1): adjacent row-range groups of one
 * partition and the one file that replaces files of theirs, covering {@code range}, the union of
 * the groups' ranges. Files are the entries the planned snapshot lists.
 *
 * <p>A full task ({@code columns} null) replaces every normal file of its groups by one file of
 * every normal column. A column-selective task has one group and writes only {@code columns} (names
 * of the current schema, in its order) into a partial-column file over the group's range; it
 * replaces the group's files but the {@code kept} ones ({@link CompactionPlanner} says which). A
 * dedicated task ({@link #dedicated()}) lists dedicated files as its group's files and folds them
 * all into one file of {@code columns} over the group's range.
 */
public record CompactionTask(
        byte[] partition,
        RowRange range,
        List<Group> groups,
        @Nullable List<String> columns,
        Set<String> kept) {

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
            return anchorOf(files);
        }

        long weight(long openFileCost) {
            return files.stream().mapToLong(f -> Math.max(f.file().fileSize(), openFileCost)).sum();
        }
    }

    /**
     * A task folding dedicated {@code files} (the {@code .blob} files of one BLOB field, or
     * vector-store files) of the group over {@code range} into one file of {@code columns} over the
     * whole range.
     */
    public static CompactionTask dedicated(
            byte[] partition, RowRange range, List<ManifestEntry> files, List<String> columns) {
        return new CompactionTask(
                partition, range, List.of(new Group(range, files)), columns, Set.of());
    }

    /** A full task: every normal file of {@code groups} rewritten with every column. */
    public static CompactionTask full(byte[] partition, RowRange range, List<Group> groups) {
        return new CompactionTask(partition, range, groups, null, Set.of());
    }

    /**
     * A column-selective task: {@code columns} of {@code group} rewritten, its files named in
     * {@code kept} left in place.
     */
    public static CompactionTask columns(
            byte[] partition, Group group, List<String> columns, Set<String> kept) {
        return new CompactionTask(partition, group.range(), List.of(group), columns, kept);
    }

    public CompactionTask {
        partition = partition.clone();
        groups = List.copyOf(groups);
        columns = columns == null ? null : List.copyOf(columns);
        kept = Set.copyOf(kept);
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
        if (columns != null) {
            checkColumnSelective(range, groups, columns, kept);
        } else if (!kept.isEmpty()) {
            throw Errors.invalidArgument(
                    "A full compaction task of rows " + range + " replaces every file it reads.");
        }
    }

    private static void checkColumnSelective(
            RowRange range, List<Group> groups, List<String> columns, Set<String> kept) {
        if (groups.size() != 1 || columns.isEmpty()) {
            throw Errors.invalidArgument(
                    "A column-selective compaction task of rows "
                            + range
                            + " rewrites at least one column of exactly one group.");
        }
        Set<String> names = new HashSet<>();
        groups.get(0).files().forEach(f -> names.add(f.file().fileName()));
        if (!names.containsAll(kept) || names.size() - kept.size() < 2) {
            throw Errors.invalidArgument(
                    "A column-selective compaction task of rows "
                            + range
                            + " keeps only files of its group and replaces at least two; it keeps "
                            + kept
                            + " of "
                            + names
                            + ".");
        }
    }

    @Override
    public byte[] partition() {
        return partition.clone();
    }

    /**
     * Whether the task folds dedicated files ({@link #dedicated(byte[], RowRange, List, List)}):
     * its one group lists no normal file. It moves no deletion vector, whose anchor is a normal
     * file.
     */
    public boolean dedicated() {
        return columns != null
                && groups.get(0).files().stream()
                        .noneMatch(f -> DataFileKinds.isNormal(f.file().fileName()));
    }

    /** Whether the task rewrites every column ({@code columns} null). */
    public boolean full() {
        return columns == null;
    }

    /** The files the task replaces, group by group in row order. */
    public List<ManifestEntry> inputs() {
        List<ManifestEntry> inputs = new ArrayList<>();
        for (Group group : groups) {
            for (ManifestEntry file : group.files()) {
                if (!kept.contains(file.file().fileName())) {
                    inputs.add(file);
                }
            }
        }
        return inputs;
    }

    /**
     * The anchor of the task's range once {@code compacted}, the task's file, replaced its inputs:
     * the first of the kept files and it in anchor order (it alone for a full task).
     */
    public ManifestEntry anchorAfter(ManifestEntry compacted) {
        List<ManifestEntry> after = new ArrayList<>(List.of(compacted));
        groups.get(0).files().stream()
                .filter(f -> kept.contains(f.file().fileName()))
                .forEach(after::add);
        return anchorOf(after);
    }

    /**
     * The smallest {@code minSequenceNumber} of the groups' files: the compacted file keeps the
     * sequence bounds of the files it is read from, so a partial-column file committed after the
     * planned snapshot still wins.
     */
    public long minSequenceNumber() {
        return files().mapToLong(e -> e.file().minSequenceNumber()).min().orElseThrow();
    }

    /**
     * The largest {@code maxSequenceNumber} of the groups' files: the compacted file is their
     * newest, so rows keep their {@code _SEQUENCE_NUMBER} under a column-selective rewrite too.
     */
    public long maxSequenceNumber() {
        return files().mapToLong(e -> e.file().maxSequenceNumber()).max().orElseThrow();
    }

    private Stream<ManifestEntry> files() {
        return groups.stream().flatMap(g -> g.files().stream());
    }

    private static ManifestEntry anchorOf(List<ManifestEntry> files) {
        return files.stream()
                .filter(e -> DataFileKinds.isNormal(e.file().fileName()))
                .min((a, b) -> DeletionVectorAnchors.ANCHOR_ORDER.compare(a.file(), b.file()))
                .orElseThrow();
    }
}
