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

/** {@code UPDATE} and {@code DELETE FROM}, row-level writes on the snapshot they read. */
final class RowLevelOps {

    private RowLevelOps() {}

    /** {@code UPDATE t SET c = CAST(expr AS type), ... [WHERE condition]}. */
    static final class Update extends Op {
        final String table;
        final List<String> columns;
        final List<Expr.Cast> values;
        final Pred where;

        Update(String table, List<String> columns, List<Expr.Cast> values, Pred where) {
            this.table = table;
            this.columns = List.copyOf(columns);
            this.values = List.copyOf(values);
            this.where = where;
        }

        @Override
        String kind() {
            return "update";
        }

        @Override
        List<String> statements(ModelTable model) {
            List<String> sets = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                sets.add(Sql.name(columns.get(i)) + " = " + values.get(i).sql());
            }
            return List.of(
                    "UPDATE "
                            + Sql.name(table)
                            + " SET "
                            + String.join(", ", sets)
                            + (where == null ? "" : " WHERE " + where.sql()));
        }

        @Override
        boolean applicable(ModelTable model) {
            return assignable(model, columns, values)
                    && (where == null || where.typeChecks(model.types()));
        }

        @Override
        Effect effect(ModelTable base) {
            Effect effect = new Effect();
            for (long rowId : base.rows.keySet()) {
                Scope scope = base.scope(rowId);
                if (where == null || where.holds(scope)) {
                    for (int i = 0; i < columns.size(); i++) {
                        Field f = base.schema.column(columns.get(i));
                        effect.write(rowId, f.id(), f.type().store(values.get(i).eval(scope)));
                    }
                }
            }
            return effect;
        }
    }

    /** Whether {@code columns} can take {@code values}: assignable columns of those very types. */
    static boolean assignable(ModelTable model, List<String> columns, List<Expr.Cast> values) {
        for (int i = 0; i < columns.size(); i++) {
            Field f = model.schema.column(columns.get(i));
            if (f == null
                    || !model.schema.assignable().contains(f)
                    || !f.type().equals(values.get(i).type())
                    || values.get(i).type(model.types()) == null) {
                return false;
            }
        }
        return true;
    }

    /** {@code DELETE FROM t [WHERE condition]}. */
    static final class Delete extends Op {
        final String table;
        final Pred where;
        final boolean deletionVectors;

        Delete(String table, Pred where, boolean deletionVectors) {
            this.table = table;
            this.where = where;
            this.deletionVectors = deletionVectors;
        }

        @Override
        String kind() {
            return partitionDrop() ? "delete-partition" : "delete";
        }

        @Override
        List<String> statements(ModelTable model) {
            return List.of(
                    "DELETE FROM "
                            + Sql.name(table)
                            + (where == null ? "" : " WHERE " + where.sql()));
        }

        @Override
        boolean applicable(ModelTable model) {
            return where == null || where.typeChecks(model.types());
        }

        /**
         * Docs (writes.md): a WHERE of only {@code partition = literal} drops partitions, with or
         * without deletion vectors; every other DELETE needs deletion vectors.
         */
        @Override
        String refusal(ModelTable model) {
            return deletionVectors || partitionDrop() ? null : "deletion vectors";
        }

        private boolean partitionDrop() {
            return where instanceof Pred.Cmp cmp
                    && cmp.op().equals("=")
                    && cmp.left() instanceof Expr.Ref ref
                    && ref.path().equals(List.of(ModelSchema.PARTITION))
                    && cmp.right() instanceof Expr.Lit lit
                    && lit.value() != null;
        }

        @Override
        Effect effect(ModelTable base) {
            Effect effect = new Effect();
            for (Map.Entry<Long, Map<Integer, Object>> row : base.rows.entrySet()) {
                if (where == null || where.holds(base.scope(row.getKey()))) {
                    effect.deletes.add(row.getKey());
                }
            }
            return effect;
        }
    }
}
