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
package io.dovetail.table.read;

import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Files written for a commit that has not happened (yet), read on their own: the files one write
 * staged over one row range (a normal partial-column file and the {@code .blob} and vector-store
 * files written over the same rows, or dedicated files only, for an update of BLOB or VECTOR
 * columns alone), as one group of its own read through provider selection, so its columns come out
 * in the read schema like any committed group's.
 */
public final class StagedFiles {

    private StagedFiles() {}

    /**
     * The group of staged {@code files} (all with the first row id and row count of the range they
     * cover), in partition {@code partition}, read in full, selecting {@code fields}; paths are
     * resolved as {@code paths} resolves them. BLOB values come as descriptors of the staged {@code
     * .blob} files: the writer they are merged into copies the bytes, streamed, never held whole.
     */
    public static FileGroup group(
            SnapshotFiles paths,
            List<ManifestEntry> files,
            PartitionValues partition,
            LongFunction<TableSchema> schemas,
            List<DataField> fields) {
        List<ProviderSelection.Candidate> normal = new ArrayList<>();
        List<ProviderSelection.Candidate> dedicated = new ArrayList<>();
        for (ManifestEntry file : files) {
            (DataFileKinds.isNormal(file.file().fileName()) ? normal : dedicated)
                    .add(candidate(paths, file));
        }
        ProviderSelection.Selected selected =
                ProviderSelection.of(normal, dedicated, partition, schemas).select(fields, true);
        ManifestEntry first = files.get(0);
        return new FileGroup(
                first.partition(),
                RowRange.of(first.file()),
                first.file(),
                selected.files(),
                selected.sources(),
                null,
                null);
    }

    private static ProviderSelection.Candidate candidate(SnapshotFiles files, ManifestEntry entry) {
        return new ProviderSelection.Candidate(files.dataFilePath(entry), entry.file());
    }
}
