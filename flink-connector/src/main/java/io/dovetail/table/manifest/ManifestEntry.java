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
package io.dovetail.table.manifest;

import io.dovetail.table.error.Errors;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One record of a manifest file: a data file added to or deleted from a partition and bucket.
 *
 * @param partition serialized BinaryRow of the partition values (arity 0 when unpartitioned)
 * @param totalBuckets bucket count when written; -1 for bucket-unaware tables
 */
public record ManifestEntry(
        FileKind kind, byte[] partition, int bucket, int totalBuckets, DataFileMeta file) {

    public ManifestEntry {
        if (kind == null || partition == null || file == null) {
            throw Errors.invalidArgument(
                    "A manifest entry needs a kind, partition and file, got " + kind + ", " + file);
        }
        partition = partition.clone();
    }

    @Override
    public byte[] partition() {
        return partition.clone();
    }

    /** What identifies the file when ADD and DELETE entries are matched. */
    public FileIdentity identity() {
        return new FileIdentity(
                partition,
                bucket,
                file.level(),
                file.fileName(),
                file.extraFiles(),
                file.embeddedFileIndex(),
                file.externalPath());
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ManifestEntry)) {
            return false;
        }
        ManifestEntry that = (ManifestEntry) o;
        return kind == that.kind
                && bucket == that.bucket
                && totalBuckets == that.totalBuckets
                && Arrays.equals(partition, that.partition)
                && file.equals(that.file);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, Arrays.hashCode(partition), bucket, file);
    }

    @Override
    public String toString() {
        return "ManifestEntry{"
                + kind
                + ", partition="
                + HexFormat.of().formatHex(partition)
                + ", bucket="
                + bucket
                + ", totalBuckets="
                + totalBuckets
                + ", file="
                + file
                + '}';
    }
}
