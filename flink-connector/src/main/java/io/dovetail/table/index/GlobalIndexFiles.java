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

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which index files of an index manifest are global indexes (B-tree, bitmap ... built by Paimon's
 * {@code create_global_index}: the entries with a {@code _GLOBAL_INDEX} record), and what each
 * covers: its partition and its indexed field ids ({@code _INDEX_FIELD_ID} plus {@code
 * _EXTRA_FIELD_IDS}).
 */
public final class GlobalIndexFiles {

    private GlobalIndexFiles() {}

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
