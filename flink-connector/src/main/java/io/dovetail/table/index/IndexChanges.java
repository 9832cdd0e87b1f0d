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

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The deletion-vector index files one commit adds and removes. Replacing a vector is expressed as
 * removing the index file that held it (every vector of that file is copied into the added files)
 * and adding the new index files; the commit fails if a removed file is no longer live.
 *
 * @param added new index files (ADD entries), written before the commit
 * @param removed index files that were live when the change was planned (ADD entries as listed in
 *     that snapshot's index manifest)
 */
public record IndexChanges(List<IndexManifestEntry> added, List<IndexManifestEntry> removed) {

    public static final IndexChanges NONE = new IndexChanges(List.of(), List.of());

    public IndexChanges {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        Set<String> names = new HashSet<>();
        for (IndexManifestEntry entry : added) {
            check(entry, names);
        }
        for (IndexManifestEntry entry : removed) {
            check(entry, names);
        }
    }

    public boolean isEmpty() {
        return added.isEmpty() && removed.isEmpty();
    }

    private static void check(IndexManifestEntry entry, Set<String> names) {
        String name = entry.indexFile().fileName();
        if (entry.kind() != FileKind.ADD
                || !DeletionVectorIndexFile.INDEX_TYPE.equals(entry.indexFile().indexType())) {
            throw Errors.invalidArgument(
                    "Index change "
                            + name
                            + " must be a live "
                            + DeletionVectorIndexFile.INDEX_TYPE
                            + " index file entry (kind ADD), got "
                            + entry.kind()
                            + " of type "
                            + entry.indexFile().indexType()
                            + ".");
        }
        if (!names.add(name)) {
            throw Errors.invalidArgument(
                    "Index file " + name + " appears twice in one commit's index changes.");
        }
    }
}
