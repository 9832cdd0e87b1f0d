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
package io.dovetail.table.predicate;

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.dovetail.table.predicate.Predicate.and;
import static io.dovetail.table.predicate.Predicate.equal;
import static io.dovetail.table.predicate.Predicate.greaterOrEqual;
import static io.dovetail.table.predicate.Predicate.greaterThan;
import static io.dovetail.table.predicate.Predicate.in;
import static io.dovetail.table.predicate.Predicate.isNotNull;
import static io.dovetail.table.predicate.Predicate.isNull;
import static io.dovetail.table.predicate.Predicate.lessOrEqual;
import static io.dovetail.table.predicate.Predicate.lessThan;
import static io.dovetail.table.predicate.Predicate.not;
import static io.dovetail.table.predicate.Predicate.notEqual;
import static io.dovetail.table.predicate.Predicate.or;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link BoundsCheck} against hand-made column bounds: every operator, NULLs, unknown stats. */
class BoundsCheckTest {

    private static final DataField X = new DataField(1, "x", DataTypes.INT());
    private static final DataField Y = new DataField(2, "y", DataTypes.INT());
    private static final DataField D = new DataField(3, "d", DataTypes.DOUBLE());
    private static final DataField S = new DataField(4, "s", DataTypes.STRING());
    private static final DataField B = new DataField(5, "b", DataTypes.BYTES());

    /** x in [10, 20] with 2 NULLs of 10 rows; y all NULL; d in [-1.5, 0.0]; s in [b, d]. */
    private static final Map<DataField, ColumnBounds> BOUNDS =
            Map.of(
                    X, new ColumnBounds(10, 20, 2L, 10),
                    Y, ColumnBounds.allNull(10),
                    D, new ColumnBounds(-1.5, 0.0, 0L, 10),
                    S,
                            new ColumnBounds(
                                    StringData.fromString("b"), StringData.fromString("d"), 0L, 10),
                    B, new ColumnBounds(new byte[] {1}, new byte[] {2}, 0L, 10));

    private static boolean may(Predicate p) {
        return BoundsCheck.mayMatch(p, BOUNDS::get);
    }

    private static boolean may(Predicate p, ColumnBounds x) {
        return BoundsCheck.mayMatch(p, f -> f.equals(X) ? x : BOUNDS.get(f));
    }

    @Test
    void comparisonsPruneOutsideTheBounds() {
        assertThat(may(equal(X, 9))).isFalse();
        assertThat(may(equal(X, 10))).isTrue();
        assertThat(may(equal(X, 20))).isTrue();
        assertThat(may(equal(X, 21))).isFalse();
        assertThat(may(lessThan(X, 10))).isFalse();
        assertThat(may(lessThan(X, 11))).isTrue();
        assertThat(may(lessOrEqual(X, 9))).isFalse();
        assertThat(may(lessOrEqual(X, 10))).isTrue();
        assertThat(may(greaterThan(X, 20))).isFalse();
        assertThat(may(greaterThan(X, 19))).isTrue();
        assertThat(may(greaterOrEqual(X, 21))).isFalse();
        assertThat(may(greaterOrEqual(X, 20))).isTrue();
        assertThat(may(notEqual(X, 15))).isTrue();
    }

    @Test
    void notEqualPrunesOnlyASingleValue() {
        ColumnBounds single = new ColumnBounds(7, 7, 3L, 10);
        assertThat(may(notEqual(X, 7), single)).isFalse();
        assertThat(may(notEqual(X, 8), single)).isTrue();
        assertThat(may(not(equal(X, 7)), single)).isFalse();
        assertThat(may(in(X, 7), single)).isTrue();
        assertThat(may(not(in(X, 7, 9)), single)).isFalse();
    }

    @Test
    void nullsNeverSatisfyAComparison() {
        assertThat(may(equal(Y, 1))).isFalse();
        assertThat(may(notEqual(Y, 1))).isFalse();
        assertThat(may(not(equal(Y, 1)))).isFalse();
        assertThat(may(isNull(Y))).isTrue();
        assertThat(may(isNotNull(Y))).isFalse();
        assertThat(may(not(isNull(Y)))).isFalse();
        // x = 99 is FALSE or UNKNOWN for every row, so NOT of it is TRUE only where x <> 99
        assertThat(may(not(equal(X, 99)))).isTrue();
    }

    @Test
    void nullCountsDecideIsNull() {
        ColumnBounds noNulls = new ColumnBounds(1, 2, 0L, 10);
        assertThat(may(isNull(X), noNulls)).isFalse();
        assertThat(may(isNotNull(X), noNulls)).isTrue();
        assertThat(may(isNull(X))).isTrue();
        ColumnBounds countOnly = new ColumnBounds(null, null, 10L, 10);
        assertThat(may(isNotNull(X), countOnly)).isFalse();
        assertThat(may(greaterThan(X, 0), countOnly)).isFalse();
    }

    @Test
    void unknownStatisticsKeepEverything() {
        ColumnBounds unknown = ColumnBounds.unknown(10);
        for (Predicate p :
                new Predicate[] {
                    equal(X, 1),
                    notEqual(X, 1),
                    lessThan(X, 1),
                    greaterThan(X, 1),
                    in(X, 1),
                    isNull(X),
                    isNotNull(X),
                    not(equal(X, 1)),
                    not(isNull(X))
                }) {
            assertThat(may(p, unknown)).as("%s", p).isTrue();
        }
        ColumnBounds boundsWithoutCounts = new ColumnBounds(10, 20, null, 10);
        assertThat(may(isNull(X), boundsWithoutCounts)).isTrue();
        assertThat(may(equal(X, 30), boundsWithoutCounts)).isFalse();
    }

    @Test
    void inconsistentStatisticsAreUnknown() {
        assertThat(may(equal(X, 30), new ColumnBounds(20, 10, 0L, 10))).isTrue();
        assertThat(may(equal(X, 30), new ColumnBounds(10, null, 0L, 10))).isTrue();
        assertThat(may(equal(X, 30), new ColumnBounds(10, 20, 11L, 10))).isTrue();
        assertThat(may(isNull(X), new ColumnBounds(10, 20, 10L, 10))).isTrue();
    }

    @Test
    void inListsWithAndWithoutNull() {
        assertThat(may(in(X, 1, 2, 21))).isFalse();
        assertThat(may(in(X, 1, 15))).isTrue();
        assertThat(may(in(X, 1, null))).isFalse();
        assertThat(may(in(X, (Object) null))).isFalse();
        // NOT IN with a NULL is never TRUE
        assertThat(may(not(in(X, 1, null)))).isFalse();
        assertThat(may(not(in(X, 1)))).isTrue();
    }

    @Test
    void andOrNotCombineByThreeValuedLogic() {
        assertThat(may(and(greaterThan(X, 5), lessThan(X, 10)))).isFalse();
        assertThat(may(and(greaterThan(X, 5), lessThan(X, 11)))).isTrue();
        assertThat(may(or(equal(X, 1), equal(X, 30)))).isFalse();
        assertThat(may(or(equal(X, 1), equal(X, 15)))).isTrue();
        assertThat(may(or(equal(X, 1), isNull(Y)))).isTrue();
        assertThat(may(not(and(greaterOrEqual(X, 10), lessOrEqual(X, 20))))).isFalse();
        assertThat(may(not(or(lessThan(X, 10), greaterThan(X, 20))))).isTrue();
        assertThat(may(not(not(equal(X, 30))))).isFalse();
        // y is NULL everywhere: y = 1 OR x = 15 is TRUE only through x
        assertThat(may(and(or(equal(Y, 1), equal(X, 15)), greaterThan(X, 20)))).isFalse();
    }

    @Test
    void floatingColumnsAllowForNaNAndBothZeros() {
        assertThat(may(greaterThan(D, 0.0))).isFalse();
        assertThat(may(greaterThan(D, -0.0))).isTrue(); // max 0.0 may have been -0.0 or +0.0
        assertThat(may(lessThan(D, -1.5))).isFalse();
        assertThat(may(equal(D, Double.NaN))).isTrue();
        assertThat(may(equal(D, -0.0))).isTrue();
        // a NaN row is outside the bounds and makes every <> TRUE and every other comparison FALSE
        assertThat(may(notEqual(D, 5.0))).isTrue();
        assertThat(may(not(lessThan(D, 5.0)))).isTrue();
        assertThat(may(not(in(D, -1.5, 0.0)), new ColumnBounds(0.0, 0.0, 0L, 3), D)).isTrue();
        assertThat(may(equal(D, 1.0), new ColumnBounds(Double.NaN, Double.NaN, 0L, 3), D)).isTrue();
    }

    private static boolean may(Predicate p, ColumnBounds bounds, DataField field) {
        return BoundsCheck.mayMatch(p, f -> f.equals(field) ? bounds : BOUNDS.get(f));
    }

    @Test
    void stringsCompareByCodePoints() {
        assertThat(may(equal(S, StringData.fromString("a")))).isFalse();
        assertThat(may(equal(S, StringData.fromString("c")))).isTrue();
        assertThat(may(greaterThan(S, StringData.fromString("d")))).isFalse();
        assertThat(may(lessThan(S, StringData.fromString("é")))).isTrue();
        assertThat(may(greaterThan(S, StringData.fromString("é")))).isFalse();
    }

    @Test
    void binaryBoundsAreNotUsed() {
        assertThat(may(equal(B, new byte[] {9}))).isTrue();
        assertThat(may(isNull(B))).isFalse();
    }

    @Test
    void literalsMustBeInternalValuesOfTheColumnType() {
        assertThatThrownBy(() -> equal(X, 5L))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("whose values are Integer");
        assertThatThrownBy(() -> equal(S, "text")).hasMessageContaining("StringData");
        assertThatThrownBy(() -> equal(X, null)).hasMessageContaining("IS NULL");
        assertThatThrownBy(() -> in(X, 1, "2")).hasMessageContaining("does not fit");
        assertThatThrownBy(() -> and()).hasMessageContaining("at least one");
        assertThat(and(equal(X, 1), isNull(S)).fields()).containsExactly(X, S);
    }
}
