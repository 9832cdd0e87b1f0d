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
package io.dovetail.table.commit;

import io.dovetail.table.TableStore;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.fs.ChildPaths;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.fs.Writers;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.index.DeletionVectorIndexFile;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.index.IndexManifestFile;
import io.dovetail.table.manifest.AvroCodec;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.manifest.ManifestListReader;
import io.dovetail.table.manifest.ManifestListWriter;
import io.dovetail.table.manifest.WrittenFile;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.VarCharType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A data-evolution table for commit tests: columns {@code id, a, b, c} (field ids 0-3) partitioned
 * by {@code dt} (id 4), with real Parquet files or metadata-only files.
 */
public final class TestTable {

    public static final List<String> VALUE_COLUMNS = List.of("a", "b", "c");

    public final TableStore store;
    private final AtomicInteger fakeCounter = new AtomicInteger();
    private final String fakePrefix = "data-" + UUID.randomUUID() + "-";

    public TestTable(java.nio.file.Path dir, boolean deletionVectors) {
        this(new Path(dir.toUri()), deletionVectors);
    }

    /** A new table at {@code root} on any file system. */
    public TestTable(Path root, boolean deletionVectors) {
        store = TableStore.at(new TablePaths(root));
        Map<String, String> options = new LinkedHashMap<>();
        options.put("row-tracking.enabled", "true");
        options.put("data-evolution.enabled", "true");
        options.put("commit.max-retries", "100000");
        if (deletionVectors) {
            options.put("deletion-vectors.enabled", "true");
        }
        store.schemas()
                .createTable(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT(), null, null),
                                new DataField(1, "a", DataTypes.STRING(), null, null),
                                new DataField(2, "b", DataTypes.STRING(), null, null),
                                new DataField(3, "c", DataTypes.STRING(), null, null),
                                new DataField(4, "dt", DataTypes.STRING(), null, null)),
                        List.of("dt"),
                        List.of(),
                        options,
                        null);
    }

    /** A real Parquet file of {@code rows} full rows, not committed. */
    public ManifestEntry writeAppend(String partition, int rows) {
        try (DataFileWriter writer =
                DataFileWriter.forAppend(store.paths(), store.latestSchema(), row(partition))) {
            for (int i = 0; i < rows; i++) {
                writer.write(
                        GenericRowData.of(
                                (long) i,
                                str("a" + i),
                                str("b" + i),
                                str("c" + i),
                                str(partition)));
            }
            List<ManifestEntry> entries = writer.finish();
            return entries.get(0);
        }
    }

    /** A real Parquet partial-column file for the range starting at {@code firstRowId}. */
    public ManifestEntry writePartial(
            String partition, List<String> columns, long firstRowId, long rows) {
        try (DataFileWriter writer =
                DataFileWriter.forPartialColumns(
                        store.paths(), store.latestSchema(), columns, row(partition))) {
            for (long i = 0; i < rows; i++) {
                Object[] values = new Object[columns.size()];
                for (int c = 0; c < values.length; c++) {
                    values[c] = str(columns.get(c) + "-new-" + (firstRowId + i));
                }
                writer.write(GenericRowData.of(values));
            }
            ManifestEntry written = writer.finish().get(0);
            return withFile(written, written.file().toBuilder().firstRowId(firstRowId).build());
        }
    }

    /** A metadata-only file (no bytes on disk) of a new append. */
    public ManifestEntry fakeAppend(String partition, long rows) {
        return fake(partition, rows, null, null);
    }

    /** A metadata-only partial-column file for an existing range. */
    public ManifestEntry fakePartial(
            String partition, List<String> columns, long firstRowId, long rows) {
        return fake(partition, rows, firstRowId, columns);
    }

    private ManifestEntry fake(String partition, long rows, Long firstRowId, List<String> cols) {
        DataFileMeta meta =
                DataFileMeta.builder(fakePrefix + fakeCounter.incrementAndGet() + ".parquet")
                        .fileSize(100)
                        .rowCount(rows)
                        .firstRowId(firstRowId)
                        .writeCols(cols)
                        .build();
        return new ManifestEntry(FileKind.ADD, partitionBytes(partition), 0, -1, meta);
    }

    /**
     * A compaction of every live file of {@code partition} (rows written by one append, so
     * consecutive) into one metadata-only file keeping their row ids.
     */
    public CommitOperation.Compact fakeCompactionOf(String partition) {
        byte[] bytes = partitionBytes(partition);
        List<ManifestEntry> before =
                live().stream().filter(e -> Arrays.equals(e.partition(), bytes)).toList();
        long first = before.stream().mapToLong(e -> e.file().firstRowId()).min().orElseThrow();
        long rows = before.stream().mapToLong(e -> e.file().rowCount()).sum();
        ManifestEntry fake = fakeAppend(partition, rows);
        ManifestEntry after =
                withFile(
                        fake,
                        fake.file().toBuilder()
                                .firstRowId(first)
                                .fileSource(FileSource.COMPACT)
                                .build());
        return new CommitOperation.Compact(before, List.of(after), IndexChanges.NONE);
    }

    public static ManifestEntry withFile(ManifestEntry entry, DataFileMeta file) {
        return new ManifestEntry(
                entry.kind(), entry.partition(), entry.bucket(), entry.totalBuckets(), file);
    }

    public Snapshot commit(CommitRequest request) {
        return new TableCommit(store).commit(request);
    }

    /**
     * Commits a snapshot that adds {@code added} to the index manifest and changes no data file, as
     * Paimon's {@code create_global_index} does; the index files must be written already.
     */
    public Snapshot addIndexes(List<IndexManifestEntry> added) {
        Snapshot latest = latest();
        List<IndexManifestEntry> indexes = new ArrayList<>(files().indexFiles());
        indexes.addAll(added);
        TablePaths paths = store.paths();
        WrittenFile indexManifest =
                new IndexManifestFile(paths.manifestDir(), AvroCodec.DEFAULT).write(indexes);
        List<ManifestFileMeta> base =
                new ArrayList<>(
                        ManifestListReader.read(
                                paths.manifestFile(latest.baseManifestList()), null));
        base.addAll(ManifestListReader.read(paths.manifestFile(latest.deltaManifestList()), null));
        ManifestListWriter lists = new ManifestListWriter(paths.manifestDir());
        WrittenFile baseList = lists.write(base);
        WrittenFile deltaList = lists.write(List.of());
        Snapshot next =
                latest.toBuilder()
                        .id(latest.id() + 1)
                        .baseManifestList(baseList.fileName())
                        .baseManifestListSize(baseList.fileSize())
                        .deltaManifestList(deltaList.fileName())
                        .deltaManifestListSize(deltaList.fileSize())
                        .indexManifest(indexManifest.fileName())
                        .commitUser("paimon-create-global-index")
                        .deltaRecordCount(0L)
                        .build();
        if (!store.snapshots().tryCommit(next, Writers.CONCURRENT)) {
            throw new IllegalStateException("snapshot " + next.id() + " was taken");
        }
        return next;
    }

    public Snapshot latest() {
        return store.latestSnapshot().orElseThrow();
    }

    public long[] snapshotIds() {
        return store.snapshots().listIds();
    }

    public SnapshotFiles files() {
        return store.files(latest());
    }

    public List<ManifestEntry> live() {
        return files().liveFiles();
    }

    /** The live files of {@code range}'s first row id, oldest (anchor order) first. */
    public List<ManifestEntry> liveAt(long firstRowId) {
        List<ManifestEntry> files = new ArrayList<>();
        for (ManifestEntry e : live()) {
            if (e.file().firstRowId() == firstRowId) {
                files.add(e);
            }
        }
        files.sort(
                Comparator.comparingLong((ManifestEntry e) -> e.file().maxSequenceNumber())
                        .thenComparing(e -> e.file().fileName()));
        return files;
    }

    /** Every live deletion vector of the latest snapshot, by data file name. */
    public Map<String, DeletionVector> vectors() {
        Map<String, DeletionVector> vectors = new TreeMap<>();
        for (IndexManifestEntry entry : files().indexFiles()) {
            vectors.putAll(
                    DeletionVectorIndexFile.readAll(store.paths().indexDir(), entry.indexFile()));
        }
        return vectors;
    }

    /** Names of the files in a table subdirectory, sorted. */
    public TreeSet<String> filesIn(String subdirectory) {
        return new TreeSet<>(
                FileIO.listNames(ChildPaths.below(store.paths().root(), subdirectory)));
    }

    public static byte[] partitionBytes(String partition) {
        return BinaryRowCodec.of(new VarCharType(VarCharType.MAX_LENGTH)).serialize(row(partition));
    }

    private static GenericRowData row(String partition) {
        return GenericRowData.of(str(partition));
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
