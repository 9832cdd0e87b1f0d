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
package io.dovetail.table.write;

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.stats.ColumnStats;
import io.dovetail.table.stats.SimpleStats;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StatsModeTest {

    private static final StatsMode TRUNCATE_3 = StatsMode.parse("k", "TRUNCATE(3)");

    @Test
    void parsesPaimonsModesInAnyCase() {
        assertThat(StatsMode.parse("k", "none")).isEqualTo(StatsMode.NONE);
        assertThat(StatsMode.parse("k", " Counts ").kind()).isEqualTo(StatsMode.Kind.COUNTS);
        assertThat(StatsMode.parse("k", "FULL").kind()).isEqualTo(StatsMode.Kind.FULL);
        assertThat(StatsMode.parse("k", "truncate(16)")).isEqualTo(StatsMode.DEFAULT);
        assertThat(TRUNCATE_3.length()).isEqualTo(3);
        for (String bad : List.of("truncate(0)", "truncate()", "some", "truncate(99999999999)")) {
            assertThatThrownBy(() -> StatsMode.parse("fields.x.stats-mode", bad))
                    .isInstanceOf(DovetailException.class)
                    .hasMessageContaining("fields.x.stats-mode")
                    .hasMessageContaining(bad);
        }
    }

    @Test
    void modesKeepBoundsCountsOrNothing() {
        ColumnStats exact = new ColumnStats(str("abcdef"), str("abxyz"), 2L);
        assertThat(StatsMode.NONE.apply(exact)).isEqualTo(ColumnStats.NONE);
        assertThat(StatsMode.parse("k", "counts").apply(exact))
                .isEqualTo(new ColumnStats(null, null, 2L));
        assertThat(StatsMode.parse("k", "full").apply(exact)).isSameAs(exact);
    }

    @Test
    void truncateCutsMinAndRoundsMaxUpByCodePoints() {
        assertThat(TRUNCATE_3.apply(new ColumnStats(str("abcdef"), str("abxyz"), 0L)))
                .isEqualTo(new ColumnStats(str("abc"), str("aby"), 0L));
        // short values and non-strings are unchanged
        assertThat(TRUNCATE_3.apply(new ColumnStats(str("ab"), str("abc"), 1L)))
                .isEqualTo(new ColumnStats(str("ab"), str("abc"), 1L));
        assertThat(TRUNCATE_3.apply(new ColumnStats(-5, 123456789, 0L)))
                .isEqualTo(new ColumnStats(-5, 123456789, 0L));
        // code points, not bytes or chars: a supplementary character counts once
        String emoji = "\uD83D\uDE00"; // U+1F600
        assertThat(
                        TRUNCATE_3.apply(
                                new ColumnStats(
                                        str("é✓" + emoji + "x"), str("é✓" + emoji + "x"), 0L)))
                .isEqualTo(new ColumnStats(str("é✓" + emoji), str("é✓\uD83D\uDE01"), 0L));
    }

    @Test
    void truncateDropsPositionsThatCannotBeIncremented() {
        String top = new String(Character.toChars(Character.MAX_CODE_POINT));
        assertThat(TRUNCATE_3.apply(new ColumnStats(str("a"), str("a" + top + top + "z"), 0L)))
                .isEqualTo(new ColumnStats(str("a"), str("b"), 0L));
        // no upper bound can be formed: both bounds are dropped, the null count stays
        assertThat(TRUNCATE_3.apply(new ColumnStats(str("a"), str(top + top + top + "z"), 4L)))
                .isEqualTo(new ColumnStats(null, null, 4L));
    }

    @Test
    void perColumnModesAndKeepFirstNColumns() {
        DataFileWriterOptions options =
                DataFileWriterOptions.fromTableOptions(
                        Map.of(
                                "metadata.stats-mode", "full",
                                "metadata.stats-keep-first-n-columns", "2",
                                "fields.c.stats-mode", "counts",
                                "fields.e.stats-mode", "truncate(4)"));
        assertThat(options.statsModes(List.of("a", "b", "c", "d", "e")).toString())
                .isEqualTo("[full, full, counts, none, truncate(4)]");
        DataFileWriterOptions firstOne =
                DataFileWriterOptions.fromTableOptions(
                        Map.of(
                                "metadata.stats-keep-first-n-columns", "1",
                                "fields.a.stats-mode", "none"));
        assertThat(firstOne.statsModes(List.of("a", "b", "c")).toString())
                .as("a column with its own mode counts towards the first N")
                .isEqualTo("[none, none, none]");
        assertThat(DataFileWriterOptions.fromTableOptions(Map.of()).statsModes(List.of("a", "b")))
                .containsExactly(StatsMode.DEFAULT, StatsMode.DEFAULT);
    }

    @Test
    void denseStoreDropsColumnsWithoutAnyStatistics() {
        List<DataField> columns =
                List.of(
                        new DataField(0, "a", DataTypes.INT()),
                        new DataField(
                                1, "n", DataTypes.ROW(new DataField(3, "x", DataTypes.INT()))),
                        new DataField(2, "s", DataTypes.STRING()));
        List<ColumnStats> exact =
                List.of(
                        new ColumnStats(1, 9, 0L),
                        ColumnStats.NONE,
                        new ColumnStats(str("a"), str("b"), 1L));
        List<StatsMode> defaults = List.of(StatsMode.DEFAULT, StatsMode.DEFAULT, StatsMode.DEFAULT);

        ValueStats dense = ValueStats.of(columns, exact, defaults, true);
        assertThat(dense.columns()).containsExactly("a", "s");
        assertThat(dense.stats().nullCounts()).containsExactly(0L, 1L);

        List<DataField> flat = List.of(columns.get(0), columns.get(2));
        ValueStats all =
                ValueStats.of(
                        flat, List.of(exact.get(0), exact.get(2)), defaults.subList(0, 2), true);
        assertThat(all.columns()).as("every written column kept").isNull();
        assertThat(all.stats()).isEqualTo(dense.stats());

        ValueStats none =
                ValueStats.of(
                        flat,
                        List.of(exact.get(0), exact.get(2)),
                        List.of(StatsMode.NONE, StatsMode.NONE),
                        true);
        assertThat(none.columns()).isEmpty();
        assertThat(none.stats()).isEqualTo(SimpleStats.EMPTY);

        ValueStats sparse =
                ValueStats.of(
                        flat,
                        List.of(exact.get(0), exact.get(2)),
                        List.of(StatsMode.NONE, StatsMode.DEFAULT),
                        false);
        assertThat(sparse.columns()).isNull();
        assertThat(sparse.stats().nullCounts()).containsExactly(null, 1L);

        ValueStats sparseNested = ValueStats.of(columns, exact, defaults, false);
        assertThat(sparseNested.columns()).isNull();
        assertThat(sparseNested.stats().nullCounts()).containsExactly(0L, null, 1L);
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
