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

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The live data files of a table state, computed from manifest entries (base manifests, then delta
 * manifests) by {@link FileIdentity}.
 *
 * <p>{@link #merge} applies Paimon's read rule: collect the identities of all DELETE entries, keep
 * every ADD entry not among them. An instance applies entries strictly, as a commit must: adding a
 * file that is already live, or deleting one that is not, is an error naming the file.
 */
public final class LiveFileSet {

    private final Map<FileIdentity, ManifestEntry> live = new LinkedHashMap<>();

    /**
     * The live ADD entries, in the order they appear, by Paimon's read rule. Two live ADD entries
     * of the same file are an error.
     */
    public static List<ManifestEntry> merge(List<ManifestEntry> entries) {
        Set<FileIdentity> deleted = new HashSet<>();
        for (ManifestEntry entry : entries) {
            if (entry.kind() == FileKind.DELETE) {
                deleted.add(entry.identity());
            }
        }
        Map<FileIdentity, ManifestEntry> kept = new LinkedHashMap<>();
        for (ManifestEntry entry : entries) {
            FileIdentity identity = entry.identity();
            if (entry.kind() == FileKind.ADD
                    && !deleted.contains(identity)
                    && kept.putIfAbsent(identity, entry) != null) {
                throw Errors.invalidLayout(
                        "Data file "
                                + identity
                                + " is added twice and never deleted in the table's manifests;"
                                + " the table metadata is inconsistent and must be repaired.");
            }
        }
        return new ArrayList<>(kept.values());
    }

    /** Applies one entry strictly (see the class comment). */
    public void apply(ManifestEntry entry) {
        FileIdentity identity = entry.identity();
        if (entry.kind() == FileKind.ADD) {
            if (live.putIfAbsent(identity, entry) != null) {
                throw Errors.invalidLayout(
                        "Cannot add data file "
                                + identity
                                + ": it is already live in the table. A file is added once;"
                                + " write new data to a new file.");
            }
        } else if (live.remove(identity) == null) {
            throw Errors.conflict(
                    "Cannot delete data file "
                            + identity
                            + ": it is not live in the table (deleted by another commit, or never"
                            + " added). Plan the operation again on the latest snapshot.");
        }
    }

    public void applyAll(Iterable<ManifestEntry> entries) {
        for (ManifestEntry entry : entries) {
            apply(entry);
        }
    }

    public boolean contains(FileIdentity identity) {
        return live.containsKey(identity);
    }

    public int size() {
        return live.size();
    }

    /** The live ADD entries in the order they were added. */
    public List<ManifestEntry> liveEntries() {
        return new ArrayList<>(live.values());
    }
}
