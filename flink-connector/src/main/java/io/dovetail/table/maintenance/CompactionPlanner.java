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

import io.dovetail.table.error.Errors;
import io.dovetail.table.maintenance.CompactionTask.Group;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.ProviderSelection;
import io.dovetail.table.schema.DataEvolutionTableValidator;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.write.DataFileWriterOptions;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongFunction;

/**
 * Plans data-evolution compaction over the live files of one snapshot (semantics §8.1), per
 * partition. Normal files with equal row ranges form a group.
 *
 * <p>Column-selective ({@link CompactionConfig.Rewrite#COLUMNS}), per group of at least {@code
 * compaction.min.file-num} files: a column of the current schema (not a partition column) that more
 * than one file of the group holds has versions to fold. The files whose every such column has
 * versions to fold are replaced by one partial-column file of their columns; every other file (one
 * holding a column no other file holds, such as an image written once) stays and none of its
 * columns is read. A file holding partition columns (an INSERT's) stays too: Paimon 1.4.2 reads
 * them from the files of the group (measured: NULL once no file holds them), and a partial-column
 * file never holds them. A group gets a task only when at least two files are replaced.
 *
 * <p>Full ({@link CompactionConfig.Rewrite#FULL}):
 *
 * <ol>
 *   <li>normal files with equal row ranges form a group; groups whose ranges touch ({@code next
 *       first == previous last + 1}) and whose dedicated files are alike form a run: the same BLOB
 *       fields and the same vector-store bunches (schema, format, columns), so that after the merge
 *       each field's files and each bunch still tile the merged range, which Paimon 1.4.2's reader
 *       requires (a range of rows written before a VECTOR or BLOB column existed, or in another
 *       schema version, is not merged with one written after);
 *   <li>each run's groups are walked in row order and packed into a bin whose weight is the sum
 *       over its files of {@code max(file size, open-file cost)}: a group heavier than the target
 *       closes the current bin and forms a bin of its own; otherwise it joins the bin, which closes
 *       once its weight exceeds the target; the rest closes at the end of the run;
 *   <li>a bin becomes a task only if it holds at least {@code compaction.min.file-num} files, and
 *       never with a single file (its rewrite would be the same file again).
 * </ol>
 *
 * BLOB and vector-store files are not rewritten by these tasks (as in Paimon 1.4.2): they keep
 * their row ids, which stay inside the one normal file a task writes. With {@code
 * compaction.dedicated-files.enabled}, tasks of their own fold them per group ({@link
 * #planDedicated}), in either mode.
 */
public final class CompactionPlanner {

    private final CompactionConfig config;
    private final TableSchema current;
    private final LongFunction<TableSchema> schemas;
    private final Set<Integer> partitionFieldIds = new HashSet<>();

    /**
     * A planner by {@code config}, for tasks written with schema {@code current}; {@code schemas}
     * gives the schema a file was written with, to tell the columns it holds.
     */
    public CompactionPlanner(
            CompactionConfig config, TableSchema current, LongFunction<TableSchema> schemas) {
        this.config = config;
        this.current = current;
        this.schemas = schemas;
        current.fields().stream()
                .filter(f -> current.partitionKeys().contains(f.name()))
                .forEach(f -> partitionFieldIds.add(f.id()));
    }

    /** The tasks for {@code liveFiles}, the live files of the partitions to compact. */
    public List<CompactionTask> plan(List<ManifestEntry> liveFiles) {
        Map<ByteBuffer, List<ManifestEntry>> byPartition = new LinkedHashMap<>();
        Map<ByteBuffer, List<ManifestEntry>> dedicatedByPartition = new HashMap<>();
        for (ManifestEntry entry : liveFiles) {
            if (entry.file().rowCount() == 0) {
                continue;
            }
            (DataFileKinds.isNormal(entry.file().fileName()) ? byPartition : dedicatedByPartition)
                    .computeIfAbsent(ByteBuffer.wrap(entry.partition()), k -> new ArrayList<>())
                    .add(entry);
        }
        List<CompactionTask> tasks = new ArrayList<>();
        for (Map.Entry<ByteBuffer, List<ManifestEntry>> partition : byPartition.entrySet()) {
            List<Group> groups = groups(partition.getValue());
            List<ManifestEntry> dedicated =
                    dedicatedByPartition.getOrDefault(partition.getKey(), List.of());
            int partitionTasks = tasks.size();
            if (config.rewrite() == CompactionConfig.Rewrite.COLUMNS) {
                Set<Integer> columns = rewritableFieldIds();
                for (Group group : groups) {
                    planColumns(group, columns, tasks);
                }
            } else {
                for (List<Group> run : runs(groups, signatures(groups, dedicated))) {
                    pack(run, tasks);
                }
            }
            if (config.dedicatedFiles()) {
                // a group a full task merges with others keeps its dedicated files: a fold would
                // write a vector-store bunch of the current schema beside its neighbours' older
                // ones, which would no longer tile the merged range
                Set<Group> merged = new HashSet<>();
                tasks.subList(partitionTasks, tasks.size()).stream()
                        .filter(t -> t.groups().size() > 1)
                        .forEach(t -> merged.addAll(t.groups()));
                List<Group> alone = groups.stream().filter(g -> !merged.contains(g)).toList();
                planDedicated(alone, dedicated, tasks);
            }
        }
        return tasks;
    }

    /**
     * The tasks folding dedicated files ({@code compaction.dedicated-files.enabled}): per group,
     * the {@code .blob} files of one BLOB field of the current schema, or the vector-store files
     * (into one of every current VECTOR column), become one file over the group's range when there
     * are at least {@code compaction.min.file-num} (and two) of them and they hold older versions
     * of some row (overlapping ranges) or weigh at most the field's target file size together; the
     * rolled files of one large write stay. {@code groups} are those no full task merges.
     */
    private void planDedicated(
            List<Group> groups, List<ManifestEntry> dedicated, List<CompactionTask> tasks) {
        TreeMap<Long, Group> byFirst = new TreeMap<>();
        groups.forEach(g -> byFirst.put(g.range().first(), g));
        Map<Group, Map<List<String>, List<ManifestEntry>>> byGroup = new LinkedHashMap<>();
        for (ManifestEntry entry : dedicated) {
            Map.Entry<Long, Group> owner = byFirst.floorEntry(entry.file().firstRowId());
            List<String> columns = foldedColumns(entry.file());
            if (owner != null
                    && owner.getValue().range().contains(RowRange.of(entry.file()))
                    && !columns.isEmpty()) {
                byGroup.computeIfAbsent(owner.getValue(), g -> new LinkedHashMap<>())
                        .computeIfAbsent(columns, c -> new ArrayList<>())
                        .add(entry);
            }
        }
        DataFileWriterOptions sizes = DataFileWriterOptions.fromTableOptions(current.options());
        byGroup.forEach(
                (group, byColumns) ->
                        byColumns.forEach(
                                (columns, files) -> {
                                    long target =
                                            DataFileKinds.isBlob(files.get(0).file().fileName())
                                                    ? sizes.blobTargetFileSize()
                                                    : sizes.vectorTargetFileSize();
                                    long bytes =
                                            files.stream()
                                                    .mapToLong(f -> f.file().fileSize())
                                                    .sum();
                                    if (files.size() >= Math.max(2, config.minFileNum())
                                            && (overlap(files) || bytes <= target)) {
                                        tasks.add(
                                                CompactionTask.dedicated(
                                                        files.get(0).partition(),
                                                        group.range(),
                                                        files,
                                                        columns));
                                    }
                                }));
    }

    /**
     * The current columns a fold of dedicated {@code file} writes: its BLOB field, or every VECTOR
     * column; none for the file of a dropped BLOB field.
     */
    private List<String> foldedColumns(DataFileMeta file) {
        if (DataFileKinds.isBlob(file.fileName())) {
            Set<Integer> ids = ProviderSelection.writtenFields(file, schemas).keySet();
            return current.fields().stream()
                    .filter(f -> ids.contains(f.id()))
                    .filter(f -> DataEvolutionTableValidator.isDedicatedColumn(current, f))
                    .map(DataField::name)
                    .toList();
        }
        return current.fields().stream()
                .filter(f -> DataEvolutionTableValidator.isDedicatedColumn(current, f))
                .filter(f -> !DataEvolutionTableValidator.isBlobColumn(f.type()))
                .map(DataField::name)
                .toList();
    }

    /** Whether some row id lies in more than one of {@code files}. */
    private static boolean overlap(List<ManifestEntry> files) {
        List<RowRange> ranges =
                files.stream()
                        .map(f -> RowRange.of(f.file()))
                        .sorted(Comparator.comparingLong(RowRange::first))
                        .toList();
        for (int i = 1; i < ranges.size(); i++) {
            if (ranges.get(i).first() <= ranges.get(i - 1).last()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Per group, what its dedicated files are: BLOB fields and vector-store bunches, each by schema
     * id, format and columns written.
     */
    private static List<Set<String>> signatures(List<Group> groups, List<ManifestEntry> dedicated) {
        List<Set<String>> signatures = new ArrayList<>();
        TreeMap<Long, Integer> byFirst = new TreeMap<>();
        for (int g = 0; g < groups.size(); g++) {
            signatures.add(new TreeSet<>());
            byFirst.put(groups.get(g).range().first(), g);
        }
        for (ManifestEntry entry : dedicated) {
            DataFileMeta file = entry.file();
            Map.Entry<Long, Integer> owner = byFirst.floorEntry(file.firstRowId());
            if (owner == null) {
                continue; // no normal file owns it: a broken layout the readers report
            }
            List<String> columns =
                    new ArrayList<>(file.writeCols() == null ? List.of() : file.writeCols());
            columns.sort(null);
            signatures
                    .get(owner.getValue())
                    .add(
                            DataFileKinds.isBlob(file.fileName())
                                    ? "blob " + columns
                                    : "vector "
                                            + file.schemaId()
                                            + " "
                                            + DataFileKinds.vectorStoreFormat(file.fileName())
                                            + " "
                                            + columns);
        }
        return signatures;
    }

    /** The field ids a column-selective task may write: normal, non-partition, current. */
    private Set<Integer> rewritableFieldIds() {
        Set<Integer> ids = new HashSet<>();
        for (DataField field : current.fields()) {
            if (!DataEvolutionTableValidator.isDedicatedColumn(current, field)
                    && !current.partitionKeys().contains(field.name())) {
                ids.add(field.id());
            }
        }
        return ids;
    }

    /** The column-selective task of {@code group}, if it is worth one. */
    private void planColumns(Group group, Set<Integer> rewritable, List<CompactionTask> tasks) {
        if (group.files().size() < Math.max(2, config.minFileNum())) {
            return;
        }
        List<Set<Integer>> held = new ArrayList<>();
        List<Boolean> holdsPartition = new ArrayList<>();
        Map<Integer, Integer> holders = new HashMap<>();
        for (ManifestEntry file : group.files()) {
            Set<Integer> ids =
                    new HashSet<>(ProviderSelection.writtenFields(file.file(), schemas).keySet());
            holdsPartition.add(ids.stream().anyMatch(partitionFieldIds::contains));
            ids.retainAll(rewritable);
            ids.forEach(id -> holders.merge(id, 1, Integer::sum));
            held.add(ids);
        }
        Set<Integer> columns = new HashSet<>();
        Set<String> kept = new HashSet<>();
        for (int f = 0; f < held.size(); f++) {
            if (!holdsPartition.get(f)
                    && held.get(f).stream().allMatch(id -> holders.get(id) > 1)) {
                columns.addAll(held.get(f));
            } else {
                kept.add(group.files().get(f).file().fileName());
            }
        }
        if (group.files().size() - kept.size() >= 2 && !columns.isEmpty()) {
            List<String> names =
                    current.fields().stream()
                            .filter(f -> columns.contains(f.id()))
                            .map(DataField::name)
                            .toList();
            byte[] partition = group.files().get(0).partition();
            tasks.add(CompactionTask.columns(partition, group, names, kept));
        }
    }

    /** The groups of one partition's files in row order; unequal overlapping ranges are refused. */
    private static List<Group> groups(List<ManifestEntry> files) {
        List<ManifestEntry> sorted = new ArrayList<>(files);
        sorted.sort(Comparator.comparingLong(e -> RowRange.of(e.file()).first()));
        List<Group> groups = new ArrayList<>();
        List<ManifestEntry> current = new ArrayList<>();
        RowRange range = null;
        for (ManifestEntry entry : sorted) {
            RowRange next = RowRange.of(entry.file());
            if (range != null && next.overlaps(range) && !next.equals(range)) {
                throw Errors.invalidLayout(
                        "Normal data files "
                                + current.get(0).file().fileName()
                                + " "
                                + range
                                + " and "
                                + entry.file().fileName()
                                + " "
                                + next
                                + " overlap without covering the same row ids; the table breaks"
                                + " the data-evolution layout contract and cannot be compacted.");
            }
            if (range != null && !next.equals(range)) {
                groups.add(new Group(range, current));
                current = new ArrayList<>();
            }
            current.add(entry);
            range = next;
        }
        if (range != null) {
            groups.add(new Group(range, current));
        }
        return groups;
    }

    /** Maximal chains of groups whose ranges touch and whose dedicated files are alike. */
    private static List<List<Group>> runs(List<Group> groups, List<Set<String>> signatures) {
        List<List<Group>> runs = new ArrayList<>();
        List<Group> run = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            Group group = groups.get(g);
            if (!run.isEmpty()
                    && (group.range().first() != run.get(run.size() - 1).range().last() + 1
                            || !signatures.get(g).equals(signatures.get(g - 1)))) {
                runs.add(run);
                run = new ArrayList<>();
            }
            run.add(group);
        }
        if (!run.isEmpty()) {
            runs.add(run);
        }
        return runs;
    }

    private void pack(List<Group> run, List<CompactionTask> tasks) {
        List<Group> bin = new ArrayList<>();
        long weight = 0;
        for (Group group : run) {
            long groupWeight = group.weight(config.openFileCost());
            if (groupWeight > config.targetFileSize()) {
                close(bin, tasks);
                close(List.of(group), tasks);
                bin = new ArrayList<>();
                weight = 0;
                continue;
            }
            bin.add(group);
            weight += groupWeight;
            if (weight > config.targetFileSize()) {
                close(bin, tasks);
                bin = new ArrayList<>();
                weight = 0;
            }
        }
        close(bin, tasks);
    }

    private void close(List<Group> bin, List<CompactionTask> tasks) {
        int files = bin.stream().mapToInt(g -> g.files().size()).sum();
        if (files > 1 && files >= config.minFileNum()) { // one file would be rewritten as itself
            RowRange range =
                    new RowRange(
                            bin.get(0).range().first(), bin.get(bin.size() - 1).range().last());
            byte[] partition = bin.get(0).files().get(0).partition();
            tasks.add(CompactionTask.full(partition, range, bin));
        }
    }
}
