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

import io.dovetail.table.stats.ValueOrder;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.types.TypeRoot;

import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Decides from {@link ColumnBounds} whether a set of rows may hold a row passing a {@link
 * Predicate}. Each sub-predicate is mapped to the outcomes (TRUE, FALSE, UNKNOWN) it can take on
 * some row, and NOT, AND and OR combine those sets by SQL's three-valued logic; the rows may match
 * unless TRUE is impossible. Each set over-approximates the real one, so the answer "cannot match"
 * is always right.
 *
 * <p>Comparisons follow the engine's: FLOAT and DOUBLE compare like Java primitives, so NaN makes
 * every comparison but {@code <>} FALSE and {@code -0.0 = 0.0}. Statistics may omit NaN and may
 * record either zero, so for floating columns a comparison can always be FALSE ({@code <>}: always
 * TRUE), zeros widen the bounds, and NaN bounds or literals are unknown. BINARY bounds are never
 * used (engines differ in how they order bytes).
 */
public final class BoundsCheck {

    private BoundsCheck() {}

    /**
     * Whether rows described by {@code bounds} (per referenced column) may hold a row for which
     * {@code filter} is TRUE.
     */
    public static boolean mayMatch(Predicate filter, Function<DataField, ColumnBounds> bounds) {
        return outcomes(filter, bounds).isTrue;
    }

    /** The outcomes a predicate can take on some of the rows. */
    private record Outcomes(boolean isTrue, boolean isFalse, boolean isUnknown) {

        Outcomes not() {
            return new Outcomes(isFalse, isTrue, isUnknown);
        }
    }

    private static Outcomes outcomes(Predicate p, Function<DataField, ColumnBounds> bounds) {
        if (p instanceof Predicate.Not not) {
            return outcomes(not.child(), bounds).not();
        }
        if (p instanceof Predicate.And and) {
            return and(and.children(), bounds);
        }
        if (p instanceof Predicate.Or or) {
            // OR is NOT AND NOT, by De Morgan's law that holds in three-valued logic
            return and(or.children().stream().map(Predicate::not).toList(), bounds).not();
        }
        if (p instanceof Predicate.IsNull isNull) {
            ColumnBounds b = bounds.apply(isNull.field()).checked();
            return new Outcomes(b.mayHaveNull(), b.mayHaveValue(), false);
        }
        if (p instanceof Predicate.IsNotNull isNotNull) {
            ColumnBounds b = bounds.apply(isNotNull.field()).checked();
            return new Outcomes(b.mayHaveValue(), b.mayHaveNull(), false);
        }
        if (p instanceof Predicate.Compare compare) {
            return compare(compare, bounds.apply(compare.field()).checked());
        }
        return in((Predicate.In) p, bounds.apply(((Predicate.In) p).field()).checked());
    }

    private static Outcomes and(List<Predicate> children, Function<DataField, ColumnBounds> b) {
        boolean allTrue = true;
        boolean anyFalse = false;
        boolean allTrueOrUnknown = true;
        boolean anyUnknown = false;
        for (Predicate child : children) {
            Outcomes o = outcomes(child, b);
            allTrue &= o.isTrue;
            anyFalse |= o.isFalse;
            allTrueOrUnknown &= o.isTrue || o.isUnknown;
            anyUnknown |= o.isUnknown;
        }
        return new Outcomes(allTrue, anyFalse, allTrueOrUnknown && anyUnknown);
    }

    private static Outcomes compare(Predicate.Compare compare, ColumnBounds b) {
        boolean nulls = b.mayHaveNull();
        if (!b.mayHaveValue()) {
            return new Outcomes(false, false, nulls);
        }
        Range range = Range.of(compare.field(), b);
        Object literal = range == null ? null : range.literal(compare.literal());
        if (literal == null) {
            return new Outcomes(true, true, nulls);
        }
        int low = range.order.compare(range.min, literal);
        int high = range.order.compare(range.max, literal);
        boolean single = low == 0 && high == 0;
        boolean isTrue;
        boolean isFalse;
        switch (compare.op()) {
            case EQUAL:
                isTrue = low <= 0 && high >= 0;
                isFalse = !single;
                break;
            case NOT_EQUAL:
                isTrue = !single;
                isFalse = low <= 0 && high >= 0;
                break;
            case LESS_THAN:
                isTrue = low < 0;
                isFalse = high >= 0;
                break;
            case LESS_OR_EQUAL:
                isTrue = low <= 0;
                isFalse = high > 0;
                break;
            case GREATER_THAN:
                isTrue = high > 0;
                isFalse = low <= 0;
                break;
            default: // GREATER_OR_EQUAL
                isTrue = high >= 0;
                isFalse = low < 0;
        }
        if (range.floating) { // NaN values may lie outside the bounds
            isTrue |= compare.op() == Predicate.Op.NOT_EQUAL;
            isFalse |= compare.op() != Predicate.Op.NOT_EQUAL;
        }
        return new Outcomes(isTrue, isFalse, nulls);
    }

    private static Outcomes in(Predicate.In in, ColumnBounds b) {
        boolean nulls = b.mayHaveNull();
        if (!b.mayHaveValue()) {
            return new Outcomes(false, false, nulls);
        }
        boolean nullLiteral = in.literals().contains(null);
        Range range = Range.of(in.field(), b);
        boolean hit = false;
        boolean surelyHit = false; // every value is one of the literals
        for (Object value : in.literals()) {
            if (value == null) {
                continue;
            }
            Object literal = range == null ? null : range.literal(value);
            if (literal == null) {
                hit = true;
                continue;
            }
            int low = range.order.compare(range.min, literal);
            int high = range.order.compare(range.max, literal);
            hit |= low <= 0 && high >= 0;
            surelyHit |= low == 0 && high == 0 && !range.floating;
        }
        boolean miss = !surelyHit;
        return new Outcomes(hit, miss && !nullLiteral, nulls || (miss && nullLiteral));
    }

    /** Usable bounds of a column with their order, or null when the bounds say nothing. */
    private static final class Range {
        final Comparator<Object> order;
        final Object min;
        final Object max;
        final boolean floating;

        private Range(Comparator<Object> order, Object min, Object max, boolean floating) {
            this.order = order;
            this.min = min;
            this.max = max;
            this.floating = floating;
        }

        static Range of(DataField field, ColumnBounds b) {
            if (b.min() == null || !(field.type() instanceof AtomicType type)) {
                return null;
            }
            TypeRoot root = type.root();
            if (root == TypeRoot.BINARY || root == TypeRoot.VARBINARY) {
                return null;
            }
            boolean floating = root == TypeRoot.FLOAT || root == TypeRoot.DOUBLE;
            Object min = b.min();
            Object max = b.max();
            if (floating) {
                if (isNaN(min) || isNaN(max)) {
                    return null;
                }
                min = isZero(min) ? negativeZero(min) : min;
                max = isZero(max) ? positiveZero(max) : max;
            }
            Comparator<Object> order = ValueOrder.of(FlinkTypes.toFlink(type));
            return order.compare(min, max) <= 0 ? new Range(order, min, max, floating) : null;
        }

        /** The literal to compare with the bounds, or null if it cannot be (NaN). */
        Object literal(Object value) {
            return floating && isNaN(value) ? null : value;
        }

        private static boolean isNaN(Object v) {
            return v instanceof Float f ? f.isNaN() : ((Double) v).isNaN();
        }

        private static boolean isZero(Object v) {
            return ((Number) v).doubleValue() == 0;
        }

        private static Object negativeZero(Object v) {
            return v instanceof Float ? (Object) (-0.0f) : (Object) (-0.0d);
        }

        private static Object positiveZero(Object v) {
            return v instanceof Float ? (Object) 0.0f : (Object) 0.0d;
        }
    }
}
