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

import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.write.DataFileWriterOptions;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;

import static io.dovetail.table.predicate.Predicate.and;
import static io.dovetail.table.predicate.Predicate.equal;
import static io.dovetail.table.predicate.Predicate.greaterOrEqual;
import static io.dovetail.table.predicate.Predicate.greaterThan;
import static io.dovetail.table.predicate.Predicate.isNotNull;
import static io.dovetail.table.predicate.Predicate.isNull;
import static io.dovetail.table.predicate.Predicate.not;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Group-level statistics pruning through the planner: only the newest provider of a column counts,
 * type changes use statistics only when the cast is an exact widening, columns added later are
 * NULL, tables without statistics are never pruned.
 */
class StatsPruningTest {

    private static final GenericRowData NO_PARTITION = GenericRowData.of();

    @TempDir java.nio.file.Path dir;

    private TestTable table(Map<String, String> options, DataField... fields) {
        return new TestTable(dir, List.of(fields), List.of(), options);
    }

    private static GenericRowData row(Object... values) {
        Object[] converted = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            converted[i] = values[i] instanceof String s ? StringData.fromString(s) : values[i];
        }
        return GenericRowData.of(converted);
    }

    /** The rows read with {@code filter} (unfiltered within kept groups) and the groups kept. */
    private record Planned(List<String> rows, int groups) {}

    private static Planned plan(TestTable t, Predicate filter) {
        ReadPlan plan = new ReadPlanner(t.store()).planLatest(t.request().withFilter(filter));
        int groups = plan.splits().stream().mapToInt(s -> s.groups().size()).sum();
        return new Planned(io.dovetail.table.testing.RenderedReads.read(plan), groups);
    }

    private static DataField field(TestTable t, String name) {
        return t.schema().field(name).orElseThrow();
    }

    @Test
    void onlyTheNewestProviderOfAColumnCounts() {
        TestTable t =
                table(
                        Map.of(),
                        new DataField(0, "id", DataTypes.INT()),
                        new DataField(1, "x", DataTypes.INT()));
        t.append(NO_PARTITION, List.of(row(1, 1), row(2, 2), row(3, 3)));
        t.append(NO_PARTITION, List.of(row(4, 4), row(5, 5), row(6, 6)));
        t.update(NO_PARTITION, 0, List.of("x"), List.of(row(50), row(51), row(52)));
        DataField x = field(t, "x");

        // the base file's statistics ([1, 3]) would drop the group holding x = 51
        Planned updated = plan(t, equal(x, 51));
        assertThat(updated.groups()).isEqualTo(1);
        assertThat(updated.rows()).contains("id=2, x=51");
        // and the overwritten values no longer match anywhere
        assertThat(plan(t, equal(x, 2)).groups()).isZero();
        // a column the update did not write still comes from the base file
        assertThat(plan(t, equal(field(t, "id"), 5)).rows()).contains("id=5, x=5");
        assertThat(plan(t, equal(field(t, "id"), 5)).groups()).isEqualTo(1);
    }

    @Test
    void widenedColumnsKeepTheirStatistics() {
        TestTable t = table(Map.of(), new DataField(0, "c", DataTypes.INT()));
        t.append(NO_PARTITION, List.of(row(1), row(2), row(3)));
        t.alter(SchemaChange.updateColumnType("c", DataTypes.BIGINT()));
        DataField c = field(t, "c");

        assertThat(plan(t, equal(c, 10L)).groups()).isZero();
        assertThat(plan(t, equal(c, 2L)).groups()).isEqualTo(1);
    }

    @Test
    void narrowedColumnsIgnoreTheirStatistics() {
        TestTable t = table(Map.of(), new DataField(0, "c", DataTypes.BIGINT()));
        t.append(NO_PARTITION, List.of(row(7L), row(4294967301L)));
        t.alter(SchemaChange.updateColumnType("c", DataTypes.INT()));
        DataField c = field(t, "c");

        // 4294967301 reads as INT 5 (low-order bits), outside the stored bounds [7, 4294967301]
        Planned five = plan(t, equal(c, 5));
        assertThat(five.groups()).isEqualTo(1);
        assertThat(five.rows()).contains("c=5");
    }

    @Test
    void numbersChangedToStringsIgnoreTheirStatistics() {
        TestTable t = table(Map.of(), new DataField(0, "c", DataTypes.INT()));
        t.append(NO_PARTITION, List.of(row(9), row(10)));
        t.alter(SchemaChange.updateColumnType("c", DataTypes.STRING()));
        DataField c = field(t, "c");

        // as strings "10" < "9": the integer bounds [9, 10] do not order them
        assertThat(plan(t, equal(c, StringData.fromString("10"))).groups()).isEqualTo(1);
    }

    @Test
    void aColumnAddedLaterIsNullInOlderGroups() {
        TestTable t = table(Map.of(), new DataField(0, "id", DataTypes.INT()));
        t.append(NO_PARTITION, List.of(row(1), row(2)));
        t.append(NO_PARTITION, List.of(row(3), row(4)));
        t.alter(SchemaChange.addColumn("n", DataTypes.INT()));
        DataField n = field(t, "n");

        assertThat(plan(t, equal(n, 5)).groups()).isZero();
        assertThat(plan(t, not(equal(n, 5))).groups()).isZero();
        assertThat(plan(t, isNotNull(n)).groups()).isZero();
        assertThat(plan(t, isNull(n)).groups()).isEqualTo(2);

        t.update(NO_PARTITION, 2, List.of("n"), List.of(row(5), row(6)));
        Planned updated = plan(t, equal(n, 5));
        assertThat(updated.groups()).isEqualTo(1);
        assertThat(updated.rows()).containsExactly("id=3, n=5", "id=4, n=6");
    }

    @Test
    void noStatisticsMeansNoPruning() {
        TestTable t =
                table(
                        Map.of(DataFileWriterOptions.STATS_MODE, "none"),
                        new DataField(0, "x", DataTypes.INT()));
        t.append(NO_PARTITION, List.of(row(1), row(2)));
        DataField x = field(t, "x");

        assertThat(plan(t, equal(x, 999)).groups()).isEqualTo(1);
        assertThat(plan(t, isNull(x)).groups()).isEqualTo(1);
    }

    @Test
    void nullCountsAloneDecideIsNull() {
        TestTable t =
                table(
                        Map.of(DataFileWriterOptions.STATS_MODE, "counts"),
                        new DataField(0, "x", DataTypes.INT()));
        t.append(NO_PARTITION, List.of(row(1), row(2)));
        DataField x = field(t, "x");

        assertThat(plan(t, isNull(x)).groups()).isZero();
        assertThat(plan(t, equal(x, 999)).groups()).isEqualTo(1);
    }

    @Test
    void truncatedStringBoundsStayBounds() {
        TestTable t = table(Map.of(), new DataField(0, "s", DataTypes.STRING()));
        String low = "aaaaaaaaaaaaaaaaaaaaZ"; // 21 characters, stats keep 16
        String high = "aaaaaaaaaaaaaaaaaaaaaaaaaab";
        t.append(NO_PARTITION, List.of(row(low), row(high)));
        DataField s = field(t, "s");

        assertThat(plan(t, equal(s, StringData.fromString(low))).groups()).isEqualTo(1);
        assertThat(plan(t, equal(s, StringData.fromString(high))).groups()).isEqualTo(1);
        // the truncated maximum "aaaaaaaaaaaaaaab" lies above every value, the minimum (16 a) below
        assertThat(plan(t, greaterThan(s, StringData.fromString("aaaaaaaaaaaaaaab"))).groups())
                .isZero();
        assertThat(plan(t, greaterOrEqual(s, StringData.fromString("aaaaaaaaaaaaaaab"))).groups())
                .isEqualTo(1);
        assertThat(plan(t, equal(s, StringData.fromString("aaaaaaaaaaaaaaa"))).groups()).isZero();
    }

    @Test
    void rowIdsPruneByGroupRange() {
        TestTable t = table(Map.of(), new DataField(0, "id", DataTypes.INT()));
        t.append(NO_PARTITION, List.of(row(1), row(2)));
        t.append(NO_PARTITION, List.of(row(3), row(4)));

        Planned second = plan(t, equal(SystemFields.ROW_ID, 3L));
        assertThat(second.groups()).isEqualTo(1);
        assertThat(second.rows()).containsExactly("id=4"); // row id 3 is selected in the group
        assertThat(
                        plan(
                                        t,
                                        and(
                                                greaterOrEqual(SystemFields.ROW_ID, 1L),
                                                equal(field(t, "id"), 3)))
                                .groups())
                .isEqualTo(1);
    }
}
