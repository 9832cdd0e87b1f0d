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
package io.dovetail.table.schema;

import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.Writers;

import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keys of the table options the schema layer enforces (Paimon's exact spellings) and which of them
 * may never change after CREATE TABLE.
 */
public final class TableOptions {

    public static final String ROW_TRACKING_ENABLED = "row-tracking.enabled";
    public static final String DATA_EVOLUTION_ENABLED = "data-evolution.enabled";

    /** Absent means -1 (bucket-unaware) for tables without a primary key. */
    public static final String BUCKET = "bucket";

    public static final String DELETION_VECTORS_ENABLED = "deletion-vectors.enabled";

    /** When true, {@link #DELETION_VECTORS_ENABLED} may be changed after creation. */
    public static final String DELETION_VECTORS_MODIFIABLE = "deletion-vectors.modifiable";

    /** 64-bit deletion vectors (Dovetail reads and writes 32-bit ones only). */
    public static final String DELETION_VECTORS_BITMAP64 = "deletion-vectors.bitmap64";

    public static final String CLUSTERING_INCREMENTAL = "clustering.incremental";

    /**
     * When set, VECTOR columns are stored in dedicated vector-store files of this format ({@code
     * avro} or {@code json} in Dovetail).
     */
    public static final String VECTOR_FILE_FORMAT = "vector.file.format";

    /** Comma list of ARRAY columns that CREATE TABLE makes VECTOR columns. */
    public static final String VECTOR_FIELD = "vector-field";

    /** Rolling size of vector-store files; absent: ten times {@code target-file-size}. */
    public static final String VECTOR_TARGET_FILE_SIZE = "vector.target-file-size";

    public static final String FILE_FORMAT = "file.format";

    /** Comma list of BYTES columns that CREATE TABLE makes BLOB columns. */
    public static final String BLOB_FIELD = "blob-field";

    /**
     * Comma list of BLOB columns stored inline in normal files as serialized descriptors (Paimon's
     * fallback key {@code blob.stored-descriptor-fields}); immutable.
     */
    public static final String BLOB_DESCRIPTOR_FIELD = "blob-descriptor-field";

    private static final String BLOB_DESCRIPTOR_FIELD_FALLBACK = "blob.stored-descriptor-fields";

    /**
     * Paimon 1.4.2's options writing raw BLOB input under an external path and storing descriptors
     * of it inline (removed again in later Paimon versions); Dovetail refuses them.
     */
    public static final List<String> BLOB_EXTERNAL_STORAGE =
            List.of("blob-external-storage-field", "blob-external-storage-path");

    /** Reads return BLOB values as serialized descriptors instead of their bytes. */
    public static final String BLOB_AS_DESCRIPTOR = "blob-as-descriptor";

    /** Rolling size of {@code .blob} files; absent: {@code target-file-size}. */
    public static final String BLOB_TARGET_FILE_SIZE = "blob.target-file-size";

    /** How many times a commit that lost the race for a snapshot id is retried. */
    public static final String COMMIT_MAX_RETRIES = "commit.max-retries";

    /**
     * Declares that only one writer ever commits to the table: commits then proceed on a store that
     * ignores conditional writes (see {@link io.dovetail.table.fs.Writers#SINGLE}).
     */
    public static final String COMMIT_SINGLE_WRITER = "commit.single-writer";

    /** Number of small manifests at the end of the list at which a commit merges them. */
    public static final String MANIFEST_MERGE_MIN_COUNT = "manifest.merge-min-count";

    /** Size at which a manifest file rolls, and up to which a commit merges small manifests. */
    public static final String MANIFEST_TARGET_FILE_SIZE = "manifest.target-file-size";

    /** Weight of small or deleting manifests at which a commit rewrites them without deletes. */
    public static final String MANIFEST_FULL_COMPACTION_THRESHOLD_SIZE =
            "manifest.full-compaction-threshold-size";

    /** Compaction: a planned bin becomes a task only with at least this many files (default 5). */
    public static final String COMPACTION_MIN_FILE_NUM = "compaction.min.file-num";

    /**
     * Compaction also folds the {@code .blob} and vector-store files of a row-range group (default
     * false). A Dovetail key: Paimon 1.4.2 never compacts them (2.0 has {@code
     * blob-compaction.enabled}, for {@code .blob} files only).
     */
    public static final String COMPACTION_DEDICATED_FILES = "compaction.dedicated-files.enabled";

    /** Bytes a file counts for at least when splits and compaction bins are packed (4 MB). */
    public static final String SOURCE_SPLIT_OPEN_FILE_COST = "source.split.open-file-cost";

    /** Snapshot expiration: at least this many newest snapshots are kept (default 10). */
    public static final String SNAPSHOT_NUM_RETAINED_MIN = "snapshot.num-retained.min";

    /** Snapshot expiration: at most this many snapshots are kept (default unbounded). */
    public static final String SNAPSHOT_NUM_RETAINED_MAX = "snapshot.num-retained.max";

    /** Snapshot expiration: snapshots younger than this are kept (default 1 h). */
    public static final String SNAPSHOT_TIME_RETAINED = "snapshot.time-retained";

    /**
     * What a write that changes a column covered by a global index does: THROW_ERROR (Paimon's
     * default), DROP_PARTITION_INDEX or IGNORE (see {@code GlobalIndexUpdateAction}).
     */
    public static final String GLOBAL_INDEX_COLUMN_UPDATE_ACTION =
            "global-index.column-update-action";

    /**
     * Whether batch reads use the global indexes for their filters (Paimon's key; default true).
     */
    public static final String GLOBAL_INDEX_ENABLED = "global-index.enabled";

    /**
     * The longest a running job's pin keeps its base snapshot from expiring (default 1 d); a job
     * that crashed holds snapshots at most that long.
     */
    public static final String SNAPSHOT_PIN_LEASE = "snapshot.pin.lease";

    /**
     * Streaming consumers whose file was not written for this long are removed by snapshot expiry
     * (Paimon's key; no default: consumers are kept until removed).
     */
    public static final String CONSUMER_EXPIRATION_TIME = "consumer.expiration-time";

    /** Snapshot expiration: at most this many snapshots expire in one run (default 50). */
    public static final String SNAPSHOT_EXPIRE_LIMIT = "snapshot.expire.limit";

    /**
     * Paimon's option that leaves expiry (and compaction) to separate jobs: writes skip the
     * snapshot expiry that follows each commit (default false).
     */
    public static final String WRITE_ONLY = "write-only";

    /**
     * Options fixed at CREATE TABLE (data-evolution semantics section 1.3, metadata format sections
     * 1.2 and 6): an ALTER that sets them to a different value, or removes them, is refused.
     */
    public static final Set<String> IMMUTABLE =
            Set.of(
                    ROW_TRACKING_ENABLED,
                    DATA_EVOLUTION_ENABLED,
                    BUCKET,
                    "primary-key",
                    "partition",
                    "blob-field",
                    "blob-descriptor-field",
                    "blob-view-field",
                    "data-file.path-directory",
                    "index-file-in-data-file-dir");

    private TableOptions() {}

    /** The names of a comma-list option such as {@link #BLOB_FIELD} (trimmed; none when absent). */
    public static Set<String> names(Map<String, String> options, String key) {
        String value = options.get(key);
        Set<String> names = new LinkedHashSet<>();
        if (value != null) {
            for (String name : value.split(",")) {
                if (!name.isBlank()) {
                    names.add(name.trim());
                }
            }
        }
        return names;
    }

    /**
     * The BLOB columns stored inline as descriptors: {@link #BLOB_DESCRIPTOR_FIELD} or its
     * fallback.
     */
    public static Set<String> blobDescriptorFields(Map<String, String> options) {
        return names(
                options,
                options.containsKey(BLOB_DESCRIPTOR_FIELD)
                        ? BLOB_DESCRIPTOR_FIELD
                        : BLOB_DESCRIPTOR_FIELD_FALLBACK);
    }

    /** The key {@code field.<column>.vector-dim}: the dimension of VECTOR column {@code column}. */
    public static String vectorDimKey(String column) {
        return "field." + column + ".vector-dim";
    }

    /** Paimon's boolean reading: "true" in any case is true, anything else (or absent) false. */
    public static boolean isTrue(Map<String, String> options, String key) {
        return "true".equalsIgnoreCase(options.get(key));
    }

    /** Who commits to a table with these options. */
    public static Writers writers(Map<String, String> options) {
        return isTrue(options, COMMIT_SINGLE_WRITER) ? Writers.SINGLE : Writers.CONCURRENT;
    }

    /**
     * A duration option in Paimon's spellings ({@code 1 h}, {@code 30min}, {@code 500 ms}, a bare
     * number is milliseconds), {@code defaultValue} when absent; anything else is a clear error.
     */
    public static Duration durationValue(
            Map<String, String> options, String key, Duration defaultValue) {
        String value = options.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return TimeUtils.parseDuration(value);
        } catch (IllegalArgumentException e) {
            throw Errors.invalidArgument(
                    "Option '"
                            + key
                            + "' must be a duration such as '1 h', '30 min' or '500 ms', got '"
                            + value
                            + "'.");
        }
    }

    /**
     * A memory-size option in Paimon's spellings ({@code 4 mb}, {@code 256MB}, a bare number is
     * bytes), {@code defaultValue} when absent; anything else, or a size below one byte, is a clear
     * error naming the option.
     */
    public static long memorySizeValue(Map<String, String> options, String key, long defaultValue) {
        String value = options.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            long bytes = MemorySize.parseBytes(value);
            if (bytes > 0) {
                return bytes;
            }
        } catch (IllegalArgumentException ignored) {
            // reported below
        }
        throw Errors.invalidArgument(
                "Option '"
                        + key
                        + "' must be a positive memory size such as '4 mb' or '256 mb', got '"
                        + value
                        + "'.");
    }

    /**
     * An integer option, {@code defaultValue} when absent; a value that is not an integer of at
     * least {@code min} is a clear error naming the option.
     */
    public static int intValue(Map<String, String> options, String key, int defaultValue, int min) {
        String value = options.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= min) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw Errors.invalidArgument(
                "Option '"
                        + key
                        + "' must be an integer of at least "
                        + min
                        + ", got '"
                        + value
                        + "'.");
    }
}
