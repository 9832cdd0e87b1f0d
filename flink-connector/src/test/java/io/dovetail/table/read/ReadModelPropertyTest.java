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

import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.testing.FilterEvaluation;
import io.dovetail.table.testing.RenderedReads;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.TypeRoot;

import org.apache.flink.table.data.StringData;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reader against a naive model: random layouts ({@link RandomLayout}: groups across partitions,
 * partial-column files, explicit NULLs, schema changes with type changes, committed deletion
 * vectors) are read with random projections, partition filters, row ranges, filters, split sizes
 * and batch sizes, and every result must equal what the model computes directly: per row, each
 * column's value from the last write of the group that stored it, cast from its stored type to the
 * current one. With a filter ({@link RandomFilters}) the planner may skip groups by statistics; the
 * rows read that pass the filter must be exactly the model's rows that pass it, so pruning never
 * loses a matching row. No row read lies outside the query's row ranges or those its filter's
 * {@code _ROW_ID} predicates imply ({@link RowIdRanges}), and those hold every row passing the
 * filter. The share of groups pruned is printed after the run.
 */
class ReadModelPropertyTest {

    private static final int QUERIES_PER_LAYOUT = 25;
    private static final int[] BATCH_SIZES = {1, 2, 3, 5, 8, 64, SplitReader.DEFAULT_BATCH_SIZE};

    private static final AtomicLong FILTERED_QUERIES = new AtomicLong();
    private static final AtomicLong CANDIDATE_GROUPS = new AtomicLong();
    private static final AtomicLong PRUNED_GROUPS = new AtomicLong();
    private static final AtomicLong ROW_ID_RANGED_QUERIES = new AtomicLong();

    @Property(tries = 120)
    void readerAgreesWithTheModel(@ForAll("seeds") long seed) throws IOException {
        Random random = new Random(seed);
        java.nio.file.Path dir = Files.createTempDirectory("dovetail-read-model");
        try {
            RandomLayout layout = RandomLayout.build(dir, random, random.nextInt(10));
            for (int q = 0; q < QUERIES_PER_LAYOUT; q++) {
                Query query = randomQuery(layout, random);
                assertThat(read(layout, query, random))
                        .as("layout %s%nquery %s", String.join("\n", layout.log), query)
                        .containsExactlyElementsOf(model(layout, query));
            }
        } finally {
            deleteRecursively(dir);
        }
    }

    @AfterContainer
    static void reportPruning() {
        System.out.printf(
                "ReadModelPropertyTest: %d filtered queries (%d implying row ranges) pruned %d of"
                        + " %d candidate groups%n",
                FILTERED_QUERIES.get(),
                ROW_ID_RANGED_QUERIES.get(),
                PRUNED_GROUPS.get(),
                CANDIDATE_GROUPS.get());
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    /**
     * Output columns, partitions read, row ranges (null: all rows), and a filter (null: none; else
     * the fields include {@code _ROW_ID}, which identifies the model row of each row read).
     */
    private record Query(
            List<DataField> fields,
            Set<Integer> partitions,
            List<RowRange> ranges,
            Predicate filter) {}

    private static Query randomQuery(RandomLayout layout, Random random) {
        List<DataField> fields = new ArrayList<>();
        for (DataField field : layout.table.schema().fields()) {
            if (random.nextBoolean()) {
                fields.add(field);
            }
        }
        Predicate filter = null;
        if (random.nextInt(3) != 0) {
            filter =
                    RandomFilters.random(
                            layout.table.schema().fields(),
                            layout.nextRowId(),
                            field -> sample(layout, field, random),
                            random,
                            2);
        }
        if (filter != null || random.nextBoolean()) {
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
        return new Query(fields, partitions, ranges, filter);
    }

    /** The value of {@code field} in a random row of the model (internal representation). */
    private static Object sample(RandomLayout layout, DataField field, Random random) {
        RandomLayout.Group group = layout.groups.get(random.nextInt(layout.groups.size()));
        int position = random.nextInt(group.rows());
        return modelValue(group, field, position, group.firstRowId() + position);
    }

    /** The query through the planner and split readers; with a filter, the rows passing it. */
    private static List<String> read(RandomLayout layout, Query query, Random random) {
        ReadRequest request =
                layout.table
                        .request()
                        .withFields(query.fields())
                        .withPartitionFilter(p -> query.partitions().contains(p.getInt(0)))
                        .withRowRanges(query.ranges())
                        .withFilter(query.filter())
                        .withSplitSizes(1 + random.nextInt(20_000), 1 + random.nextInt(2_000));
        ReadPlan plan = new ReadPlanner(layout.table.store()).planLatest(request);
        Set<Long> passing = query.filter() == null ? null : passingRows(layout, query.filter());
        List<RowRange> implied = query.filter() == null ? null : RowIdRanges.of(query.filter());
        if (passing != null) {
            assertThat(passing)
                    .as("rows passing %s lie in the row ranges it implies", query.filter())
                    .allMatch(id -> selected(implied, id));
            ROW_ID_RANGED_QUERIES.addAndGet(implied == null ? 0 : 1);
            long candidates = candidateGroups(layout, query);
            long planned = plan.splits().stream().mapToLong(s -> s.groups().size()).sum();
            FILTERED_QUERIES.incrementAndGet();
            CANDIDATE_GROUPS.addAndGet(candidates);
            PRUNED_GROUPS.addAndGet(candidates - planned);
        }
        int rowId = plan.fields().indexOf(SystemFields.ROW_ID);
        int batchSize = BATCH_SIZES[random.nextInt(BATCH_SIZES.length)];
        List<String> out = new ArrayList<>();
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan.fields(), split, batchSize)) {
                for (ReadBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                    for (int i = 0; i < b.size(); i++) {
                        if (rowId >= 0) {
                            long id = b.row(i).getLong(rowId);
                            assertThat(selected(query.ranges(), id) && selected(implied, id))
                                    .as("row %d read for %s", id, query)
                                    .isTrue();
                        }
                        if (passing == null || passing.contains(b.row(i).getLong(rowId))) {
                            out.add(RenderedReads.render(plan.rowType(), b.row(i)));
                        }
                    }
                }
            }
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** The groups of the model that the partitions and row ranges of the query select. */
    private static long candidateGroups(RandomLayout layout, Query query) {
        return layout.groups.stream()
                .filter(g -> query.partitions().contains(g.partition()))
                .filter(
                        g ->
                                query.ranges() == null
                                        || query.ranges().stream()
                                                .anyMatch(
                                                        r ->
                                                                r.overlaps(
                                                                        RowRange.ofCount(
                                                                                g.firstRowId(),
                                                                                g.rows()))))
                .count();
    }

    /** The row ids of the model whose values make {@code filter} TRUE. */
    private static Set<Long> passingRows(RandomLayout layout, Predicate filter) {
        Set<Long> out = new HashSet<>();
        for (RandomLayout.Group group : layout.groups) {
            for (int position = 0; position < group.rows(); position++) {
                int p = position;
                long rowId = group.firstRowId() + position;
                Function<DataField, Object> row = f -> modelValue(group, f, p, rowId);
                if (Boolean.TRUE.equals(FilterEvaluation.eval(filter, row))) {
                    out.add(rowId);
                }
            }
        }
        return out;
    }

    /** Each group of the model, its visible rows, each column from the last write storing it. */
    private static List<String> model(RandomLayout layout, Query query) {
        Set<Long> passing = query.filter() == null ? null : passingRows(layout, query.filter());
        List<String> out = new ArrayList<>();
        for (RandomLayout.Group group : layout.groups) {
            if (!query.partitions().contains(group.partition())) {
                continue;
            }
            for (int position = 0; position < group.rows(); position++) {
                long rowId = group.firstRowId() + position;
                if (group.deleted().contains(position)
                        || !selected(query.ranges(), rowId)
                        || (passing != null && !passing.contains(rowId))) {
                    continue;
                }
                List<String> values = new ArrayList<>();
                for (DataField field : query.fields()) {
                    Object value = modelValue(group, field, position, rowId);
                    values.add(field.name() + "=" + (value == null ? null : value.toString()));
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

    /** The model's value of a column in one row, as a Flink internal value. */
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
            return StringData.fromString(String.valueOf(value));
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

    private static void deleteRecursively(java.nio.file.Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (java.nio.file.Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
