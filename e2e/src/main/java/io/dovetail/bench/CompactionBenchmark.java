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
package io.dovetail.bench;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * {@code dovetail-bench compact [--rows N] [--image-kb K] [--versions V] [--repeats R]}: bytes
 * rewritten by a column-selective compaction (the default) against a full one, on an unpartitioned
 * table {@code id BIGINT, image BYTES, caption STRING} whose incompressible {@code K} kB images are
 * written once and whose 200-byte captions are then rewritten {@code V} times, one partial-column
 * file per row-range group each time. Each repeat compacts a fresh copy of the table both ways;
 * every result is checked (the rows and row ids read before equal those read after).
 */
final class CompactionBenchmark {

    private static final String BENCH = "compact";
    private static final String USER = "dovetail-bench";
    private static final int CAPTION_BYTES = 200;
    private static final GenericRowData UNPARTITIONED = new GenericRowData(0);

    private CompactionBenchmark() {}

    static void run(BenchArgs args) throws Exception {
        int rows = args.intValue("rows", 20_000);
        int imageBytes = args.intValue("image-kb", 4) * 1024;
        int versions = args.intValue("versions", 5);
        int repeats = args.intValue("repeats", 3);
        java.nio.file.Path root = Files.createTempDirectory("dovetail-bench-compact");
        try {
            java.nio.file.Path built = root.resolve("built");
            long tableBytes = build(built, rows, imageBytes, versions);
            long expected = checksum(open(built));
            Map<CompactionConfig.Rewrite, List<Long>> nanos = new LinkedHashMap<>();
            Map<CompactionConfig.Rewrite, Rewritten> last = new LinkedHashMap<>();
            for (int r = 0; r < repeats; r++) {
                for (CompactionConfig.Rewrite rewrite : CompactionConfig.Rewrite.values()) {
                    java.nio.file.Path copy = root.resolve(rewrite + "-" + r);
                    copy(built, copy);
                    TableStore store = open(copy);
                    long start = System.nanoTime();
                    Rewritten rewritten = compact(store, rewrite);
                    nanos.computeIfAbsent(rewrite, k -> new ArrayList<>())
                            .add(System.nanoTime() - start);
                    long actual = checksum(store);
                    if (actual != expected) {
                        throw new ResultMismatch(
                                rewrite
                                        + " compaction changed the rows: checksum "
                                        + actual
                                        + " instead of "
                                        + expected);
                    }
                    last.put(rewrite, rewritten);
                    BenchSupport.deleteRecursively(copy);
                }
            }
            for (CompactionConfig.Rewrite rewrite : last.keySet()) {
                Rewritten rewritten = last.get(rewrite);
                new Measurement(BENCH, rewrite.name().toLowerCase())
                        .timing(rows, (long) BenchSupport.median(nanos.get(rewrite)))
                        .put("tasks", rewritten.result().tasks())
                        .put("files_rewritten", rewritten.result().filesRewritten())
                        .put("bytes_rewritten", rewritten.result().bytesRewritten())
                        .put("image_bytes_rewritten", rewritten.imageBytes())
                        .put("bytes_written", rewritten.result().bytesWritten())
                        .put("checked", true)
                        .print();
            }
            Rewritten columns = last.get(CompactionConfig.Rewrite.COLUMNS);
            Rewritten full = last.get(CompactionConfig.Rewrite.FULL);
            new Measurement(BENCH, "summary")
                    .put("rows", rows)
                    .put("image_kb", imageBytes / 1024)
                    .put("caption_versions", versions)
                    .put("table_bytes", tableBytes)
                    .put("column_selective_image_bytes_rewritten", columns.imageBytes())
                    .put(
                            "bytes_rewritten_full_over_column_selective",
                            ratio(
                                    full.result().bytesRewritten(),
                                    columns.result().bytesRewritten()))
                    .put(
                            "bytes_written_full_over_column_selective",
                            ratio(full.result().bytesWritten(), columns.result().bytesWritten()))
                    .put(
                            "time_full_over_column_selective",
                            BenchSupport.median(nanos.get(CompactionConfig.Rewrite.FULL))
                                    / BenchSupport.median(
                                            nanos.get(CompactionConfig.Rewrite.COLUMNS)))
                    .print();
        } finally {
            BenchSupport.deleteRecursively(root);
        }
    }

    private record Rewritten(DataEvolutionCompaction.Result result, long imageBytes) {}

    /**
     * Compacts every group of at least two files with {@code rewrite}; the image bytes rewritten
     * are the sizes of the replaced files holding the image column.
     */
    private static Rewritten compact(TableStore store, CompactionConfig.Rewrite rewrite) {
        List<ManifestEntry> before = live(store);
        CompactionConfig config =
                CompactionConfig.fromOptions(store.latestSchema().options())
                        .withMinFileNum(2)
                        .withRewrite(rewrite);
        DataEvolutionCompaction.Result result =
                new DataEvolutionCompaction(store).compact(USER, 1_000, p -> true, config);
        Set<String> after = new HashSet<>();
        live(store).forEach(e -> after.add(e.file().fileName()));
        long imageBytes =
                before.stream()
                        .filter(e -> !after.contains(e.file().fileName()))
                        .filter(
                                e ->
                                        e.file().writeCols() == null
                                                || e.file().writeCols().contains("image"))
                        .mapToLong(e -> e.file().fileSize())
                        .sum();
        return new Rewritten(result, imageBytes);
    }

    /** Appends {@code rows} rows, then rewrites every caption {@code versions} times. */
    private static long build(java.nio.file.Path dir, int rows, int imageBytes, int versions) {
        TableStore store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        Map<String, String> options = new LinkedHashMap<>();
        options.put("row-tracking.enabled", "true");
        options.put("data-evolution.enabled", "true");
        options.put("file.format", "parquet");
        options.put("target-file-row-num", String.valueOf(Math.max(1, rows / 4)));
        store.schemas()
                .createTable(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT(), null, null),
                                new DataField(1, "image", DataTypes.BYTES(), null, null),
                                new DataField(2, "caption", DataTypes.STRING(), null, null)),
                        List.of(),
                        List.of(),
                        options,
                        null);
        long identifier = 0;
        List<ManifestEntry> appended;
        try (DataFileWriter writer =
                DataFileWriter.forAppend(store.paths(), store.latestSchema(), UNPARTITIONED)) {
            for (long id = 0; id < rows; id++) {
                byte[] image = new byte[imageBytes];
                new SplittableRandom(id).nextBytes(image);
                writer.write(GenericRowData.of(id, image, caption(id, 0)));
            }
            appended = writer.finish();
        }
        new TableCommit(store).commit(CommitRequest.append(USER, ++identifier, appended));
        for (int version = 1; version <= versions; version++) {
            updateCaptions(store, ++identifier, version);
        }
        return live(store).stream().mapToLong(e -> e.file().fileSize()).sum();
    }

    /** Rewrites every caption: one partial-column file per row-range group. */
    private static void updateCaptions(TableStore store, long identifier, int version) {
        TableSchema schema = store.latestSchema();
        long base = store.latestSnapshot().orElseThrow().id();
        List<ManifestEntry> updates = new ArrayList<>();
        GenericRowData row = new GenericRowData(1);
        for (ManifestEntry group : live(store)) {
            if (group.file().writeCols() != null) {
                continue;
            }
            long first = group.file().firstRowId();
            try (DataFileWriter writer =
                    DataFileWriter.forPartialColumns(
                            store.paths(), schema, List.of("caption"), UNPARTITIONED)) {
                for (long r = 0; r < group.file().rowCount(); r++) {
                    row.setField(0, caption(first + r, version));
                    writer.write(row);
                }
                for (ManifestEntry file : writer.finish()) {
                    updates.add(
                            new ManifestEntry(
                                    file.kind(),
                                    file.partition(),
                                    file.bucket(),
                                    file.totalBuckets(),
                                    file.file().toBuilder().firstRowId(first).build()));
                }
            }
        }
        new TableCommit(store).commit(CommitRequest.columnUpdate(USER, identifier, base, updates));
    }

    private static StringData caption(long id, int version) {
        StringBuilder caption = new StringBuilder("caption v" + version + " of image " + id + ":");
        SplittableRandom random = new SplittableRandom(id * 31 + version);
        while (caption.length() < CAPTION_BYTES) {
            caption.append((char) ('a' + random.nextInt(26)));
        }
        return StringData.fromString(caption.toString());
    }

    /** An order-independent checksum of every row's row id, id, image and caption. */
    private static long checksum(TableStore store) {
        ReadPlan plan =
                new ReadPlanner(store)
                        .planLatest(
                                ReadRequest.allColumns(store.latestSchema())
                                        .withColumns("id", "image", "caption", "_ROW_ID"));
        long sum = 0;
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan, split)) {
                for (ReadBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                    for (int i = 0; i < b.size(); i++) {
                        RowData row = b.row(i);
                        long hash = row.getLong(0);
                        hash = hash * 31 + Arrays.hashCode(row.getBinary(1));
                        hash = hash * 31 + row.getString(2).hashCode();
                        hash = hash * 31 + row.getLong(3);
                        sum += hash * 0x9E3779B97F4A7C15L;
                    }
                }
            }
        }
        return sum;
    }

    private static List<ManifestEntry> live(TableStore store) {
        return store.files(store.latestSnapshot().orElseThrow()).liveFiles();
    }

    private static TableStore open(java.nio.file.Path dir) {
        return TableStore.at(new TablePaths(new Path(dir.toUri())));
    }

    private static void copy(java.nio.file.Path from, java.nio.file.Path to) throws IOException {
        try (Stream<java.nio.file.Path> paths = Files.walk(from)) {
            for (java.nio.file.Path p : paths.toList()) {
                java.nio.file.Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static double ratio(long a, long b) {
        return b == 0 ? Double.POSITIVE_INFINITY : (double) a / b;
    }
}
