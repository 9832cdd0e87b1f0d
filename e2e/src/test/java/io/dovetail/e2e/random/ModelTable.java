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
import java.util.Map;
import java.util.TreeMap;

/**
 * The model: a plain in-memory table keyed by {@code _ROW_ID}, each row its stored values by field
 * id; the schema by field id; the next row id; and the rows of every snapshot a step ended on, for
 * time travel and rollback (reads use the latest schema, so old rows are kept by field id).
 */
final class ModelTable {

    ModelSchema schema;
    TreeMap<Long, Map<Integer, Object>> rows = new TreeMap<>();
    long nextRowId;

    /** The rows as of each snapshot a step ended on (and that may still exist). */
    TreeMap<Long, TreeMap<Long, Map<Integer, Object>>> history = new TreeMap<>();

    ModelTable(ModelSchema schema) {
        this.schema = schema;
    }

    ModelTable copy() {
        ModelTable copy = new ModelTable(schema);
        copy.rows = new TreeMap<>(rows);
        copy.nextRowId = nextRowId;
        copy.history = new TreeMap<>(history);
        return copy;
    }

    /** Takes the state of {@code other}: its schema, rows, next row id and history. */
    void restore(ModelTable other) {
        schema = other.schema;
        rows = new TreeMap<>(other.rows);
        nextRowId = other.nextRowId;
        history = new TreeMap<>(other.history);
    }

    /** The scope of the target row {@code rowId} (alias null or {@code t}). */
    Scope scope(long rowId) {
        return scope(rowId, rows.get(rowId), null);
    }

    /** The scope of a stored row: the target, and {@code other} for any other alias. */
    Scope scope(long rowId, Map<Integer, Object> stored, Scope other) {
        ModelSchema current = schema;
        return new Scope() {
            @Override
            public Object value(String alias, List<String> path) {
                if (alias != null && !alias.equals("t")) {
                    return other.value(alias, path);
                }
                if (path.get(0).equals(ROW_ID)) {
                    return rowId;
                }
                Field f = current.column(path.get(0));
                Object v = f.type().read(stored.get(f.id()));
                for (int i = 1; i < path.size() && v != null; i++) {
                    ModelType.RowOf row = (ModelType.RowOf) f.type();
                    f = row.field(path.get(i));
                    v = ((List<?>) v).get(row.fields().indexOf(f));
                }
                return v;
            }

            @Override
            public ModelType type(String alias, List<String> path) {
                if (alias != null && !alias.equals("t")) {
                    return other == null ? null : other.type(alias, path);
                }
                return typeOf(current, path);
            }
        };
    }

    /** The type of a column path of {@code schema}; null if it has no such column. */
    static ModelType typeOf(ModelSchema schema, List<String> path) {
        if (path.get(0).equals(Scope.ROW_ID)) {
            return path.size() == 1 ? ModelType.Scalar.BIGINT : null;
        }
        Field f = schema.column(path.get(0));
        for (int i = 1; i < path.size() && f != null; i++) {
            f = f.type() instanceof ModelType.RowOf row ? row.field(path.get(i)) : null;
        }
        return f == null ? null : f.type();
    }

    /** A scope with no rows, for type checks against the current schema. */
    Scope types() {
        return scope(-1, Map.of(), null);
    }

    /** Every row as {@code _ROW_ID | col1 | col2 ...} in schema order, sorted. */
    List<String> render() {
        return render(rows);
    }

    /** {@code rows} rendered in the current schema (time travel reads with the latest schema). */
    List<String> render(Map<Long, Map<Integer, Object>> rows) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<Long, Map<Integer, Object>> row : rows.entrySet()) {
            StringBuilder sb = new StringBuilder().append(row.getKey());
            for (Field f : schema.columns()) {
                sb.append(" | ").append(f.type().render(f.type().read(row.getValue().get(f.id()))));
            }
            out.add(sb.toString());
        }
        out.sort(null);
        return out;
    }

    /** {@code SELECT _ROW_ID, projection... WHERE filter} on the model, rendered, sorted. */
    List<String> query(List<Expr> projection, Pred filter) {
        List<String> out = new ArrayList<>();
        for (long rowId : rows.keySet()) {
            Scope scope = scope(rowId);
            if (filter != null && !filter.holds(scope)) {
                continue;
            }
            StringBuilder sb = new StringBuilder().append(rowId);
            for (Expr e : projection) {
                sb.append(" | ").append(e.type(scope).render(e.eval(scope)));
            }
            out.add(sb.toString());
        }
        out.sort(null);
        return out;
    }
}
