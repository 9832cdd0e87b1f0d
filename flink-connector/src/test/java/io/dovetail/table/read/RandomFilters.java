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
import io.dovetail.table.types.DataField;

import org.apache.flink.table.data.StringData;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * Random filters over the columns of a {@link RandomLayout} and {@code _ROW_ID}, and their SQL
 * evaluation (three-valued, numbers compared like Java primitives) on a row's values: the oracle
 * the planner's pruning is checked against.
 */
final class RandomFilters {

    private RandomFilters() {}

    /**
     * A random filter; {@code sample} gives a random stored value of a column (internal
     * representation, possibly null) so that literals often hit existing values.
     */
    static Predicate random(
            List<DataField> columns,
            long nextRowId,
            Function<DataField, Object> sample,
            Random random,
            int depth) {
        int kind = random.nextInt(depth > 0 ? 10 : 7);
        if (kind >= 7) {
            Predicate a = random(columns, nextRowId, sample, random, depth - 1);
            if (kind == 9) {
                return Predicate.not(a);
            }
            Predicate b = random(columns, nextRowId, sample, random, depth - 1);
            return kind == 7 ? Predicate.and(a, b) : Predicate.or(a, b);
        }
        DataField field =
                random.nextInt(6) == 0
                        ? SystemFields.ROW_ID
                        : columns.get(random.nextInt(columns.size()));
        switch (kind) {
            case 0:
                return random.nextBoolean() ? Predicate.isNull(field) : Predicate.isNotNull(field);
            case 1:
                List<Object> values = new ArrayList<>();
                int count = 1 + random.nextInt(3);
                for (int i = 0; i < count; i++) {
                    values.add(
                            random.nextInt(8) == 0
                                    ? null
                                    : literal(field, nextRowId, sample, random));
                }
                return new Predicate.In(field, values);
            default:
                Predicate.Op op = Predicate.Op.values()[random.nextInt(6)];
                return new Predicate.Compare(field, op, literal(field, nextRowId, sample, random));
        }
    }

    private static Object literal(
            DataField field, long nextRowId, Function<DataField, Object> sample, Random random) {
        if (field.equals(SystemFields.ROW_ID)) {
            return (long) random.nextInt((int) nextRowId + 2) - 1;
        }
        Object value = random.nextInt(3) == 0 ? null : sample.apply(field);
        if (value != null) {
            return value;
        }
        switch (field.type().root()) {
            case INT:
                return random.nextInt(2001) - 1000;
            case BIGINT:
                return (long) random.nextInt(2001) - 1000;
            case DOUBLE:
                switch (random.nextInt(6)) {
                    case 0:
                        return Double.NaN;
                    case 1:
                        return -0.0;
                    case 2:
                        return 0.0;
                    default:
                        return Math.round(random.nextDouble() * 20000 - 10000) / 8.0;
                }
            default:
                return StringData.fromString("s" + random.nextInt(1000));
        }
    }

    /** The filter's value on a row: TRUE, FALSE, or null for UNKNOWN. */
    static Boolean eval(Predicate p, Function<DataField, Object> row) {
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
        if (value instanceof Double d) {
            double x = d;
            double y = (Double) literal;
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
        int c =
                value instanceof StringData s
                        ? Arrays.compareUnsigned(s.toBytes(), ((StringData) literal).toBytes())
                        : Long.compare(
                                ((Number) value).longValue(), ((Number) literal).longValue());
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
}
