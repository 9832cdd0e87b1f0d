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
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.types.logical.LogicalType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code read}: a table of N rows x M columns whose row-range groups hold K column files (the
 * append and K-1 partial-column updates of different column subsets) is read, alternating, fully
 * through Dovetail and raw: each provider file's contributed columns decoded with flink-parquet's
 * vectorized column readers and nothing else (the bytes a perfect reader must decode). Both must
 * give the same checksums. Summary: {@code ratio_vs_raw} = median Dovetail rows/s / median raw
 * rows/s (target ≥ 0.8). With {@code --point-lookups N}, the same table then serves N single-row
 * lookups ({@link PointLookupBenchmark}).
 */
final class ReadBenchmark {

    private static final String BENCH = "read";
    private static final int BATCH_SIZE = SplitReader.DEFAULT_BATCH_SIZE;

    private ReadBenchmark() {}

    static void run(BenchArgs args) throws IOException {
        int rows = args.intValue("rows", 2_000_000);
        int cols = args.intValue("cols", 20);
        int versions = args.intValue("versions", 3);
        int repeats = args.intValue("repeats", 5);
        int lookups = args.intValue("point-lookups", 0);
        Path root = Files.createTempDirectory("dovetail-bench-read");
        try {
            BenchTable table = BenchTable.create(root, cols);
            table.append(rows);
            for (int v = 1; v < versions; v++) {
                table.updateColumns(columnsOfVersion(table.store.latestSchema(), v, versions), v);
            }
            List<Long> dovetail = new ArrayList<>();
            List<Long> raw = new ArrayList<>();
            ColumnChecksums expected = null;
            for (int round = 0; round < repeats; round++) {
                ColumnChecksums viaDovetail = new ColumnChecksums();
                dovetail.add(
                        measure(
                                "dovetail",
                                rows,
                                cols,
                                () -> readDovetail(table.store, viaDovetail)));
                ColumnChecksums viaRaw = new ColumnChecksums();
                raw.add(measure("raw", rows, cols, () -> readRaw(table.store, viaRaw)));
                if (!viaDovetail.equals(viaRaw) || (expected != null && !expected.equals(viaRaw))) {
                    throw new IllegalStateException(
                            "checksums differ: dovetail " + viaDovetail + ", raw " + viaRaw);
                }
                expected = viaRaw;
            }
            double dovetailRate = rows / (BenchSupport.median(dovetail) / 1e9);
            double rawRate = rows / (BenchSupport.median(raw) / 1e9);
            new Measurement(BENCH, "summary")
                    .put("rows", rows)
                    .put("cols", cols)
                    .put("versions", versions)
                    .put("median_dovetail_rows_per_s", dovetailRate)
                    .put("median_raw_rows_per_s", rawRate)
                    .put("ratio_vs_raw", dovetailRate / rawRate)
                    .print();
            if (lookups > 0) {
                PointLookupBenchmark.run(table.store, rows, lookups);
            }
        } finally {
            BenchSupport.deleteRecursively(root);
        }
    }

    /** Version {@code v} (1..K-1) rewrites the non-id columns {@code c} with {@code c % K == v}. */
    private static List<String> columnsOfVersion(TableSchema schema, int v, int versions) {
        List<String> out = new ArrayList<>();
        for (int c = 1; c < schema.fields().size(); c++) {
            if (c % versions == v) {
                out.add(schema.fields().get(c).name());
            }
        }
        return out;
    }

    private interface Read {
        void run() throws IOException;
    }

    private static long measure(String phase, int rows, int cols, Read read) throws IOException {
        long start = System.nanoTime();
        read.run();
        long elapsed = System.nanoTime() - start;
        new Measurement(BENCH, phase).put("cols", cols).timing(rows, elapsed).print();
        return elapsed;
    }

    private static void readDovetail(TableStore store, ColumnChecksums sums) {
        ReadPlan plan =
                new ReadPlanner(store).planLatest(ReadRequest.allColumns(store.latestSchema()));
        List<DataField> fields = plan.fields();
        List<LogicalType> types = fields.stream().map(f -> FlinkTypes.toFlink(f.type())).toList();
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(fields, split, BATCH_SIZE)) {
                for (ReadBatch batch = reader.nextBatch();
                        batch != null;
                        batch = reader.nextBatch()) {
                    VectorizedColumnBatch columns = batch.columns();
                    if (!batch.allSelected()) {
                        throw new IllegalStateException("the benchmark table has no deletions");
                    }
                    for (int c = 0; c < fields.size(); c++) {
                        sums.addDense(
                                fields.get(c).name(),
                                types.get(c),
                                columns.columns[c],
                                batch.size());
                    }
                }
            }
        }
    }

    /**
     * Each group's files in row-id order, each decoding only the columns it provides: those it
     * wrote that no newer file of the group rewrote.
     */
    private static void readRaw(TableStore store, ColumnChecksums sums) throws IOException {
        SnapshotFiles files = store.files(store.latestSnapshot().orElseThrow());
        TableSchema schema = store.latestSchema();
        List<ManifestEntry> live = new ArrayList<>(files.liveFiles());
        live.sort(
                Comparator.comparingLong((ManifestEntry e) -> e.file().firstRowId())
                        .thenComparing(e -> -e.file().maxSequenceNumber()));
        Set<String> provided = new HashSet<>();
        long group = -1;
        for (ManifestEntry entry : live) {
            if (entry.file().firstRowId() != group) {
                group = entry.file().firstRowId();
                provided.clear();
            }
            List<String> written =
                    entry.file().writeCols() == null
                            ? schema.fieldNames()
                            : entry.file().writeCols();
            List<String> columns = new ArrayList<>();
            List<LogicalType> types = new ArrayList<>();
            for (String column : written) {
                if (provided.add(column)) {
                    columns.add(column);
                    types.add(FlinkTypes.toFlink(schema.field(column).orElseThrow().type()));
                }
            }
            if (!columns.isEmpty()) {
                RawParquetScan.scan(
                        files.dataFilePath(entry),
                        entry.file().fileSize(),
                        columns,
                        types,
                        BATCH_SIZE,
                        sums);
            }
        }
    }
}
