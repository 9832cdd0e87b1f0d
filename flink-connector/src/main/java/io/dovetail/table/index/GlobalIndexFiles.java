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

import io.dovetail.table.manifest.FileKind;

import org.apache.flink.core.fs.Path;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Which index files of an index manifest are global indexes (B-tree, bitmap ... built by Paimon's
 * {@code create_global_index}: the entries with a {@code _GLOBAL_INDEX} record), and what each
 * covers: its partition and its indexed field ids ({@code _INDEX_FIELD_ID} plus {@code
 * _EXTRA_FIELD_IDS}); the index types Dovetail reads and builds, and how their files are named.
 */
public final class GlobalIndexFiles {

    /** The index types Dovetail looks rows up in and builds. */
    public static final Set<String> LOOKUP_TYPES =
            Set.of(BTreeIndexFile.INDEX_TYPE, BitmapIndexFile.INDEX_TYPE);

    private GlobalIndexFiles() {}

    /** A new index file {@code <index type>-global-index-<uuid>.index} in {@code indexDir}. */
    public static Path newFile(Path indexDir, String indexType) {
        return new Path(indexDir, indexType + "-global-index-" + UUID.randomUUID() + ".index");
    }

    /**
     * The added global index files among {@code entries} of one of {@code indexTypes} that index
     * one column ({@code fieldId}, no {@code _EXTRA_FIELD_IDS}).
     */
    public static List<IndexManifestEntry> ofColumn(
            Collection<IndexManifestEntry> entries, Set<String> indexTypes, int fieldId) {
        List<IndexManifestEntry> out = new ArrayList<>();
        for (IndexManifestEntry entry : entries) {
            GlobalIndexMeta meta = entry.indexFile().globalIndex();
            if (entry.kind() == FileKind.ADD
                    && meta != null
                    && indexTypes.contains(entry.indexFile().indexType())
                    && meta.indexFieldId() == fieldId
                    && (meta.extraFieldIds() == null || meta.extraFieldIds().isEmpty())) {
                out.add(entry);
            }
        }
        return out;
    }

    public static boolean isGlobalIndex(IndexManifestEntry entry) {
        return entry.indexFile().globalIndex() != null;
    }

    /** The field ids a global index file indexes. */
    public static Set<Integer> fieldIds(IndexManifestEntry entry) {
        GlobalIndexMeta meta = entry.indexFile().globalIndex();
        Set<Integer> ids = new TreeSet<>();
        if (meta != null) {
            ids.add(meta.indexFieldId());
            if (meta.extraFieldIds() != null) {
                ids.addAll(meta.extraFieldIds());
            }
        }
        return ids;
    }

    /**
     * The global index files among {@code entries} in one of {@code partitions} (serialized
     * partition rows) that index one of {@code fieldIds}.
     */
    public static List<IndexManifestEntry> covering(
            Collection<IndexManifestEntry> entries,
            Set<Integer> fieldIds,
            Set<ByteBuffer> partitions) {
        List<IndexManifestEntry> covering = new ArrayList<>();
        for (IndexManifestEntry entry : inPartitions(entries, partitions)) {
            if (fieldIds(entry).stream().anyMatch(fieldIds::contains)) {
                covering.add(entry);
            }
        }
        return covering;
    }

    /** The global index files among {@code entries} in one of {@code partitions}. */
    public static List<IndexManifestEntry> inPartitions(
            Collection<IndexManifestEntry> entries, Set<ByteBuffer> partitions) {
        List<IndexManifestEntry> found = new ArrayList<>();
        for (IndexManifestEntry entry : entries) {
            if (isGlobalIndex(entry) && partitions.contains(ByteBuffer.wrap(entry.partition()))) {
                found.add(entry);
            }
        }
        return found;
    }
}
