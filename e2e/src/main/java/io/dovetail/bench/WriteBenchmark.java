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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code write}: appends N x M rows, rewrites one whole column (fraction 1.0) as partial-column
 * files, updates one column of 1% random rows through {@code ColumnUpdater} (fraction 0.01), then a
 * width sweep: the same 1% one-column update on tables of 2, 20 and 100 columns, alternating widths
 * per round. Summary: {@code width_growth} = median update time at 100 columns / median at 2
 * columns (target ≤ 1.2: update cost does not grow with table width).
 */
final class WriteBenchmark {

    private static final String BENCH = "write";
    private static final int[] WIDTHS = {2, 20, 100};
    private static final double SPARSE_FRACTION = 0.01;

    private WriteBenchmark() {}

    static void run(BenchArgs args) throws IOException {
        int rows = args.intValue("rows", 2_000_000);
        int cols = args.intValue("cols", 20);
        int repeats = args.intValue("repeats", 3);
        Path root = Files.createTempDirectory("dovetail-bench-write");
        try {
            BenchTable table = BenchTable.create(root.resolve("main"), cols);
            long start = System.nanoTime();
            long bytes = table.append(rows);
            new Measurement(BENCH, "append")
                    .put("cols", cols)
                    .put("fraction", 1.0)
                    .timing(rows, System.nanoTime() - start)
                    .put("bytes_written", bytes)
                    .print();

            start = System.nanoTime();
            bytes = table.updateWholeColumn("c1", 1_000_000);
            new Measurement(BENCH, "update")
                    .put("cols", cols)
                    .put("fraction", 1.0)
                    .timing(rows, System.nanoTime() - start)
                    .put("bytes_written", bytes)
                    .print();

            start = System.nanoTime();
            bytes = table.updateRandomRows("c1", sparseRows(rows), 42);
            new Measurement(BENCH, "update")
                    .put("cols", cols)
                    .put("fraction", SPARSE_FRACTION)
                    .timing(rows, System.nanoTime() - start)
                    .put("updated_rows", sparseRows(rows))
                    .put("bytes_written", bytes)
                    .print();

            widthSweep(root, rows / 4, repeats);
        } finally {
            BenchSupport.deleteRecursively(root);
        }
    }

    private static void widthSweep(Path root, int rows, int repeats) {
        BenchTable[] tables = new BenchTable[WIDTHS.length];
        for (int w = 0; w < WIDTHS.length; w++) {
            tables[w] = BenchTable.create(root.resolve("width-" + WIDTHS[w]), WIDTHS[w]);
            tables[w].append(rows);
        }
        List<List<Long>> nanos = new ArrayList<>();
        for (int w = 0; w < WIDTHS.length; w++) {
            nanos.add(new ArrayList<>());
        }
        for (int round = 0; round < repeats; round++) {
            for (int w = 0; w < WIDTHS.length; w++) {
                long start = System.nanoTime();
                long bytes = tables[w].updateRandomRows("c1", sparseRows(rows), round);
                long elapsed = System.nanoTime() - start;
                nanos.get(w).add(elapsed);
                new Measurement(BENCH, "width-sweep-update")
                        .put("cols", WIDTHS[w])
                        .put("fraction", SPARSE_FRACTION)
                        .put("round", round)
                        .timing(rows, elapsed)
                        .put("updated_rows", sparseRows(rows))
                        .put("bytes_written", bytes)
                        .print();
            }
        }
        double narrow = BenchSupport.median(nanos.get(0));
        double wide = BenchSupport.median(nanos.get(WIDTHS.length - 1));
        new Measurement(BENCH, "summary")
                .put("rows", rows)
                .put("median_update_ms_2_cols", narrow / 1e6)
                .put("median_update_ms_100_cols", wide / 1e6)
                .put("width_growth", wide / narrow)
                .print();
    }

    private static long sparseRows(long rows) {
        return Math.round(rows * SPARSE_FRACTION);
    }
}
