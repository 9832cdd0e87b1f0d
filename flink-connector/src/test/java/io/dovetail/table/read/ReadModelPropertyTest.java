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

import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.index.DeletionVectorIndexFile;
import io.dovetail.table.index.DeletionVectorMeta;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.testing.RenderedReads;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.TypeRoot;

import org.apache.flink.core.fs.Path;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reader against a naive model: random layouts ({@link RandomLayout}: groups across partitions,
 * partial-column files, explicit NULLs, schema changes with type changes, deletion vectors) are
 * read with random projections, partition filters, row ranges, split sizes and batch sizes, and
 * every result must equal what the model computes directly: per row, each column's value from the
 * last write of the group that stored it, cast from its stored type to the current one.
 */
class ReadModelPropertyTest {

    private static final int QUERIES_PER_LAYOUT = 25;
    private static final int[] BATCH_SIZES = {1, 2, 3, 5, 8, 64, SplitReader.DEFAULT_BATCH_SIZE};

    @Property(tries = 120)
    void readerAgreesWithTheModel(@ForAll("seeds") long seed) throws IOException {
        Random random = new Random(seed);
        java.nio.file.Path dir = Files.createTempDirectory("dovetail-read-model");
        try {
            RandomLayout layout = RandomLayout.build(dir, random, random.nextInt(10));
            Map<String, DeletionFile> deletions = writeDeletionVectors(layout);
            for (int q = 0; q < QUERIES_PER_LAYOUT; q++) {
                Query query = randomQuery(layout, random);
                assertThat(read(layout, query, deletions, random))
                        .as("layout %s%nquery %s", String.join("\n", layout.log), query)
                        .containsExactlyElementsOf(model(layout, query));
            }
        } finally {
            deleteRecursively(dir);
        }
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    /** Output columns, partitions read, and row ranges (null: all rows). */
    private record Query(List<DataField> fields, Set<Integer> partitions, List<RowRange> ranges) {}

    private static Query randomQuery(RandomLayout layout, Random random) {
        List<DataField> fields = new ArrayList<>();
        for (DataField field : layout.table.schema().fields()) {
            if (random.nextBoolean()) {
                fields.add(field);
            }
        }
        if (random.nextBoolean()) {
            fields.add(SystemFields.ROW_ID);
        }
        if (random.nextInt(3) == 0) {
            fields.add(SystemFields.SEQUENCE_NUMBER);
        }
        Collections.shuffle(fields, random);
        Set<Integer> partitions = new HashSet<>();
        for (int p = 0; p < RandomLayout.PARTITIONS; p++) {
            if (random.nextInt(4) != 0) {
                partitions.add(p);
            }
        }
        List<RowRange> ranges = null;
        if (random.nextBoolean()) {
            ranges = new ArrayList<>();
            int count = 1 + random.nextInt(3);
            for (int i = 0; i < count; i++) {
                long first = random.nextInt((int) layout.nextRowId() + 2);
                ranges.add(new RowRange(first, first + random.nextInt(6)));
            }
        }
        return new Query(fields, partitions, ranges);
    }

    /** The query through the planner and split readers, deletion vectors attached per anchor. */
    private static List<String> read(
            RandomLayout layout, Query query, Map<String, DeletionFile> deletions, Random random) {
        ReadRequest request =
                layout.table
                        .request()
                        .withFields(query.fields())
                        .withPartitionFilter(p -> query.partitions().contains(p.getInt(0)))
                        .withRowRanges(query.ranges())
                        .withSplitSizes(1 + random.nextInt(20_000), 1 + random.nextInt(2_000));
        ReadPlan plan = new ReadPlanner(layout.table.store()).planLatest(request);
        int batchSize = BATCH_SIZES[random.nextInt(BATCH_SIZES.length)];
        List<String> out = new ArrayList<>();
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader =
                    SplitReader.open(plan.fields(), withDeletions(split, deletions), batchSize)) {
                for (ReadBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                    for (int i = 0; i < b.size(); i++) {
                        out.add(RenderedReads.render(plan.rowType(), b.row(i)));
                    }
                }
            }
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** Each group of the model, its visible rows, each column from the last write storing it. */
    private static List<String> model(RandomLayout layout, Query query) {
        List<String> out = new ArrayList<>();
        for (RandomLayout.Group group : layout.groups) {
            if (!query.partitions().contains(group.partition())) {
                continue;
            }
            for (int position = 0; position < group.rows(); position++) {
                long rowId = group.firstRowId() + position;
                if (group.deleted().contains(position) || !selected(query.ranges(), rowId)) {
                    continue;
                }
                List<String> values = new ArrayList<>();
                for (DataField field : query.fields()) {
                    values.add(field.name() + "=" + modelValue(group, field, position, rowId));
                }
                out.add(String.join(", ", values));
            }
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    private static boolean selected(List<RowRange> ranges, long rowId) {
        return ranges == null || ranges.stream().anyMatch(r -> r.contains(rowId));
    }

    private static Object modelValue(
            RandomLayout.Group group, DataField field, int position, long rowId) {
        List<RandomLayout.Write> writes = group.writes();
        if (field.equals(SystemFields.ROW_ID)) {
            return rowId;
        }
        if (field.equals(SystemFields.SEQUENCE_NUMBER)) {
            return writes.get(writes.size() - 1).meta().maxSequenceNumber();
        }
        for (int w = writes.size() - 1; w >= 0; w--) {
            RandomLayout.Column column = writes.get(w).columns().get(field.id());
            if (column != null) {
                Object stored = column.values().get(position);
                return stored == null ? null : cast(stored, (AtomicType) field.type());
            }
        }
        return null;
    }

    /** Java's casts between the generated types, as the seed-002 matrix prescribes. */
    private static Object cast(Object value, AtomicType to) {
        if (to.root() == TypeRoot.VARCHAR) {
            return String.valueOf(value);
        }
        Number n = (Number) value;
        boolean floating = value instanceof Double;
        switch (to.root()) {
            case INT:
                return floating ? (int) n.doubleValue() : n.intValue();
            case BIGINT:
                return floating ? (long) n.doubleValue() : n.longValue();
            case DOUBLE:
                return n.doubleValue();
            default:
                throw new AssertionError("no cast to " + to);
        }
    }

    /** Writes the model's deletions as one deletion vector per group, keyed by its base file. */
    private static Map<String, DeletionFile> writeDeletionVectors(RandomLayout layout) {
        Map<String, DeletionVector> vectors = new HashMap<>();
        for (RandomLayout.Group group : layout.groups) {
            if (!group.deleted().isEmpty()) {
                DeletionVector dv = new DeletionVector();
                group.deleted().forEach(dv::add);
                vectors.put(group.writes().get(0).meta().fileName(), dv);
            }
        }
        Map<String, DeletionFile> out = new HashMap<>();
        if (vectors.isEmpty()) {
            return out;
        }
        Path indexDir = layout.table.store().paths().indexDir();
        for (IndexFileMeta index : new DeletionVectorIndexFile(indexDir).write(vectors)) {
            for (DeletionVectorMeta meta : index.deletionVectors()) {
                out.put(meta.dataFileName(), new DeletionFile(index.path(indexDir), meta));
            }
        }
        return out;
    }

    /** {@code split} with each group's deletion vector looked up by the planned anchor. */
    private static ReadSplit withDeletions(ReadSplit split, Map<String, DeletionFile> deletions) {
        List<FileGroup> groups = new ArrayList<>();
        for (FileGroup g : split.groups()) {
            groups.add(
                    new FileGroup(
                            g.partition(),
                            g.range(),
                            g.anchor(),
                            g.files(),
                            g.sources(),
                            deletions.get(g.anchor().fileName()),
                            g.selection()));
        }
        return new ReadSplit(groups);
    }

    private static void deleteRecursively(java.nio.file.Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (java.nio.file.Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
