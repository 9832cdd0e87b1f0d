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

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A SQL value expression the test writes into statements and evaluates on the model the way Flink
 * does: NULL in, NULL out; integers as {@code Long}, strings, rows as lists by position.
 */
sealed interface Expr {

    String sql();

    Object eval(Scope scope);

    /** The expression's type, or null if it does not type-check in {@code scope}. */
    ModelType type(Scope scope);

    /** A typed literal. */
    record Lit(ModelType type, Object value) implements Expr {
        @Override
        public String sql() {
            return Sql.literal(type, value);
        }

        @Override
        public Object eval(Scope scope) {
            return value;
        }

        @Override
        public ModelType type(Scope scope) {
            return type;
        }
    }

    /** A column (or nested field, or {@code _ROW_ID}) of the target or of an aliased source. */
    record Ref(String alias, List<String> path) implements Expr {
        public Ref {
            path = List.copyOf(path);
        }

        static Ref of(String alias, String... path) {
            return new Ref(alias, List.of(path));
        }

        @Override
        public String sql() {
            String names =
                    path.stream()
                            .map(p -> p.equals(Scope.ROW_ID) ? p : Sql.name(p))
                            .collect(Collectors.joining("."));
            return alias == null ? names : alias + "." + names;
        }

        @Override
        public Object eval(Scope scope) {
            return scope.value(alias, path);
        }

        @Override
        public ModelType type(Scope scope) {
            return scope.type(alias, path);
        }
    }

    /** {@code e + n} over integers. */
    record Plus(Expr e, long n) implements Expr {
        @Override
        public String sql() {
            return "(" + e.sql() + " + " + n + ")";
        }

        @Override
        public Object eval(Scope scope) {
            Object v = e.eval(scope);
            return v == null ? null : (Long) v + n;
        }

        @Override
        public ModelType type(Scope scope) {
            ModelType t = e.type(scope);
            return t instanceof ModelType.Scalar s && s.isInteger()
                    ? ModelType.Scalar.BIGINT
                    : null;
        }
    }

    /** {@code CONCAT('prefix', e)} over strings: NULL if e is NULL. */
    record Concat(String prefix, Expr e) implements Expr {
        @Override
        public String sql() {
            return "CONCAT(" + Sql.string(prefix) + ", " + e.sql() + ")";
        }

        @Override
        public Object eval(Scope scope) {
            Object v = e.eval(scope);
            return v == null ? null : prefix + v;
        }

        @Override
        public ModelType type(Scope scope) {
            return e.type(scope) == ModelType.Scalar.STRING ? ModelType.Scalar.STRING : null;
        }
    }

    /** {@code COALESCE(e, otherwise)}. */
    record Coalesce(Expr e, Expr otherwise) implements Expr {
        @Override
        public String sql() {
            return "COALESCE(" + e.sql() + ", " + otherwise.sql() + ")";
        }

        @Override
        public Object eval(Scope scope) {
            Object v = e.eval(scope);
            return v != null ? v : otherwise.eval(scope);
        }

        @Override
        public ModelType type(Scope scope) {
            ModelType a = e.type(scope);
            ModelType b = otherwise.type(scope);
            if (a instanceof ModelType.Scalar x && b instanceof ModelType.Scalar y) {
                if (x.isInteger() && y.isInteger()) {
                    return ModelType.Scalar.BIGINT;
                }
                return x == y ? x : null;
            }
            return null;
        }
    }

    /**
     * {@code CAST(e AS type)}: integers into integers or strings, strings into strings, a row value
     * of exactly that row type as it is.
     */
    record Cast(ModelType type, Expr e) implements Expr {
        @Override
        public String sql() {
            return e instanceof RowValue ? e.sql() : "CAST(" + e.sql() + " AS " + type.sql() + ")";
        }

        @Override
        public Object eval(Scope scope) {
            Object v = e.eval(scope);
            if (v == null) {
                return null;
            }
            if (type == ModelType.Scalar.STRING) {
                return v.toString();
            }
            return v;
        }

        @Override
        public ModelType type(Scope scope) {
            ModelType from = e.type(scope);
            if (type instanceof ModelType.RowOf) {
                return type.equals(from) ? type : null;
            }
            if (!(from instanceof ModelType.Scalar f) || !(type instanceof ModelType.Scalar t)) {
                return null;
            }
            return t == ModelType.Scalar.STRING || (f.isInteger() && t.isInteger()) ? type : null;
        }
    }

    /** {@code CAST(ROW(f1, f2, ...) AS ROW<...>)}: a row value of the given row type. */
    record RowValue(ModelType.RowOf type, List<Expr> fields) implements Expr {
        public RowValue {
            fields = List.copyOf(fields);
        }

        @Override
        public String sql() {
            return "CAST(ROW("
                    + fields.stream().map(Expr::sql).collect(Collectors.joining(", "))
                    + ") AS "
                    + type.sql()
                    + ")";
        }

        @Override
        public Object eval(Scope scope) {
            List<Object> values = new ArrayList<>();
            for (Expr f : fields) {
                values.add(f.eval(scope));
            }
            return values;
        }

        @Override
        public ModelType type(Scope scope) {
            for (Expr f : fields) {
                if (f.type(scope) == null) {
                    return null;
                }
            }
            return type;
        }
    }
}
