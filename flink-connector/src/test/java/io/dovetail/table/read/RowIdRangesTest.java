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
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.dovetail.table.predicate.Predicate.and;
import static io.dovetail.table.predicate.Predicate.equal;
import static io.dovetail.table.predicate.Predicate.greaterOrEqual;
import static io.dovetail.table.predicate.Predicate.greaterThan;
import static io.dovetail.table.predicate.Predicate.in;
import static io.dovetail.table.predicate.Predicate.isNull;
import static io.dovetail.table.predicate.Predicate.lessOrEqual;
import static io.dovetail.table.predicate.Predicate.lessThan;
import static io.dovetail.table.predicate.Predicate.not;
import static io.dovetail.table.predicate.Predicate.notEqual;
import static io.dovetail.table.predicate.Predicate.or;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Row ranges derived from {@code _ROW_ID} predicates: exact for filters on {@code _ROW_ID} alone,
 * and never missing a row id another column's predicate could let through.
 */
class RowIdRangesTest {

    private static final DataField ROW_ID = SystemFields.ROW_ID;
    private static final DataField X = new DataField(0, "x", DataTypes.INT());
    private static final long MAX = Long.MAX_VALUE;

    @Test
    void comparisonsInAndBetweenBecomeRanges() {
        assertThat(RowIdRanges.of(equal(ROW_ID, 5L))).containsExactly(new RowRange(5, 5));
        assertThat(RowIdRanges.of(in(ROW_ID, 7L, 1L, 2L, null, -3L)))
                .containsExactly(new RowRange(1, 2), new RowRange(7, 7));
        assertThat(RowIdRanges.of(and(greaterOrEqual(ROW_ID, 10L), lessOrEqual(ROW_ID, 20L))))
                .containsExactly(new RowRange(10, 20));
        assertThat(RowIdRanges.of(or(lessThan(ROW_ID, 3L), greaterThan(ROW_ID, 100L))))
                .containsExactly(new RowRange(0, 2), new RowRange(101, MAX));
        assertThat(RowIdRanges.of(notEqual(ROW_ID, 0L))).containsExactly(new RowRange(1, MAX));
        assertThat(RowIdRanges.of(lessThan(ROW_ID, 0L))).isEmpty();
        assertThat(RowIdRanges.of(isNull(ROW_ID))).isEmpty();
    }

    @Test
    void otherColumnsAcceptAnyRowIdUnderOrButNarrowNothingUnderAnd() {
        assertThat(RowIdRanges.of(equal(X, 1))).isNull();
        assertThat(RowIdRanges.of(greaterOrEqual(ROW_ID, -5L))).isNull();
        assertThat(RowIdRanges.of(and(equal(X, 1), equal(ROW_ID, 7L))))
                .containsExactly(new RowRange(7, 7));
        assertThat(RowIdRanges.of(or(equal(X, 1), equal(ROW_ID, 7L)))).isNull();
    }

    @Test
    void notIsPushedDownToTheComparisons() {
        assertThat(RowIdRanges.of(not(and(greaterOrEqual(ROW_ID, 10L), lessOrEqual(ROW_ID, 20L)))))
                .containsExactly(new RowRange(0, 9), new RowRange(21, MAX));
        assertThat(RowIdRanges.of(not(or(equal(X, 1), notEqual(ROW_ID, 5L)))))
                .containsExactly(new RowRange(5, 5));
        assertThat(RowIdRanges.of(not(in(ROW_ID, 1L, 3L))))
                .containsExactly(new RowRange(0, 0), new RowRange(2, 2), new RowRange(4, MAX));
        // NOT IN with a NULL is never TRUE
        assertThat(RowIdRanges.of(not(in(ROW_ID, 1L, null)))).isEmpty();
        assertThat(RowIdRanges.of(not(isNull(ROW_ID)))).isNull();
    }

    @Test
    void rangesHoldExactlyTheRowIdsARandomFilterMayAccept() {
        Random random = new Random(42);
        for (int n = 0; n < 5_000; n++) {
            Predicate filter = random(random, 3);
            List<RowRange> ranges = RowIdRanges.of(filter);
            boolean rowIdOnly = !filter.fields().contains(X);
            for (long id = 0; id <= 40; id++) {
                long rowId = id;
                boolean inRanges =
                        ranges == null || ranges.stream().anyMatch(r -> r.contains(rowId));
                boolean mayPass = false;
                for (Integer x : new Integer[] {null, 0, 1}) {
                    mayPass |=
                            Boolean.TRUE.equals(
                                    FilterEvaluation.eval(
                                            filter, f -> f.equals(ROW_ID) ? (Object) rowId : x));
                }
                if (mayPass) {
                    assertThat(inRanges).as("%s accepts row %d", filter, rowId).isTrue();
                } else if (rowIdOnly) {
                    assertThat(inRanges).as("%s rejects row %d", filter, rowId).isFalse();
                }
            }
        }
    }

    /** A random filter over {@code _ROW_ID} (literals around [0, 40]) and, rarely, {@code x}. */
    private static Predicate random(Random random, int depth) {
        int kind = random.nextInt(depth > 0 ? 8 : 5);
        if (kind >= 5) {
            Predicate a = random(random, depth - 1);
            if (kind == 7) {
                return not(a);
            }
            Predicate b = random(random, depth - 1);
            return kind == 5 ? and(a, b) : or(a, b);
        }
        if (random.nextInt(5) == 0) {
            return random.nextBoolean() ? equal(X, random.nextInt(2)) : isNull(X);
        }
        switch (kind) {
            case 0:
                return random.nextBoolean() ? isNull(ROW_ID) : Predicate.isNotNull(ROW_ID);
            case 1:
                List<Object> values = new ArrayList<>();
                for (int i = 0, count = 1 + random.nextInt(3); i < count; i++) {
                    values.add(random.nextInt(8) == 0 ? null : literal(random));
                }
                return new Predicate.In(ROW_ID, values);
            default:
                Predicate.Op op = Predicate.Op.values()[random.nextInt(6)];
                return new Predicate.Compare(ROW_ID, op, literal(random));
        }
    }

    private static Long literal(Random random) {
        return (long) random.nextInt(45) - 2;
    }
}
