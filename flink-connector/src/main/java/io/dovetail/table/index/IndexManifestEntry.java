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
package io.dovetail.table.index;

import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.FileKind;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One record of an index manifest: an index file of a partition and bucket. Paimon persists only
 * ADD records (the index manifest lists all live index files).
 *
 * @param partition serialized BinaryRow of the partition values
 */
public record IndexManifestEntry(
        FileKind kind, byte[] partition, int bucket, IndexFileMeta indexFile) {

    public IndexManifestEntry {
        if (kind == null || partition == null || indexFile == null) {
            throw Errors.invalidArgument(
                    "An index manifest entry needs a kind, partition and file");
        }
        partition = partition.clone();
    }

    @Override
    public byte[] partition() {
        return partition.clone();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof IndexManifestEntry)) {
            return false;
        }
        IndexManifestEntry that = (IndexManifestEntry) o;
        return kind == that.kind
                && bucket == that.bucket
                && Arrays.equals(partition, that.partition)
                && indexFile.equals(that.indexFile);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, bucket, indexFile) + Arrays.hashCode(partition);
    }

    @Override
    public String toString() {
        return "IndexManifestEntry{"
                + kind
                + ", partition="
                + HexFormat.of().formatHex(partition)
                + ", bucket="
                + bucket
                + ", file="
                + indexFile
                + '}';
    }
}
