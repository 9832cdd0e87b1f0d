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
package io.dovetail.table.testing;

import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.types.DataField;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Evaluates a {@link Predicate} on rows the way SQL does (three-valued; FLOAT/DOUBLE compared like
 * Java primitives, strings by unsigned bytes): the oracle pruned reads are checked against.
 */
public final class FilterEvaluation {

    private FilterEvaluation() {}

    /** The filter's value on a row: TRUE, FALSE, or null for UNKNOWN. */
    public static Boolean eval(Predicate p, Function<DataField, Object> row) {
        if (p instanceof Predicate.Not not) {
            Boolean v = eval(not.child(), row);
            return v == null ? null : !v;
        }
        if (p instanceof Predicate.And and) {
            Boolean result = true;
            for (Predicate child : and.children()) {
                Boolean v = eval(child, row);
                if (Boolean.FALSE.equals(v)) {
                    return false;
                }
                result = v == null ? null : result;
            }
            return result;
        }
        if (p instanceof Predicate.Or or) {
            Boolean result = false;
            for (Predicate child : or.children()) {
                Boolean v = eval(child, row);
                if (Boolean.TRUE.equals(v)) {
                    return true;
                }
                result = v == null ? null : result;
            }
            return result;
        }
        if (p instanceof Predicate.IsNull isNull) {
            return row.apply(isNull.field()) == null;
        }
        if (p instanceof Predicate.IsNotNull isNotNull) {
            return row.apply(isNotNull.field()) != null;
        }
        if (p instanceof Predicate.In in) {
            Object value = row.apply(in.field());
            if (value == null) {
                return null;
            }
            Boolean result = false;
            for (Object literal : in.literals()) {
                if (literal == null) {
                    result = null;
                } else if (compare(Predicate.Op.EQUAL, value, literal)) {
                    return true;
                }
            }
            return result;
        }
        Predicate.Compare compare = (Predicate.Compare) p;
        Object value = row.apply(compare.field());
        return value == null ? null : compare(compare.op(), value, compare.literal());
    }

    private static boolean compare(Predicate.Op op, Object value, Object literal) {
        if (value instanceof Double || value instanceof Float) {
            double x = ((Number) value).doubleValue();
            double y = ((Number) literal).doubleValue();
            switch (op) {
                case EQUAL:
                    return x == y;
                case NOT_EQUAL:
                    return x != y;
                case LESS_THAN:
                    return x < y;
                case LESS_OR_EQUAL:
                    return x <= y;
                case GREATER_THAN:
                    return x > y;
                default:
                    return x >= y;
            }
        }
        int c = order(value, literal);
        switch (op) {
            case EQUAL:
                return c == 0;
            case NOT_EQUAL:
                return c != 0;
            case LESS_THAN:
                return c < 0;
            case LESS_OR_EQUAL:
                return c <= 0;
            case GREATER_THAN:
                return c > 0;
            default:
                return c >= 0;
        }
    }

    /** Integers as longs, strings by unsigned bytes, DECIMAL / TIMESTAMP / BOOLEAN naturally. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int order(Object value, Object literal) {
        if (value instanceof StringData s) {
            return Arrays.compareUnsigned(s.toBytes(), ((StringData) literal).toBytes());
        }
        if (value instanceof Number n) {
            return Long.compare(n.longValue(), ((Number) literal).longValue());
        }
        return ((Comparable) value).compareTo(literal);
    }

    /** What a filtered read returned: the rows the filter holds for, rendered, and all it read. */
    public record Filtered(List<String> matching, long rowsRead) {}

    /**
     * Reads every split of {@code plan} and keeps the rows where {@code filter} is TRUE (the
     * planner only prunes groups; the engine applies the filter to the rest).
     */
    public static Filtered read(ReadPlan plan, Predicate filter) {
        List<DataField> fields = plan.fields();
        RowType type = plan.rowType();
        List<RowData.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            getters.add(RowData.createFieldGetter(type.getTypeAt(i), i));
        }
        List<String> matching = new ArrayList<>();
        long read = 0;
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan, split)) {
                for (ReadBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                    for (int i = 0; i < b.size(); i++) {
                        RowData row = b.row(i);
                        read++;
                        Boolean v =
                                eval(
                                        filter,
                                        field ->
                                                getters.get(column(fields, field))
                                                        .getFieldOrNull(row));
                        if (Boolean.TRUE.equals(v)) {
                            matching.add(RenderedReads.render(type, row));
                        }
                    }
                }
            }
        }
        matching.sort(null);
        return new Filtered(matching, read);
    }

    private static int column(List<DataField> fields, DataField field) {
        int i = fields.indexOf(field);
        if (i < 0) {
            throw new IllegalArgumentException("The read does not include " + field);
        }
        return i;
    }
}
