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
package io.dovetail.e2e.random;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A SQL condition the test writes into statements and evaluates on the model with SQL's three
 * values: {@code TRUE}, {@code FALSE} and unknown ({@code null}); a row qualifies only on TRUE.
 */
sealed interface Pred {

    String sql();

    Boolean eval(Scope scope);

    /** Whether every name resolves and every comparison compares one kind of value. */
    boolean typeChecks(Scope scope);

    default boolean holds(Scope scope) {
        return Boolean.TRUE.equals(eval(scope));
    }

    /** {@code left op right}, op one of {@code = <> < <= > >=}. */
    record Cmp(Expr left, String op, Expr right) implements Pred {
        @Override
        public String sql() {
            return left.sql() + " " + op + " " + right.sql();
        }

        @Override
        public Boolean eval(Scope scope) {
            Object a = left.eval(scope);
            Object b = right.eval(scope);
            if (a == null || b == null) {
                return null;
            }
            int c = compare(a, b);
            return switch (op) {
                case "=" -> c == 0;
                case "<>" -> c != 0;
                case "<" -> c < 0;
                case "<=" -> c <= 0;
                case ">" -> c > 0;
                case ">=" -> c >= 0;
                default -> throw new IllegalStateException(op);
            };
        }

        @Override
        public boolean typeChecks(Scope scope) {
            return comparable(left.type(scope), right.type(scope));
        }
    }

    /** {@code e IS [NOT] NULL}. */
    record IsNull(Expr e, boolean negated) implements Pred {
        @Override
        public String sql() {
            return e.sql() + (negated ? " IS NOT NULL" : " IS NULL");
        }

        @Override
        public Boolean eval(Scope scope) {
            return (e.eval(scope) == null) != negated;
        }

        @Override
        public boolean typeChecks(Scope scope) {
            return e.type(scope) != null;
        }
    }

    /** {@code e BETWEEN lo AND hi}. */
    record Between(Expr e, Expr lo, Expr hi) implements Pred {
        @Override
        public String sql() {
            return e.sql() + " BETWEEN " + lo.sql() + " AND " + hi.sql();
        }

        @Override
        public Boolean eval(Scope scope) {
            return and(List.of(new Cmp(e, ">=", lo), new Cmp(e, "<=", hi)), scope);
        }

        @Override
        public boolean typeChecks(Scope scope) {
            return comparable(e.type(scope), lo.type(scope))
                    && comparable(e.type(scope), hi.type(scope));
        }
    }

    /** {@code e IN (v1, v2, ...)}. */
    record In(Expr e, List<Expr> values) implements Pred {
        public In {
            values = List.copyOf(values);
        }

        @Override
        public String sql() {
            return e.sql()
                    + " IN ("
                    + values.stream().map(Expr::sql).collect(Collectors.joining(", "))
                    + ")";
        }

        @Override
        public Boolean eval(Scope scope) {
            return or(values.stream().map(v -> (Pred) new Cmp(e, "=", v)).toList(), scope);
        }

        @Override
        public boolean typeChecks(Scope scope) {
            return values.stream().allMatch(v -> comparable(e.type(scope), v.type(scope)));
        }
    }

    /** {@code (p1 AND p2 ...)}. */
    record And(List<Pred> parts) implements Pred {
        public And {
            parts = List.copyOf(parts);
        }

        @Override
        public String sql() {
            return parts.stream().map(Pred::sql).collect(Collectors.joining(" AND ", "(", ")"));
        }

        @Override
        public Boolean eval(Scope scope) {
            return and(parts, scope);
        }

        @Override
        public boolean typeChecks(Scope scope) {
            return parts.stream().allMatch(p -> p.typeChecks(scope));
        }
    }

    /** {@code (p1 OR p2 ...)}. */
    record Or(List<Pred> parts) implements Pred {
        public Or {
            parts = List.copyOf(parts);
        }

        @Override
        public String sql() {
            return parts.stream().map(Pred::sql).collect(Collectors.joining(" OR ", "(", ")"));
        }

        @Override
        public Boolean eval(Scope scope) {
            return or(parts, scope);
        }

        @Override
        public boolean typeChecks(Scope scope) {
            return parts.stream().allMatch(p -> p.typeChecks(scope));
        }
    }

    /** {@code NOT (p)}. */
    record Not(Pred p) implements Pred {
        @Override
        public String sql() {
            return "NOT (" + p.sql() + ")";
        }

        @Override
        public Boolean eval(Scope scope) {
            Boolean v = p.eval(scope);
            return v == null ? null : !v;
        }

        @Override
        public boolean typeChecks(Scope scope) {
            return p.typeChecks(scope);
        }
    }

    private static Boolean and(List<Pred> parts, Scope scope) {
        boolean unknown = false;
        for (Pred p : parts) {
            Boolean v = p.eval(scope);
            if (Boolean.FALSE.equals(v)) {
                return false;
            }
            unknown |= v == null;
        }
        return unknown ? null : true;
    }

    private static Boolean or(List<Pred> parts, Scope scope) {
        boolean unknown = false;
        for (Pred p : parts) {
            Boolean v = p.eval(scope);
            if (Boolean.TRUE.equals(v)) {
                return true;
            }
            unknown |= v == null;
        }
        return unknown ? null : false;
    }

    private static int compare(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof String x && b instanceof String y) {
            return x.compareTo(y);
        }
        throw new IllegalStateException("Incomparable " + a + " and " + b);
    }

    private static boolean comparable(ModelType a, ModelType b) {
        if (!(a instanceof ModelType.Scalar x) || !(b instanceof ModelType.Scalar y)) {
            return false;
        }
        return x.isInteger() == y.isInteger();
    }
}
