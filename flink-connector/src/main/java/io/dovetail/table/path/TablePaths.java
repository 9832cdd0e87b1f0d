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
package io.dovetail.table.path;

import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.ChildPaths;

import org.apache.flink.core.fs.Path;

import java.util.Objects;

/**
 * Every directory and file location of one table, following Paimon's layout:
 *
 * <pre>
 * &lt;table&gt;/schema/schema-&lt;id&gt;
 * &lt;table&gt;/snapshot/snapshot-&lt;id&gt;, LATEST, EARLIEST
 * &lt;table&gt;/manifest/manifest-*, manifest-list-*, index-manifest-*
 * &lt;table&gt;/index/index-*
 * &lt;table&gt;/[&lt;k1&gt;=&lt;v1&gt;/...]/bucket-&lt;n&gt;/data-*.&lt;format&gt;
 * </pre>
 *
 * <p>File names passed in must be single path segments; partition paths must be what {@link
 * PartitionPaths} produces.
 */
public final class TablePaths {

    public static final String SCHEMA_DIR = "schema";
    public static final String SNAPSHOT_DIR = "snapshot";
    public static final String MANIFEST_DIR = "manifest";
    public static final String INDEX_DIR = "index";
    public static final String STATISTICS_DIR = "statistics";
    public static final String TAG_DIR = "tag";
    public static final String CONSUMER_DIR = "consumer";

    public static final String SCHEMA_FILE_PREFIX = "schema-";
    public static final String SNAPSHOT_FILE_PREFIX = "snapshot-";
    public static final String LATEST_HINT = "LATEST";
    public static final String EARLIEST_HINT = "EARLIEST";
    public static final String BUCKET_DIR_PREFIX = "bucket-";

    /** The single bucket of bucket-unaware ({@code bucket = -1}) append and DE tables. */
    public static final int UNAWARE_BUCKET = 0;

    private final Path root;

    public TablePaths(Path root) {
        this.root = Objects.requireNonNull(root, "table root");
    }

    public Path root() {
        return root;
    }

    public Path schemaDir() {
        return new Path(root, SCHEMA_DIR);
    }

    public Path schemaFile(long schemaId) {
        if (schemaId < 0) {
            throw Errors.invalidArgument("Schema ids start at 0, got " + schemaId + ".");
        }
        return new Path(schemaDir(), SCHEMA_FILE_PREFIX + schemaId);
    }

    public Path snapshotDir() {
        return new Path(root, SNAPSHOT_DIR);
    }

    public Path snapshotFile(long snapshotId) {
        if (snapshotId < 1) {
            throw Errors.invalidArgument("Snapshot ids start at 1, got " + snapshotId + ".");
        }
        return new Path(snapshotDir(), SNAPSHOT_FILE_PREFIX + snapshotId);
    }

    public Path latestHint() {
        return new Path(snapshotDir(), LATEST_HINT);
    }

    public Path earliestHint() {
        return new Path(snapshotDir(), EARLIEST_HINT);
    }

    public Path manifestDir() {
        return new Path(root, MANIFEST_DIR);
    }

    /** A manifest, manifest list or index manifest, by the name stored in metadata. */
    public Path manifestFile(String fileName) {
        return ChildPaths.below(manifestDir(), checkFileName(fileName));
    }

    public Path indexDir() {
        return new Path(root, INDEX_DIR);
    }

    public Path indexFile(String fileName) {
        return ChildPaths.below(indexDir(), checkFileName(fileName));
    }

    /** A table-statistics file (written by Paimon's ANALYZE), by the name a snapshot stores. */
    public Path statisticsFile(String fileName) {
        return ChildPaths.below(new Path(root, STATISTICS_DIR), checkFileName(fileName));
    }

    /** Tags: {@code tag-<name>} files holding the snapshot they keep alive. */
    public Path tagDir() {
        return new Path(root, TAG_DIR);
    }

    /** Streaming consumers: {@code consumer-<id>} files holding the next snapshot they read. */
    public Path consumerDir() {
        return new Path(root, CONSUMER_DIR);
    }

    /**
     * The bucket directory of a partition: {@code <table>/<partitionPath>/bucket-<n>}, or {@code
     * <table>/bucket-<n>} for the empty partition path of an unpartitioned table.
     */
    public Path bucketDir(String partitionPath, int bucket) {
        if (bucket < 0) {
            throw Errors.invalidArgument("Bucket numbers start at 0, got " + bucket + ".");
        }
        PartitionPaths.parse(partitionPath);
        String relative =
                (partitionPath.isEmpty() || partitionPath.endsWith("/")
                                ? partitionPath
                                : partitionPath + "/")
                        + BUCKET_DIR_PREFIX
                        + bucket;
        return ChildPaths.below(root, relative);
    }

    public Path dataFile(String partitionPath, int bucket, String fileName) {
        return ChildPaths.below(bucketDir(partitionPath, bucket), checkFileName(fileName));
    }

    /**
     * Accepts a plain file name: one non-empty path segment that is not {@code .} or {@code ..}.
     */
    static String checkFileName(String fileName) {
        if (fileName == null
                || fileName.isEmpty()
                || fileName.equals(".")
                || fileName.equals("..")
                || fileName.indexOf('/') >= 0
                || fileName.indexOf('\\') >= 0
                || fileName.indexOf(':') >= 0) {
            throw Errors.invalidArgument(
                    "Invalid file name '"
                            + fileName
                            + "': metadata may only name files as one plain path segment.");
        }
        return fileName;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TablePaths && ((TablePaths) o).root.equals(root);
    }

    @Override
    public int hashCode() {
        return root.hashCode();
    }

    @Override
    public String toString() {
        return root.toString();
    }
}
