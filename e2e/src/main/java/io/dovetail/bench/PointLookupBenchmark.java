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
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.read.SystemFields;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

/**
 * {@code read --point-lookups N}: N random single rows of the read benchmark's table, each planned
 * and read with the filter {@code _ROW_ID = id} (every column). Each lookup is measured twice,
 * alternating: as Dovetail reads it (files skip to the selected row), and decoding the whole
 * planned group as a read without row skipping does ({@link FileGroup#readInFull()}), picking the
 * row by its {@code _ROW_ID}. Both must return the same row. Summary: median milliseconds per
 * lookup of each and {@code speedup} = median group read / median lookup.
 */
final class PointLookupBenchmark {

    private static final String BENCH = "read";

    private PointLookupBenchmark() {}

    static void run(TableStore store, long rows, int lookups) {
        ReadRequest all = ReadRequest.allColumns(store.latestSchema()).withRowTracking();
        SplittableRandom random = new SplittableRandom(17);
        for (int warmUp = 0; warmUp < 3; warmUp++) {
            long id = random.nextLong(rows);
            lookUp(store, all, id, UnaryOperator.identity());
            lookUp(store, all, id, FileGroup::readInFull);
        }
        List<Long> skipping = new ArrayList<>();
        List<Long> wholeGroup = new ArrayList<>();
        for (int i = 0; i < lookups; i++) {
            long id = random.nextLong(rows);
            long start = System.nanoTime();
            String viaSkipping = lookUp(store, all, id, UnaryOperator.identity());
            skipping.add(System.nanoTime() - start);
            start = System.nanoTime();
            String viaGroup = lookUp(store, all, id, FileGroup::readInFull);
            wholeGroup.add(System.nanoTime() - start);
            if (!Objects.equals(viaSkipping, viaGroup)) {
                throw new IllegalStateException(
                        "row " + id + " differs: " + viaSkipping + " vs " + viaGroup);
            }
        }
        double lookupMs = BenchSupport.median(skipping) / 1e6;
        double groupMs = BenchSupport.median(wholeGroup) / 1e6;
        new Measurement(BENCH, "point_lookups")
                .put("rows", rows)
                .put("lookups", lookups)
                .put("median_lookup_ms", lookupMs)
                .put("median_whole_group_ms", groupMs)
                .put("speedup", groupMs / lookupMs)
                .print();
    }

    /** The row with {@code _ROW_ID = id}, rendered, reading each planned group as {@code read}. */
    private static String lookUp(
            TableStore store, ReadRequest all, long id, UnaryOperator<FileGroup> read) {
        ReadPlan plan =
                new ReadPlanner(store)
                        .planLatest(all.withFilter(Predicate.equal(SystemFields.ROW_ID, id)));
        int rowId = plan.fields().indexOf(SystemFields.ROW_ID);
        RowType type = plan.rowType();
        String found = null;
        for (ReadSplit split : plan.splits()) {
            ReadSplit groups = new ReadSplit(split.groups().stream().map(read).toList());
            try (SplitReader reader =
                    SplitReader.open(plan.fields(), groups, SplitReader.DEFAULT_BATCH_SIZE)) {
                for (ReadBatch batch = reader.nextBatch();
                        batch != null;
                        batch = reader.nextBatch()) {
                    for (int i = 0; i < batch.size(); i++) {
                        RowData row = batch.row(i);
                        if (row.getLong(rowId) == id) {
                            found = render(type, row);
                        }
                    }
                }
            }
        }
        if (found == null) {
            throw new IllegalStateException("row " + id + " not found");
        }
        return found;
    }

    private static String render(RowType type, RowData row) {
        StringBuilder out = new StringBuilder();
        for (int f = 0; f < type.getFieldCount(); f++) {
            out.append(RowData.createFieldGetter(type.getTypeAt(f), f).getFieldOrNull(row))
                    .append(',');
        }
        return out.toString();
    }
}
