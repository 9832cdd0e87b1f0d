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
package io.dovetail.table.stats;

import io.dovetail.table.data.RandomRows;
import io.dovetail.table.data.RandomRows.TypedRow;
import io.dovetail.table.error.DovetailException;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimpleStatsTest {

    private static final List<LogicalType> TYPES =
            List.of(new IntType(false), VarCharType.STRING_TYPE, new DecimalType(20, 2));

    @Test
    void emptyStatsAreArityZeroRowsAndNoCounts() {
        assertThat(SimpleStats.EMPTY.minValues()).isEqualTo(new byte[12]);
        assertThat(SimpleStats.EMPTY.maxValues()).isEqualTo(new byte[12]);
        assertThat(SimpleStats.EMPTY.nullCounts()).isEmpty();
        assertThat(new SimpleStatsConverter(List.of()).toStats(List.of()))
                .isEqualTo(SimpleStats.EMPTY);
        assertThat(new SimpleStatsConverter(TYPES).fromStats(SimpleStats.EMPTY, "f"))
                .containsExactly(ColumnStats.NONE, ColumnStats.NONE, ColumnStats.NONE);
    }

    @Test
    void encodesBoundsOverNullableTypesWithUnknownsAsNulls() {
        SimpleStatsConverter converter = new SimpleStatsConverter(TYPES);
        List<ColumnStats> columns =
                List.of(
                        new ColumnStats(1, 9, 0L),
                        ColumnStats.NONE,
                        new ColumnStats(dec("-1.50"), dec("2.25"), 3L));

        SimpleStats stats = converter.toStats(columns);

        assertThat(HexFormat.of().formatHex(stats.minValues()))
                .isEqualTo(
                        "00000003"
                                + "0002000000000000" // field 1 (unknown) is null
                                + "0100000000000000" // 1
                                + "0000000000000000" // null string
                                + "0200000020000000" // decimal: 2 bytes at offset 32
                                + "ff6a000000000000" // unscaled -150 = ff6a, 16 reserved
                                + "0000000000000000");
        assertThat(stats.nullCounts()).containsExactly(0L, null, 3L);
        assertThat(converter.fromStats(stats, "f")).isEqualTo(columns);
        assertThat(converter.column(stats, 2, "f").max()).isEqualTo(dec("2.25"));
        assertThat(converter.column(stats, 1, "f")).isEqualTo(new ColumnStats(null, null, null));
    }

    @Test
    void mismatchedArityIsCorrupt() {
        SimpleStats twoColumns =
                new SimpleStatsConverter(TYPES.subList(0, 2))
                        .toStats(List.of(new ColumnStats(1, 2, 0L), ColumnStats.NONE));

        assertThatThrownBy(
                        () -> new SimpleStatsConverter(TYPES).fromStats(twoColumns, "manifest-a"))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("manifest-a");
        assertThatThrownBy(() -> new SimpleStatsConverter(TYPES).toStats(List.of()))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("0 columns");
    }

    @Test
    void collectorComparesStringsAndBytesUnsignedAndCountsNulls() {
        List<LogicalType> types =
                List.of(
                        VarCharType.STRING_TYPE,
                        new VarBinaryType(10),
                        new IntType(),
                        new DoubleType());
        StatsCollector collector = new StatsCollector(types);
        collector.add(GenericRowData.of(str("b"), new byte[] {1}, null, 1.5));
        collector.add(GenericRowData.of(str("é"), new byte[] {(byte) 0x80}, 5, -0.0));
        collector.add(GenericRowData.of(null, new byte[] {0, 9}, -3, 0.0));

        List<ColumnStats> result = collector.result();

        assertThat(result.get(0)).isEqualTo(new ColumnStats(str("b"), str("é"), 1L));
        assertThat((byte[]) result.get(1).min()).containsExactly(0, 9);
        assertThat((byte[]) result.get(1).max()).containsExactly(0x80);
        assertThat(result.get(1).nullCount()).isZero();
        assertThat(result.get(2)).isEqualTo(new ColumnStats(-3, 5, 1L));
        assertThat(result.get(3)).isEqualTo(new ColumnStats(-0.0, 1.5, 0L));
    }

    @Property(tries = 300)
    void collectedStatsRoundTripAndComeFromTheData(@ForAll("rowLists") List<TypedRow> rows) {
        List<LogicalType> types = rows.get(0).types();
        StatsCollector collector = new StatsCollector(types);
        rows.forEach(row -> collector.add(row.row()));
        List<ColumnStats> collected = collector.result();

        List<ColumnStats> decoded =
                new SimpleStatsConverter(types).fromStats(collector.toSimpleStats(), "stats");

        for (int i = 0; i < types.size(); i++) {
            ColumnStats column = decoded.get(i);
            assertThat(sameStats(column, collected.get(i))).as("column %s", i).isTrue();
            long nulls = countNulls(rows, i);
            assertThat(column.nullCount()).isEqualTo(nulls);
            assertThat(column.min() == null).isEqualTo(nulls == rows.size());
            if (column.min() != null) {
                assertThat(occurs(rows, i, column.min())).isTrue();
                assertThat(occurs(rows, i, column.max())).isTrue();
            }
        }
    }

    @Provide
    Arbitrary<List<TypedRow>> rowLists() {
        return RandomRows.rowLists(6, 8);
    }

    private static long countNulls(List<TypedRow> rows, int i) {
        return rows.stream().filter(r -> r.row().isNullAt(i)).count();
    }

    private static boolean occurs(List<TypedRow> rows, int i, Object value) {
        return rows.stream().anyMatch(r -> Objects.deepEquals(r.row().getField(i), value));
    }

    private static boolean sameStats(ColumnStats a, ColumnStats b) {
        return Objects.deepEquals(a.min(), b.min())
                && Objects.deepEquals(a.max(), b.max())
                && Objects.equals(a.nullCount(), b.nullCount());
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }

    private static DecimalData dec(String value) {
        return DecimalData.fromBigDecimal(new BigDecimal(value), 20, 2);
    }
}
