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
package io.dovetail.e2e.interop;

import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryArray;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.manifest.ManifestFileMeta;
import org.apache.paimon.stats.SimpleStats;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.utils.SerializationUtils;

import java.util.ArrayList;
import java.util.List;

/** Renders what real Paimon 1.4.2 reports about a table, field by field. */
final class PaimonSide {

    private final FileStoreTable table;

    PaimonSide(FileStoreTable table) {
        this.table = table;
    }

    List<Long> snapshotIds() {
        List<Long> ids = new ArrayList<>();
        long latest = table.snapshotManager().latestSnapshotId();
        for (long id = table.snapshotManager().earliestSnapshotId(); id <= latest; id++) {
            ids.add(id);
        }
        return ids;
    }

    Snapshot snapshot(long id) {
        return table.snapshotManager().snapshot(id);
    }

    static String snapshot(Snapshot s) {
        return Rendered.snapshot(
                s.version(),
                s.id(),
                s.schemaId(),
                s.baseManifestList() + " (" + s.baseManifestListSize() + ")",
                s.deltaManifestList() + " (" + s.deltaManifestListSize() + ")",
                s.changelogManifestList() + " (" + s.changelogManifestListSize() + ")",
                s.indexManifest(),
                s.commitUser(),
                s.commitIdentifier(),
                s.commitKind().name(),
                s.timeMillis(),
                s.totalRecordCount(),
                s.deltaRecordCount(),
                s.changelogRecordCount(),
                s.watermark(),
                s.statistics(),
                s.properties(),
                s.nextRowId());
    }

    List<String> baseManifests(Snapshot s) {
        return render(
                table.store()
                        .manifestListFactory()
                        .create()
                        .read(s.baseManifestList(), s.baseManifestListSize()));
    }

    List<String> deltaManifests(Snapshot s) {
        return render(
                table.store()
                        .manifestListFactory()
                        .create()
                        .read(s.deltaManifestList(), s.deltaManifestListSize()));
    }

    List<ManifestFileMeta> dataManifests(Snapshot s) {
        return table.store().manifestListFactory().create().readDataManifests(s);
    }

    List<String> entries(ManifestFileMeta manifest) {
        List<String> out = new ArrayList<>();
        for (ManifestEntry e :
                table.store()
                        .manifestFileFactory()
                        .create()
                        .read(manifest.fileName(), manifest.fileSize())) {
            out.add(entry(e));
        }
        return out;
    }

    List<String> liveFiles(long snapshotId) {
        List<String> out = new ArrayList<>();
        for (ManifestEntry e : table.store().newScan().withSnapshot(snapshotId).plan().files()) {
            out.add(entry(e));
        }
        return out;
    }

    private static List<String> render(List<ManifestFileMeta> metas) {
        List<String> out = new ArrayList<>();
        for (ManifestFileMeta m : metas) {
            out.add(
                    Rendered.manifestMeta(
                            m.fileName(),
                            m.fileSize(),
                            m.numAddedFiles(),
                            m.numDeletedFiles(),
                            stats(m.partitionStats()),
                            m.schemaId(),
                            m.minBucket(),
                            m.maxBucket(),
                            m.minLevel(),
                            m.maxLevel(),
                            m.minRowId(),
                            m.maxRowId()));
        }
        return out;
    }

    static String entry(ManifestEntry e) {
        return Rendered.entry(
                e.kind().toByteValue(),
                SerializationUtils.serializeBinaryRow(e.partition()),
                e.bucket(),
                e.totalBuckets(),
                file(e.file()));
    }

    static String file(DataFileMeta f) {
        return Rendered.dataFile(
                f.fileName(),
                f.fileSize(),
                f.rowCount(),
                SerializationUtils.serializeBinaryRow(f.minKey()),
                SerializationUtils.serializeBinaryRow(f.maxKey()),
                stats(f.keyStats()),
                stats(f.valueStats()),
                f.minSequenceNumber(),
                f.maxSequenceNumber(),
                f.schemaId(),
                f.level(),
                f.extraFiles(),
                f.creationTime() == null ? null : f.creationTime().getMillisecond(),
                f.deleteRowCount().orElse(null),
                f.embeddedIndex(),
                f.fileSource().map(s -> (int) s.toByteValue()).orElse(null),
                f.valueStatsCols(),
                f.externalPath().orElse(null),
                f.firstRowId(),
                f.writeCols());
    }

    static String stats(SimpleStats s) {
        return Rendered.stats(
                SerializationUtils.serializeBinaryRow(s.minValues()),
                SerializationUtils.serializeBinaryRow(s.maxValues()),
                nullCounts(s.nullCounts()));
    }

    private static List<Long> nullCounts(BinaryArray array) {
        if (array == null) {
            return null;
        }
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            out.add(array.isNullAt(i) ? null : array.getLong(i));
        }
        return out;
    }
}
