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

import io.dovetail.table.TableStore;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.stats.SimpleStats;

import java.util.ArrayList;
import java.util.List;

/** Renders what Dovetail reads from a table, in the same form as {@link PaimonSide}. */
final class DovetailSide {

    private DovetailSide() {}

    static String snapshot(Snapshot s) {
        return Rendered.snapshot(
                3,
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

    static List<String> manifests(List<ManifestFileMeta> metas) {
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

    static List<String> entries(List<ManifestEntry> entries) {
        List<String> out = new ArrayList<>();
        for (ManifestEntry e : entries) {
            out.add(entry(e));
        }
        return out;
    }

    static String entry(ManifestEntry e) {
        return Rendered.entry(
                e.kind().value(), e.partition(), e.bucket(), e.totalBuckets(), file(e.file()));
    }

    static String file(DataFileMeta f) {
        return Rendered.dataFile(
                f.fileName(),
                f.fileSize(),
                f.rowCount(),
                f.minKey(),
                f.maxKey(),
                stats(f.keyStats()),
                stats(f.valueStats()),
                f.minSequenceNumber(),
                f.maxSequenceNumber(),
                f.schemaId(),
                f.level(),
                f.extraFiles(),
                f.creationTime(),
                f.deleteRowCount(),
                f.embeddedFileIndex(),
                f.fileSource() == null ? null : f.fileSource().value(),
                f.valueStatsCols(),
                f.externalPath(),
                f.firstRowId(),
                f.writeCols());
    }

    static String stats(SimpleStats s) {
        return Rendered.stats(s.minValues(), s.maxValues(), s.nullCounts());
    }

    static SnapshotFiles files(TableStore store, long snapshotId) {
        return store.files(store.snapshots().snapshot(snapshotId));
    }
}
