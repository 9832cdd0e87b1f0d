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
import io.dovetail.table.manifest.FileIdentity;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.manifest.ManifestFileReader;
import io.dovetail.table.manifest.ManifestFileWriter;
import io.dovetail.table.manifest.ManifestPartitionFilter;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableOptions;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.types.logical.LogicalType;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The base manifests of a new snapshot: the latest snapshot's base and delta manifests, merged the
 * way Paimon merges them so that a commit reads only the manifests it rewrites, never all of them.
 *
 * <ul>
 *   <li>Full compaction, once the manifests that hold DELETE entries or are smaller than {@code
 *       manifest.target-file-size} weigh {@code manifest.full-compaction-threshold-size} together:
 *       those manifests, and the large ones whose partitions have deleted files, are rewritten with
 *       only their live ADD entries.
 *   <li>Otherwise minor compaction: runs of consecutive manifests are merged once they reach the
 *       target size, and the last run once it counts {@code manifest.merge-min-count} manifests; an
 *       ADD and a DELETE of one file inside a run cancel, a DELETE whose ADD lies outside stays.
 * </ul>
 *
 * A full compaction holds one manifest's entries at a time (and the identities of deleted files):
 * live entries stream into the new manifests. Every manifest written is added to the caller's list
 * once complete; a failure deletes the incomplete ones.
 */
final class ManifestMerge {

    static final long DEFAULT_FULL_COMPACTION_THRESHOLD = 16L * 1024 * 1024;

    private final Path manifestDir;
    private final List<LogicalType> partitionTypes;
    private final ManifestFileWriter writer;
    private final long targetFileSize;
    private final int minCount;
    private final long fullCompactionThreshold;

    ManifestMerge(TablePaths paths, List<LogicalType> partitionTypes, Map<String, String> options) {
        this.manifestDir = paths.manifestDir();
        this.partitionTypes = partitionTypes;
        this.targetFileSize = targetFileSize(options);
        this.writer = TableCommit.manifestWriter(paths, partitionTypes, options);
        this.minCount =
                TableOptions.intValue(
                        options,
                        TableOptions.MANIFEST_MERGE_MIN_COUNT,
                        TableCommit.DEFAULT_MANIFEST_MERGE_MIN_COUNT,
                        1);
        this.fullCompactionThreshold =
                TableOptions.memorySizeValue(
                        options,
                        TableOptions.MANIFEST_FULL_COMPACTION_THRESHOLD_SIZE,
                        DEFAULT_FULL_COMPACTION_THRESHOLD);
    }

    static long targetFileSize(Map<String, String> options) {
        return TableOptions.memorySizeValue(
                options,
                TableOptions.MANIFEST_TARGET_FILE_SIZE,
                ManifestFileWriter.DEFAULT_TARGET_FILE_SIZE);
    }

    /** The merged list; {@code written} receives every manifest file this call creates. */
    List<ManifestFileMeta> merge(List<ManifestFileMeta> manifests, List<Path> written) {
        return fully(manifests, written).orElseGet(() -> minor(manifests, written));
    }

    private boolean mustChange(ManifestFileMeta manifest) {
        return manifest.numDeletedFiles() > 0 || manifest.fileSize() < targetFileSize;
    }

    private Optional<List<ManifestFileMeta>> fully(
            List<ManifestFileMeta> manifests, List<Path> written) {
        long mustChangeBytes =
                manifests.stream()
                        .filter(this::mustChange)
                        .mapToLong(ManifestFileMeta::fileSize)
                        .sum();
        if (mustChangeBytes < fullCompactionThreshold) {
            return Optional.empty();
        }
        Set<FileIdentity> deleted = new HashSet<>();
        Set<ByteBuffer> deletedPartitions = new HashSet<>();
        for (ManifestFileMeta manifest : manifests) {
            if (manifest.numDeletedFiles() == 0) {
                continue;
            }
            for (ManifestEntry entry : read(manifest)) {
                if (entry.kind() == FileKind.DELETE) {
                    deleted.add(entry.identity());
                    deletedPartitions.add(ByteBuffer.wrap(entry.partition()));
                }
            }
        }
        ManifestPartitionFilter withDeletes =
                new ManifestPartitionFilter(partitionTypes, deletedPartitions);
        List<ManifestFileMeta> result = new ArrayList<>();
        List<ManifestFileMeta> toMerge = new ArrayList<>();
        for (ManifestFileMeta manifest : manifests) {
            if (mustChange(manifest) || withDeletes.mayHold(manifest)) {
                toMerge.add(manifest);
            } else {
                result.add(manifest);
            }
        }
        if (toMerge.size() <= 1) {
            return Optional.empty();
        }
        // one manifest's entries in memory at a time: the live ones go straight to the new files
        try (ManifestFileWriter.Rolling live = writer.rolling()) {
            for (ManifestFileMeta manifest : toMerge) {
                boolean change = mustChange(manifest);
                List<ManifestEntry> kept = new ArrayList<>();
                for (ManifestEntry entry : read(manifest)) {
                    if (entry.kind() == FileKind.DELETE) {
                        continue;
                    }
                    if (deleted.contains(entry.identity())) {
                        change = true;
                    } else {
                        kept.add(entry);
                    }
                }
                if (change) {
                    kept.forEach(live::add);
                } else {
                    result.add(manifest);
                }
            }
            result.addAll(written(live.finish(), written));
        }
        return Optional.of(result);
    }

    private List<ManifestFileMeta> minor(List<ManifestFileMeta> manifests, List<Path> written) {
        List<ManifestFileMeta> result = new ArrayList<>();
        List<ManifestFileMeta> run = new ArrayList<>();
        long runBytes = 0;
        for (ManifestFileMeta manifest : manifests) {
            run.add(manifest);
            runBytes += manifest.fileSize();
            if (runBytes >= targetFileSize) {
                result.addAll(mergeRun(run, written));
                run.clear();
                runBytes = 0;
            }
        }
        result.addAll(run.size() >= minCount ? mergeRun(run, written) : run);
        return result;
    }

    /** One run of manifests as one or more manifests, ADDs and DELETEs of a file cancelled. */
    private List<ManifestFileMeta> mergeRun(List<ManifestFileMeta> run, List<Path> written) {
        if (run.size() == 1) {
            return List.copyOf(run);
        }
        Map<FileIdentity, ManifestEntry> merged = new LinkedHashMap<>();
        for (ManifestFileMeta manifest : run) {
            for (ManifestEntry entry : read(manifest)) {
                FileIdentity identity = entry.identity();
                if (entry.kind() == FileKind.DELETE) {
                    if (merged.remove(identity) == null) {
                        merged.put(identity, entry);
                    }
                } else if (merged.putIfAbsent(identity, entry) != null) {
                    throw Errors.invalidLayout(
                            "Data file "
                                    + identity
                                    + " is added twice in manifests "
                                    + run.stream().map(ManifestFileMeta::fileName).toList()
                                    + "; the table metadata is inconsistent and must be"
                                    + " repaired.");
                }
            }
        }
        return write(new ArrayList<>(merged.values()), written);
    }

    private List<ManifestEntry> read(ManifestFileMeta manifest) {
        return ManifestFileReader.read(manifestDir, manifest);
    }

    private List<ManifestFileMeta> write(List<ManifestEntry> entries, List<Path> written) {
        return written(writer.write(entries), written);
    }

    private List<ManifestFileMeta> written(List<ManifestFileMeta> metas, List<Path> written) {
        metas.forEach(m -> written.add(new Path(manifestDir, m.fileName())));
        return metas;
    }
}
