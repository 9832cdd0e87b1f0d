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

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * The row ids a filter may accept, derived from its {@code _ROW_ID} predicates (data-evolution
 * semantics §4.1 step 2), so that planning prunes files and readers select rows by them. The
 * derived ranges hold every row for which the filter can be TRUE; they may hold more, and the
 * engine still applies the filter. Comparisons, IN and IS [NOT] NULL on {@code _ROW_ID} give
 * ranges, a predicate on another column accepts any row id, AND intersects and OR unites. NOT is
 * pushed down to the leaves by De Morgan's laws (which hold in three-valued logic) and negates
 * them: {@code _ROW_ID} is never NULL, so a negated comparison is TRUE exactly where the comparison
 * is FALSE, and {@code NOT IN} with a NULL literal is never TRUE.
 */
final class RowIdRanges {

    private static final RowRange ALL = new RowRange(0, Long.MAX_VALUE);

    private RowIdRanges() {}

    /**
     * Normalized ranges holding every row id {@code filter} may accept, or null when it may accept
     * any row id.
     */
    @Nullable
    static List<RowRange> of(Predicate filter) {
        List<RowRange> ranges = ranges(filter, false);
        return ranges != null && ranges.equals(List.of(ALL)) ? null : ranges;
    }

    /** The common row ids of two normalized range lists, either null for all row ids. */
    @Nullable
    static List<RowRange> intersect(@Nullable List<RowRange> a, @Nullable List<RowRange> b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        List<RowRange> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < a.size() && j < b.size()) {
            RowRange x = a.get(i);
            RowRange y = b.get(j);
            if (x.overlaps(y)) {
                out.add(new RowRange(Math.max(x.first(), y.first()), Math.min(x.last(), y.last())));
            }
            if (x.last() < y.last()) {
                i++;
            } else {
                j++;
            }
        }
        return out;
    }

    /** The ranges of {@code p} (of {@code NOT p} when {@code negated}); null for all row ids. */
    @Nullable
    private static List<RowRange> ranges(Predicate p, boolean negated) {
        if (p instanceof Predicate.Not not) {
            return ranges(not.child(), !negated);
        }
        if (p instanceof Predicate.And and) {
            return combine(and.children(), negated, !negated);
        }
        if (p instanceof Predicate.Or or) {
            return combine(or.children(), negated, negated);
        }
        if (!p.fields().contains(SystemFields.ROW_ID)) {
            return null;
        }
        if (p instanceof Predicate.IsNull) {
            return negated ? null : List.of();
        }
        if (p instanceof Predicate.IsNotNull) {
            return negated ? List.of() : null;
        }
        if (p instanceof Predicate.In in) {
            List<RowRange> values = new ArrayList<>();
            for (Object literal : in.literals()) {
                if (literal == null) {
                    if (negated) {
                        return List.of();
                    }
                } else if ((Long) literal >= 0) {
                    values.add(new RowRange((Long) literal, (Long) literal));
                }
            }
            values = RowRange.normalize(values);
            return negated ? complement(values) : values;
        }
        Predicate.Compare compare = (Predicate.Compare) p;
        return compare(negated ? negate(compare.op()) : compare.op(), (Long) compare.literal());
    }

    /** The children's ranges intersected ({@code intersect}) or united, each maybe negated. */
    @Nullable
    private static List<RowRange> combine(
            List<Predicate> children, boolean negated, boolean intersect) {
        List<RowRange> out = intersect ? null : List.of();
        for (Predicate child : children) {
            List<RowRange> ranges = ranges(child, negated);
            if (intersect) {
                out = intersect(out, ranges);
            } else if (ranges == null) {
                return null;
            } else {
                List<RowRange> union = new ArrayList<>(out);
                union.addAll(ranges);
                out = RowRange.normalize(union);
            }
        }
        return out;
    }

    private static List<RowRange> compare(Predicate.Op op, long v) {
        switch (op) {
            case EQUAL:
                return v < 0 ? List.of() : List.of(new RowRange(v, v));
            case NOT_EQUAL:
                return v < 0 ? List.of(ALL) : complement(List.of(new RowRange(v, v)));
            case LESS_THAN:
                return v <= 0 ? List.of() : List.of(new RowRange(0, v - 1));
            case LESS_OR_EQUAL:
                return v < 0 ? List.of() : List.of(new RowRange(0, v));
            case GREATER_THAN:
                return v == Long.MAX_VALUE
                        ? List.of()
                        : List.of(new RowRange(Math.max(0, v + 1), Long.MAX_VALUE));
            default:
                return List.of(new RowRange(Math.max(0, v), Long.MAX_VALUE));
        }
    }

    private static Predicate.Op negate(Predicate.Op op) {
        switch (op) {
            case EQUAL:
                return Predicate.Op.NOT_EQUAL;
            case NOT_EQUAL:
                return Predicate.Op.EQUAL;
            case LESS_THAN:
                return Predicate.Op.GREATER_OR_EQUAL;
            case LESS_OR_EQUAL:
                return Predicate.Op.GREATER_THAN;
            case GREATER_THAN:
                return Predicate.Op.LESS_OR_EQUAL;
            default:
                return Predicate.Op.LESS_THAN;
        }
    }

    /** The row ids in [0, Long.MAX_VALUE] outside normalized {@code ranges}. */
    static List<RowRange> complement(List<RowRange> ranges) {
        List<RowRange> out = new ArrayList<>();
        long next = 0;
        for (RowRange range : ranges) {
            if (range.first() > next) {
                out.add(new RowRange(next, range.first() - 1));
            }
            if (range.last() == Long.MAX_VALUE) {
                return out;
            }
            next = range.last() + 1;
        }
        out.add(new RowRange(next, Long.MAX_VALUE));
        return out;
    }
}
