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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code CALL sys.data_evolution_merge}: a source of literal rows (a {@code VALUES} query) merged
 * on {@code t.k = s.k}, or, as a self-merge, on {@code t._ROW_ID = s.rid}; matched updates and
 * deletes, inserts of unmatched source rows, deletes of target rows no source row matches. Source
 * keys are unique, so no target row is matched twice.
 */
final class MergeOp extends Op {

    /** The source: column names, their types, and rows of values (as the model reads them). */
    record Source(List<String> columns, List<ModelType> types, List<List<Object>> rows) {
        Source {
            columns = List.copyOf(columns);
            types = List.copyOf(types);
            rows = List.copyOf(rows);
        }

        String query() {
            List<String> rendered = new ArrayList<>();
            for (List<Object> row : rows) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < columns.size(); i++) {
                    Object v = row.get(i);
                    values.add(
                            v == null || types.get(i) != ModelType.Scalar.STRING
                                    ? Sql.literal(types.get(i), v)
                                    : "CAST(" + Sql.string(v.toString()) + " AS STRING)");
                }
                rendered.add("(" + String.join(", ", values) + ")");
            }
            return "SELECT * FROM (VALUES "
                    + String.join(", ", rendered)
                    + ") AS v("
                    + String.join(", ", columns.stream().map(Sql::name).toList())
                    + ")";
        }

        Scope scope(List<Object> row) {
            return new Scope() {
                @Override
                public Object value(String alias, List<String> path) {
                    return path.size() == 1 ? row.get(columns.indexOf(path.get(0))) : null;
                }

                @Override
                public ModelType type(String alias, List<String> path) {
                    int i = columns.indexOf(path.get(0));
                    return path.size() == 1 && i >= 0 ? types.get(i) : null;
                }
            };
        }
    }

    final String table;
    final Source source;
    final boolean selfMerge;

    /** Matched updates: target columns and values (over t and s); {@code ["*"]} for all. */
    final List<String> updateColumns;

    final List<Expr.Cast> updateValues;
    final Pred deleteWhen;

    /** Inserts: null for none, {@code ["*"]} for the source's columns by name, or a list. */
    final List<String> insertColumns;

    final List<Expr.Cast> insertValues;
    final Pred notMatchedBySourceDelete;
    final boolean skipStale;
    final boolean deletionVectors;

    MergeOp(
            String table,
            Source source,
            boolean selfMerge,
            List<String> updateColumns,
            List<Expr.Cast> updateValues,
            Pred deleteWhen,
            List<String> insertColumns,
            List<Expr.Cast> insertValues,
            Pred notMatchedBySourceDelete,
            boolean skipStale,
            boolean deletionVectors) {
        this.table = table;
        this.source = source;
        this.selfMerge = selfMerge;
        this.updateColumns = updateColumns;
        this.updateValues = updateValues;
        this.deleteWhen = deleteWhen;
        this.insertColumns = insertColumns;
        this.insertValues = insertValues;
        this.notMatchedBySourceDelete = notMatchedBySourceDelete;
        this.skipStale = skipStale;
        this.deletionVectors = deletionVectors;
    }

    @Override
    String kind() {
        return selfMerge ? "self-merge" : "merge";
    }

    private static boolean star(List<String> columns) {
        return columns != null && columns.equals(List.of("*"));
    }

    @Override
    List<String> statements(ModelTable model) {
        List<String> args = new ArrayList<>();
        args.add("target => " + Sql.string("default." + table));
        args.add("source => " + Sql.string(source.query()));
        args.add(
                "merge_condition => "
                        + Sql.string(selfMerge ? "t._ROW_ID = s.`rid`" : "t.`k` = s.`k`"));
        if (updateColumns != null) {
            args.add(
                    "matched_update_set => "
                            + Sql.string(assignments(updateColumns, updateValues)));
        }
        if (deleteWhen != null) {
            args.add("matched_delete_condition => " + Sql.string(deleteWhen.sql()));
        }
        if (insertColumns != null) {
            args.add(
                    "not_matched_insert_values => "
                            + Sql.string(assignments(insertColumns, insertValues)));
        }
        if (notMatchedBySourceDelete != null) {
            args.add(
                    "not_matched_by_source_delete_condition => "
                            + Sql.string(notMatchedBySourceDelete.sql()));
        }
        if (skipStale) {
            args.add("on_stale_row_id => 'skip'");
        }
        return List.of("CALL dovetail.sys.data_evolution_merge(" + String.join(", ", args) + ")");
    }

    private static String assignments(List<String> columns, List<Expr.Cast> values) {
        if (star(columns)) {
            return "*";
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            out.add(Sql.name(columns.get(i)) + " = " + values.get(i).sql());
        }
        return String.join(", ", out);
    }

    @Override
    boolean applicable(ModelTable model) {
        for (int i = 0; i < source.columns().size(); i++) {
            Field f = model.schema.column(source.columns().get(i));
            if (f != null && !f.type().equals(source.types().get(i))) {
                return false;
            }
        }
        Scope types = model.scope(-1, Map.of(), source.scope(List.of()));
        return (updateColumns == null
                        || star(updateColumns)
                        || RowLevelOps.assignable(model, updateColumns, updateValues)
                                && updateValues.stream().allMatch(v -> v.type(types) != null))
                && (deleteWhen == null || deleteWhen.typeChecks(types))
                && (notMatchedBySourceDelete == null || notMatchedBySourceDelete.typeChecks(types))
                && (insertColumns == null || star(insertColumns) || insertable(model, types))
                && (model.schema.column(ModelSchema.KEY) != null);
    }

    private boolean insertable(ModelTable model, Scope types) {
        for (int i = 0; i < insertColumns.size(); i++) {
            Field f = model.schema.column(insertColumns.get(i));
            if (f == null
                    || !f.type().equals(insertValues.get(i).type())
                    || insertValues.get(i).type(types) == null) {
                return false;
            }
        }
        return true;
    }

    @Override
    String refusal(ModelTable model) {
        return !deletionVectors && (deleteWhen != null || notMatchedBySourceDelete != null)
                ? "deletion vectors"
                : null;
    }

    @Override
    Effect effect(ModelTable base) {
        Effect effect = new Effect();
        int key = base.schema.key().id();
        Map<Object, Long> targetByMatchKey = new HashMap<>();
        base.rows.forEach(
                (rowId, row) -> targetByMatchKey.put(selfMerge ? rowId : row.get(key), rowId));
        java.util.Set<Long> matched = new java.util.HashSet<>();
        String matchColumn = selfMerge ? "rid" : ModelSchema.KEY;
        for (List<Object> sourceRow : source.rows()) {
            Object matchKey = sourceRow.get(source.columns().indexOf(matchColumn));
            Long rowId = targetByMatchKey.get(matchKey);
            if (rowId != null) {
                matched.add(rowId);
                Scope scope = base.scope(rowId, base.rows.get(rowId), source.scope(sourceRow));
                if (deleteWhen != null && deleteWhen.holds(scope)) {
                    effect.deletes.add(rowId);
                } else if (updateColumns != null) {
                    update(base, effect, rowId, scope, sourceRow);
                }
            } else if (insertColumns != null) {
                effect.inserts.add(
                        new Effect.NewRow(
                                (Long) sourceRow.get(source.columns().indexOf(ModelSchema.KEY)),
                                inserted(base.schema, sourceRow)));
            }
        }
        if (notMatchedBySourceDelete != null) {
            for (long rowId : base.rows.keySet()) {
                if (!matched.contains(rowId) && notMatchedBySourceDelete.holds(base.scope(rowId))) {
                    effect.deletes.add(rowId);
                }
            }
        }
        return effect;
    }

    private void update(
            ModelTable base, Effect effect, long rowId, Scope scope, List<Object> sourceRow) {
        if (star(updateColumns)) {
            for (int i = 0; i < source.columns().size(); i++) {
                Field f = base.schema.column(source.columns().get(i));
                if (f != null && base.schema.assignable().contains(f)) {
                    effect.write(rowId, f.id(), f.type().store(sourceRow.get(i)));
                }
            }
            return;
        }
        for (int i = 0; i < updateColumns.size(); i++) {
            Field f = base.schema.column(updateColumns.get(i));
            effect.write(rowId, f.id(), f.type().store(updateValues.get(i).eval(scope)));
        }
    }

    private Map<Integer, Object> inserted(ModelSchema schema, List<Object> sourceRow) {
        Map<Integer, Object> row = new HashMap<>();
        Scope scope = new ModelTable(schema).scope(-1, Map.of(), source.scope(sourceRow));
        for (Field f : schema.columns()) {
            Object value = null;
            if (star(insertColumns)) {
                int i = source.columns().indexOf(f.name());
                value = i < 0 ? null : sourceRow.get(i);
            } else {
                int i = insertColumns.indexOf(f.name());
                value = i < 0 ? null : insertValues.get(i).eval(scope);
            }
            row.put(f.id(), f.type().store(value));
        }
        return row;
    }
}
