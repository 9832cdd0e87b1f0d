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
package io.dovetail.actions;

import io.dovetail.table.TableStore;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.RowGroups;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;

import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Prints what a reader of a Paimon-format table sees: the schema history, the snapshots, and for
 * one snapshot its live data files by bucket directory, its row-range groups (as readers form
 * them), its index files and whether every live file is present. Reads metadata and file sizes
 * only.
 */
final class TableReport {

    private static final Comparator<ManifestEntry> BY_ROW_ID =
            Comparator.comparing(
                            (ManifestEntry e) -> e.file().firstRowId(),
                            Comparator.nullsLast(Comparator.naturalOrder()))
                    .thenComparingLong(e -> e.file().maxSequenceNumber())
                    .thenComparing(e -> e.file().fileName());

    private final TableStore store;
    private final PrintStream out;

    TableReport(TableStore store, PrintStream out) {
        this.store = store;
        this.out = out;
    }

    /**
     * Prints the report for snapshot {@code snapshotId}, or the latest one if absent.
     *
     * @return whether every live data file of that snapshot exists with its recorded size and the
     *     files form valid row-range groups (true for a table without snapshots)
     */
    boolean print(OptionalLong snapshotId) {
        out.println("Table " + store.paths().root());
        printSchemas();
        printSnapshots();
        Optional<Snapshot> snapshot =
                snapshotId.isPresent()
                        ? Optional.of(store.snapshots().snapshot(snapshotId.getAsLong()))
                        : store.latestSnapshot();
        if (snapshot.isEmpty()) {
            return true;
        }
        SnapshotFiles files = store.files(snapshot.get());
        BucketDirNames dirs = new BucketDirNames(store.schemas().schema(snapshot.get().schemaId()));
        List<ManifestEntry> liveFiles = files.liveFiles();
        printLiveFiles(snapshot.get(), liveFiles, dirs);
        boolean grouped = printRowRangeGroups(liveFiles);
        printIndexFiles(files.indexFiles(), dirs);
        return printVerification(files, liveFiles.size()) && grouped;
    }

    private void printSchemas() {
        List<Long> ids = store.schemas().listIds();
        out.println();
        out.println("Schemas (" + ids.size() + ")");
        Map<String, String> previousOptions = null;
        for (long id : ids) {
            TableSchema schema = store.schemas().schema(id);
            out.println(
                    "  schema "
                            + id
                            + "  created "
                            + time(schema.timeMillis())
                            + "  partition keys "
                            + schema.partitionKeys()
                            + (schema.primaryKeys().isEmpty()
                                    ? ""
                                    : "  primary keys " + schema.primaryKeys())
                            + (schema.comment() == null
                                    ? ""
                                    : "  comment '" + schema.comment() + "'"));
            TextTable fields = new TextTable("id", "name", "type");
            for (DataField field : schema.fields()) {
                fields.add(field.id(), field.name(), field.type().asSqlString());
            }
            fields.print(out, "    ");
            out.println("    options: " + options(schema.options(), previousOptions));
            previousOptions = schema.options();
        }
    }

    private static String options(Map<String, String> options, Map<String, String> previous) {
        if (options.equals(previous)) {
            return "unchanged";
        }
        if (options.isEmpty()) {
            return "none";
        }
        return options.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    private void printSnapshots() {
        long[] ids = store.snapshots().listIds();
        out.println();
        if (ids.length == 0) {
            out.println("Snapshots: none");
            return;
        }
        out.println("Snapshots (" + ids.length + ")");
        TextTable table =
                new TextTable(
                        "id",
                        "schema",
                        "kind",
                        "time",
                        "commit user",
                        "identifier",
                        "total rows",
                        "delta rows",
                        "nextRowId");
        for (long id : ids) {
            Snapshot s = store.snapshots().snapshot(id);
            table.add(
                    s.id(),
                    s.schemaId(),
                    s.commitKind(),
                    time(s.timeMillis()),
                    s.commitUser(),
                    s.commitIdentifier(),
                    s.totalRecordCount(),
                    s.deltaRecordCount(),
                    s.nextRowId());
        }
        table.print(out, "  ");
    }

    private void printLiveFiles(
            Snapshot snapshot, List<ManifestEntry> liveFiles, BucketDirNames dirs) {
        Map<String, List<ManifestEntry>> byDir = new TreeMap<>();
        for (ManifestEntry entry : liveFiles) {
            byDir.computeIfAbsent(
                            dirs.of(entry.partition(), entry.bucket(), entry.file().fileName()),
                            d -> new ArrayList<>())
                    .add(entry);
        }
        out.println();
        out.println(
                "Snapshot "
                        + snapshot.id()
                        + ": "
                        + liveFiles.size()
                        + " live data files in "
                        + byDir.size()
                        + " bucket directories");
        for (Map.Entry<String, List<ManifestEntry>> dir : byDir.entrySet()) {
            out.println("  " + dir.getKey());
            TextTable table =
                    new TextTable(
                            "file", "rows", "row ids", "write cols", "schema", "seq", "bytes");
            dir.getValue().stream()
                    .sorted(BY_ROW_ID)
                    .map(ManifestEntry::file)
                    .forEach(
                            f ->
                                    table.add(
                                            f.fileName(),
                                            f.rowCount(),
                                            f.firstRowId() == null
                                                    ? null
                                                    : rowIds(f.firstRowId(), f.rowCount()),
                                            f.writeCols() == null
                                                    ? "all"
                                                    : String.join(",", f.writeCols()),
                                            f.schemaId(),
                                            sequenceNumbers(f),
                                            f.fileSize()));
            table.print(out, "    ");
        }
    }

    private static String sequenceNumbers(DataFileMeta file) {
        return file.minSequenceNumber() == file.maxSequenceNumber()
                ? Long.toString(file.minSequenceNumber())
                : file.minSequenceNumber() + ".." + file.maxSequenceNumber();
    }

    /**
     * Prints the snapshot's row-range groups as readers form them ({@link RowGroups}: normal files
     * over one range with the BLOB and vector files inside it); false if the files break the layout
     * contract, which the message names.
     */
    boolean printRowRangeGroups(List<ManifestEntry> liveFiles) {
        out.println();
        List<List<ManifestEntry>> groups;
        try {
            groups = RowGroups.ofLiveFiles(liveFiles);
        } catch (DovetailException e) {
            out.println("Row-range groups: FAILED: " + e.getMessage());
            return false;
        }
        TextTable table = new TextTable("range", "rows", "files");
        long logicalRows = 0;
        for (List<ManifestEntry> group : groups) {
            RowRange range = RowGroups.rangeOf(group);
            logicalRows += range.count();
            table.add(
                    rowIds(range.first(), range.count()),
                    range.count(),
                    group.stream().map(e -> e.file().fileName()).collect(Collectors.joining(", ")));
        }
        out.println("Row-range groups: " + groups.size() + ", logical rows: " + logicalRows);
        if (!groups.isEmpty()) {
            table.print(out, "  ");
        }
        long withoutRowIds = liveFiles.stream().filter(e -> e.file().firstRowId() == null).count();
        if (withoutRowIds > 0) {
            out.println(
                    "  "
                            + withoutRowIds
                            + " live files have no row ids (the table does not track rows)");
        }
        return true;
    }

    /** The row ids {@code [first, first + count)}. */
    private static String rowIds(long first, long count) {
        return "[" + first + ", " + (first + count) + ")";
    }

    private void printIndexFiles(List<IndexManifestEntry> indexFiles, BucketDirNames dirs) {
        out.println();
        if (indexFiles.isEmpty()) {
            out.println("Index files: none");
            return;
        }
        out.println("Index files (" + indexFiles.size() + ")");
        TextTable table =
                new TextTable(
                        "type", "file", "bucket directory", "rows", "bytes", "deletion vectors");
        for (IndexManifestEntry entry : indexFiles) {
            IndexFileMeta file = entry.indexFile();
            table.add(
                    file.indexType(),
                    file.fileName(),
                    dirs.of(entry.partition(), entry.bucket(), file.fileName()),
                    file.rowCount(),
                    file.fileSize(),
                    file.deletionVectors() == null ? null : file.deletionVectors().size());
        }
        table.print(out, "  ");
    }

    private boolean printVerification(SnapshotFiles files, int liveFileCount) {
        out.println();
        try {
            files.verifyLiveFiles();
            out.println("Verify: all " + liveFileCount + " live files present");
            return true;
        } catch (DovetailException e) {
            out.println("Verify: FAILED: " + e.getMessage());
            return false;
        }
    }

    private static String time(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
