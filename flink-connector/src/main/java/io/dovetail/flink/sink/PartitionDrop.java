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

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.DeletionFile;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.RowData;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * A {@code DELETE} of whole partitions (or of the whole table) done without a job: one overwrite
 * commit that removes every live file of the selected partitions, their deletion vectors with them.
 * Needs no deletion vectors; row ids of the removed rows are never reused.
 */
public final class PartitionDrop {

    private PartitionDrop() {}

    /**
     * Removes the partitions {@code selected} accepts from the latest snapshot; returns the number
     * of rows they held (rows already deleted by deletion vectors not counted).
     */
    public static long execute(TableStore store, Predicate<RowData> selected) {
        Optional<Snapshot> latest = store.latestSnapshot();
        if (latest.isEmpty()) {
            return 0;
        }
        TableSchema schema = store.latestSchema();
        BinaryRowCodec codec =
                BinaryRowCodec.of(
                        schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList());
        SnapshotFiles files = store.files(latest.get());
        List<ManifestEntry> removed =
                files.liveFiles().stream()
                        .filter(e -> selected.test(codec.deserialize(e.partition())))
                        .toList();
        if (removed.isEmpty()) {
            return 0;
        }
        long rows = liveRows(removed, new ReadPlanner(store).deletionFiles(files));
        new TableCommit(store)
                .commit(
                        CommitRequest.overwrite(
                                "dovetail-delete-" + UUID.randomUUID(),
                                CommitRequest.BATCH_IDENTIFIER,
                                removed,
                                List.of()));
        return rows;
    }

    /** Rows of the files' row ranges, less the positions their deletion vectors hide. */
    private static long liveRows(List<ManifestEntry> files, Map<String, DeletionFile> vectors) {
        Set<RowRange> ranges = new HashSet<>();
        long rows = 0;
        for (ManifestEntry entry : files) {
            RowRange range = RowRange.of(entry.file());
            if (ranges.add(range)) {
                rows += range.count();
            }
            DeletionFile deleted = vectors.get(entry.file().fileName());
            if (deleted != null && deleted.meta().cardinality() != null) {
                rows -= deleted.meta().cardinality();
            }
        }
        return rows;
    }
}
