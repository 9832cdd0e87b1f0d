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
package io.dovetail.flink.sink;

import io.dovetail.table.error.Errors;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.util.List;

/**
 * What a writer subtask hands the committer: table changes it has written but nobody references
 * yet. Committables travel from writers to the one committer and live in the committer's state
 * until their checkpoint completes, so their bytes are versioned ({@link CommittableSerializer}).
 */
public sealed interface Committable {

    /** The number of data files this committable adds. */
    int fileCount();

    /**
     * New data files of full rows, to be appended (or to replace what an overwrite removes); row
     * ids and sequence numbers are assigned at commit.
     */
    record NewFiles(List<ManifestEntry> files) implements Committable {
        public NewFiles {
            for (ManifestEntry entry : files) {
                if (entry.kind() != FileKind.ADD || entry.file().firstRowId() != null) {
                    throw Errors.invalidArgument(
                            "New files are ADD entries without row ids; got "
                                    + entry.kind()
                                    + " "
                                    + entry.file().fileName()
                                    + ".");
                }
            }
            files = List.copyOf(files);
        }

        @Override
        public int fileCount() {
            return files.size();
        }
    }

    /**
     * Partial-column files for existing row ranges of base snapshot {@code baseSnapshotId}, each
     * with the first row id of the range it rewrites.
     */
    record ColumnFiles(long baseSnapshotId, List<ManifestEntry> files) implements Committable {
        public ColumnFiles {
            files = List.copyOf(files);
        }

        @Override
        public int fileCount() {
            return files.size();
        }
    }

    /**
     * Partial-column files of a stream of row updates, written against snapshot {@code
     * baseSnapshotId}, one per row-range group touched: each holds the new values at the row ids of
     * {@code updatedRows} and the group's values in the base elsewhere, so the committer can take
     * exactly those rows when other commits overtook the files ({@link
     * io.dovetail.table.update.UpdatedRowsMerge}).
     */
    record RowUpdateFiles(
            long baseSnapshotId, List<ManifestEntry> files, Roaring64NavigableMap updatedRows)
            implements Committable {
        public RowUpdateFiles {
            files = List.copyOf(files);
        }

        @Override
        public int fileCount() {
            return files.size();
        }
    }

    /** Row ids of base snapshot {@code baseSnapshotId} to delete (as deletion vectors). */
    record DeletedRows(long baseSnapshotId, Roaring64NavigableMap rowIds) implements Committable {
        @Override
        public int fileCount() {
            return 0;
        }
    }

    /**
     * Deletion vectors of rows of base snapshot {@code baseSnapshotId}, already written by a writer
     * as new index files replacing the ones that held those anchors' vectors before.
     */
    record DeletionVectors(long baseSnapshotId, IndexChanges changes) implements Committable {
        @Override
        public int fileCount() {
            return 0;
        }
    }
}
