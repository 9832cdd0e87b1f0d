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
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Draws the next step of a sequence from a seeded {@link Random}, by weight, for the model as it is
 * now: every name it writes exists, every condition type-checks, every key it inserts is new.
 */
final class Generator {

    private final Random random;
    private final String table;
    private final TableConfig config;
    private long nextKey;
    private int nextName;

    /** The step drawn to follow the last one (an insert after a rollback), or null. */
    private Op following;

    Generator(long seed, String table, TableConfig config) {
        this.random = new Random(seed);
        this.table = table;
        this.config = config;
    }

    // ---- steps ----

    /** The next operation: one that applies to the model as it is now. */
    Op next(ModelTable model) {
        if (following != null) {
            Op op = following;
            following = null;
            if (op.applicable(model)) {
                return op;
            }
        }
        boolean dv = config.deletionVectors();
        while (true) {
            int pick =
                    weighted(
                            14, // 0 insert
                            4, // 1 overwrite
                            16, // 2 update
                            8, // 3 delete
                            10, // 4 merge
                            5, // 5 self-merge
                            8, // 6 alter
                            8, // 7 compact
                            dv ? 5 : 0, // 8 materialize
                            3, // 9 expire
                            5, // 10 rollback
                            4, // 11 time travel
                            4, // 12 streaming insert
                            6, // 13 writes run at once
                            4); // 14 a write whose commit crashes
            Op op =
                    switch (pick) {
                        case 0 -> insert(model, 0);
                        case 1 -> overwrite(model);
                        case 2 -> update(model);
                        case 3 -> delete(model);
                        case 4 -> merge(model, true);
                        case 5 -> selfMerge(model);
                        case 6 -> alter(model);
                        case 7 -> compact(model);
                        case 8 -> new MaintenanceOps.Materialize(table);
                        case 9 -> new MaintenanceOps.Expire(table, 1 + random.nextInt(5));
                        case 10 -> rollback(model);
                        case 11 -> timeTravel(model);
                        case 12 -> insert(model, 1);
                        case 13 -> atOnce(model);
                        default -> crashing(model);
                    };
            if (op != null && op.applicable(model)) {
                if (op instanceof MaintenanceOps.Rollback) {
                    // the row ids it hands out must lie above every one handed out before
                    following = insert(model, random.nextInt(3) == 0 ? 1 : 0);
                }
                return op;
            }
        }
    }

    private int weighted(int... weights) {
        int total = 0;
        for (int w : weights) {
            total += w;
        }
        int r = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            r -= weights[i];
            if (r < 0) {
                return i;
            }
        }
        throw new IllegalStateException();
    }

    private <T> T pick(List<T> items) {
        return items.isEmpty() ? null : items.get(random.nextInt(items.size()));
    }

    private String newName(String prefix) {
        return prefix + (nextName++);
    }

    // ---- writes ----

    private Op insert(ModelTable model, int streaming) {
        int n;
        if (streaming > 0) {
            n = 200 + random.nextInt(1300);
        } else {
            int size = random.nextInt(10);
            n =
                    size < 6
                            ? 1 + random.nextInt(20)
                            : size < 9 ? 20 + random.nextInt(480) : 500 + random.nextInt(4500);
        }
        long kStart = nextKey;
        nextKey += n;
        return new InsertOps.Insert(
                table,
                kStart,
                n,
                new Generated(random.nextInt(1000)),
                streaming > 0 ? Math.max(100, n / 2) : 0);
    }

    private Op overwrite(ModelTable model) {
        int n = 1 + random.nextInt(random.nextBoolean() ? 20 : 600);
        long kStart = nextKey;
        nextKey += n;
        String partition =
                config.partitioned() && random.nextInt(3) > 0
                        ? Generated.PARTITIONS.get(random.nextInt(3))
                        : null;
        return new InsertOps.Overwrite(
                table,
                kStart,
                n,
                new Generated(random.nextInt(1000)),
                partition,
                partition != null && random.nextInt(5) == 0);
    }

    /**
     * An UPDATE of one or two scalar columns: Flink's planner fails on a {@code ROW(...)} value in
     * an UPDATE's SET ("while converting ROW(...)"), so row columns are assigned by merges only.
     */
    private Op update(ModelTable model) {
        List<Field> targets = new ArrayList<>(scalarAssignable(model));
        if (targets.isEmpty()) {
            return null;
        }
        Collections.shuffle(targets, random);
        return update(model, targets.subList(0, 1 + random.nextInt(Math.min(2, targets.size()))));
    }

    /** An UPDATE of the columns {@code assigned}. */
    private Op update(ModelTable model, List<Field> assigned) {
        List<String> columns = new ArrayList<>();
        List<Expr.Cast> values = new ArrayList<>();
        for (Field f : assigned) {
            columns.add(f.name());
            values.add(value(model, f.type(), null));
        }
        Pred where = random.nextInt(8) == 0 ? null : condition(model, null, 2);
        return new RowLevelOps.Update(table, columns, values, where);
    }

    /**
     * Two writes run at once: a streaming INSERT beside a merge or a compaction; UPDATEs of the
     * same columns or of any; or (with deletion vectors) an UPDATE and a DELETE.
     */
    private Op atOnce(ModelTable model) {
        if (random.nextInt(3) == 0) {
            Op streaming = insert(model, 1);
            Op beside = random.nextBoolean() ? compact(model) : merge(model, false);
            // the procedure last: its CALL returns once it ends, the insert is running by then
            return beside == null ? null : new ConcurrentWrites(List.of(streaming, beside));
        }
        Op first = update(model);
        if (first == null) {
            return null;
        }
        Op second;
        int pick = random.nextInt(config.deletionVectors() ? 3 : 2);
        if (pick == 0) {
            List<Field> same = new ArrayList<>();
            for (String column : ((RowLevelOps.Update) first).columns) {
                same.add(model.schema.column(column));
            }
            second = update(model, same);
        } else if (pick == 1) {
            second = update(model);
        } else {
            second = delete(model);
        }
        return new ConcurrentWrites(List.of(first, second));
    }

    /** An INSERT, UPDATE or merge whose commit crashes before or after publishing. */
    private Op crashing(ModelTable model) {
        Op write =
                switch (random.nextInt(3)) {
                    case 0 -> insert(model, 0);
                    case 1 -> update(model);
                    default -> merge(model, true);
                };
        return write == null ? null : new CrashedWrite(write, random.nextBoolean());
    }

    private Op delete(ModelTable model) {
        Pred where;
        if (config.partitioned() && random.nextInt(4) == 0) {
            where =
                    new Pred.Cmp(
                            Expr.Ref.of(null, ModelSchema.PARTITION),
                            "=",
                            new Expr.Lit(
                                    ModelType.Scalar.STRING,
                                    Generated.PARTITIONS.get(random.nextInt(3))));
        } else {
            where = random.nextInt(15) == 0 ? null : condition(model, null, 2, false);
        }
        return new RowLevelOps.Delete(table, where, config.deletionVectors());
    }

    /**
     * A merge on {@code k}; with {@code unmatchedTargets} it may delete target rows no source row
     * matches (not beside a streaming insert: which of its rows the merge sees is a race).
     */
    private Op merge(ModelTable model, boolean unmatchedTargets) {
        boolean dv = config.deletionVectors();
        List<Field> sourceFields = new ArrayList<>(scalarAssignable(model));
        Collections.shuffle(sourceFields, random);
        sourceFields =
                sourceFields.subList(0, Math.min(sourceFields.size(), 1 + random.nextInt(3)));
        List<String> columns = new ArrayList<>();
        List<ModelType> types = new ArrayList<>();
        columns.add(ModelSchema.KEY);
        types.add(ModelType.Scalar.BIGINT);
        for (Field f : sourceFields) {
            columns.add(f.name());
            types.add(f.type());
        }
        boolean deletes = dv && random.nextInt(3) == 0;
        if (deletes) {
            columns.add("op");
            types.add(ModelType.Scalar.STRING);
        }
        boolean inserts = random.nextInt(3) > 0;
        if (inserts && config.partitioned()) {
            columns.add(ModelSchema.PARTITION);
            types.add(ModelType.Scalar.STRING);
        }
        List<Long> keys = new ArrayList<>();
        List<Long> live = new ArrayList<>(model.rows.keySet());
        Collections.shuffle(live, random);
        int matched = Math.min(live.size(), random.nextInt(25));
        int keyId = model.schema.key().id();
        for (int i = 0; i < matched; i++) {
            keys.add((Long) model.rows.get(live.get(i)).get(keyId));
        }
        int fresh = inserts ? random.nextInt(12) : random.nextInt(3);
        for (int i = 0; i < fresh; i++) {
            keys.add(nextKey++);
        }
        if (keys.isEmpty()) {
            keys.add(nextKey++);
        }
        List<List<Object>> rows = new ArrayList<>();
        for (long k : keys) {
            List<Object> row = new ArrayList<>();
            row.add(k);
            for (Field f : sourceFields) {
                row.add(literal((ModelType.Scalar) f.type()));
            }
            if (deletes) {
                row.add(random.nextInt(3) == 0 ? "D" : "U");
            }
            if (inserts && config.partitioned()) {
                row.add(Generated.PARTITIONS.get(random.nextInt(4)));
            }
            rows.add(row);
        }
        MergeOp.Source source = new MergeOp.Source(columns, types, rows);
        List<String> updateColumns = null;
        List<Expr.Cast> updateValues = null;
        if (!sourceFields.isEmpty() && (random.nextInt(4) > 0 || !inserts && !deletes)) {
            if (random.nextInt(4) == 0) {
                updateColumns = List.of("*");
            } else {
                updateColumns = new ArrayList<>();
                updateValues = new ArrayList<>();
                for (Field f : sourceFields.subList(0, 1 + random.nextInt(sourceFields.size()))) {
                    updateColumns.add(f.name());
                    updateValues.add(
                            random.nextBoolean()
                                    ? new Expr.Cast(f.type(), Expr.Ref.of("s", f.name()))
                                    : value(model, f.type(), "t"));
                }
            }
        }
        Pred deleteWhen =
                deletes
                        ? new Pred.Cmp(
                                Expr.Ref.of("s", "op"),
                                "=",
                                new Expr.Lit(ModelType.Scalar.STRING, "D"))
                        : null;
        List<String> insertColumns = null;
        List<Expr.Cast> insertValues = null;
        if (inserts) {
            if (random.nextBoolean()) {
                insertColumns = List.of("*");
            } else {
                insertColumns = new ArrayList<>();
                insertValues = new ArrayList<>();
                for (String c : columns) {
                    if (!c.equals("op")
                            && (random.nextInt(3) > 0
                                    || c.equals(ModelSchema.KEY)
                                    || c.equals(ModelSchema.PARTITION))) {
                        insertColumns.add(c);
                        insertValues.add(
                                new Expr.Cast(types.get(columns.indexOf(c)), Expr.Ref.of("s", c)));
                    }
                }
            }
        }
        Pred notMatchedBySource = null;
        if (dv && unmatchedTargets && random.nextInt(4) == 0) {
            notMatchedBySource = condition(model, "t", 1);
        }
        if (updateColumns == null
                && deleteWhen == null
                && insertColumns == null
                && notMatchedBySource == null) {
            return null;
        }
        return new MergeOp(
                table,
                source,
                false,
                updateColumns,
                updateValues,
                deleteWhen,
                insertColumns,
                insertValues,
                notMatchedBySource,
                false,
                dv);
    }

    private Op selfMerge(ModelTable model) {
        List<Field> fields = new ArrayList<>(scalarAssignable(model));
        if (fields.isEmpty() || model.rows.isEmpty()) {
            return null;
        }
        Collections.shuffle(fields, random);
        fields = fields.subList(0, Math.min(fields.size(), 1 + random.nextInt(2)));
        List<String> columns = new ArrayList<>(List.of("rid"));
        List<ModelType> types = new ArrayList<>(List.of(ModelType.Scalar.BIGINT));
        for (Field f : fields) {
            columns.add(f.name());
            types.add(f.type());
        }
        List<Long> live = new ArrayList<>(model.rows.keySet());
        Collections.shuffle(live, random);
        List<Long> ids =
                new ArrayList<>(live.subList(0, Math.min(live.size(), 1 + random.nextInt(40))));
        boolean skipStale = random.nextInt(3) == 0;
        if (skipStale) {
            ids.add(model.nextRowId + random.nextInt(5));
        }
        List<List<Object>> rows = new ArrayList<>();
        for (long id : ids) {
            List<Object> row = new ArrayList<>();
            row.add(id);
            for (Field f : fields) {
                row.add(literal((ModelType.Scalar) f.type()));
            }
            rows.add(row);
        }
        List<String> updateColumns = new ArrayList<>();
        List<Expr.Cast> updateValues = new ArrayList<>();
        for (Field f : fields) {
            updateColumns.add(f.name());
            updateValues.add(new Expr.Cast(f.type(), Expr.Ref.of("s", f.name())));
        }
        return new MergeOp(
                table,
                new MergeOp.Source(columns, types, rows),
                true,
                updateColumns,
                updateValues,
                null,
                null,
                null,
                null,
                skipStale,
                config.deletionVectors());
    }

    // ---- schema ----

    private Op alter(ModelTable model) {
        List<Field> assignable = model.schema.assignable();
        switch (random.nextInt(assignable.isEmpty() ? 1 : 5)) {
            case 0 -> {
                ModelType type =
                        random.nextInt(8) == 0
                                ? new ModelType.RowOf(
                                        List.of(
                                                new Field(-1, "x", ModelType.Scalar.INT),
                                                new Field(-1, "y", ModelType.Scalar.STRING)))
                                : ModelType.Scalar.values()[random.nextInt(4)];
                int position = random.nextInt(3);
                return new AlterOp(
                        table,
                        AlterOp.Change.ADD,
                        null,
                        newName("c"),
                        type,
                        position == 0,
                        position == 1 ? pick(model.schema.columns()).name() : null);
            }
            case 1 -> {
                return new AlterOp(
                        table,
                        AlterOp.Change.RENAME,
                        pick(assignable).name(),
                        newName("r"),
                        null,
                        false,
                        null);
            }
            case 2 -> {
                return new AlterOp(
                        table,
                        AlterOp.Change.DROP,
                        pick(assignable).name(),
                        null,
                        null,
                        false,
                        null);
            }
            default -> {
                Field f = pick(assignable);
                ModelType type = modified(f.type());
                return type == null
                        ? null
                        : new AlterOp(
                                table, AlterOp.Change.MODIFY, f.name(), null, type, false, null);
            }
        }
    }

    /** A type {@code type} may change into: wider integers, strings, nested fields changed. */
    private ModelType modified(ModelType type) {
        if (type instanceof ModelType.Scalar scalar) {
            List<ModelType.Scalar> wider = new ArrayList<>();
            for (ModelType.Scalar to : ModelType.Scalar.values()) {
                if (scalar.widensTo(to)) {
                    wider.add(to);
                }
            }
            return pick(wider);
        }
        List<Field> fields = new ArrayList<>(((ModelType.RowOf) type).fields());
        int change = random.nextInt(3);
        if (change == 0 || fields.size() < 2) {
            fields.add(
                    new Field(
                            -1,
                            newName("n"),
                            random.nextBoolean() ? ModelType.Scalar.INT : ModelType.Scalar.STRING));
        } else if (change == 1) {
            fields.remove(random.nextInt(fields.size()));
        } else {
            int i = random.nextInt(fields.size());
            ModelType widened = modified(fields.get(i).type());
            if (widened == null) {
                return null;
            }
            fields.set(i, fields.get(i).retyped(widened));
        }
        return new ModelType.RowOf(fields);
    }

    // ---- maintenance ----

    private Op compact(ModelTable model) {
        String options =
                "compaction.min.file-num="
                        + (2 + random.nextInt(2))
                        + (random.nextBoolean()
                                ? ""
                                : ",target-file-size=" + (random.nextBoolean() ? "4 kb" : "4 mb"));
        String partition =
                config.partitioned() && random.nextInt(3) == 0
                        ? Generated.PARTITIONS.get(random.nextInt(3))
                        : null;
        return new MaintenanceOps.Compact(table, options, partition, random.nextBoolean());
    }

    private Op rollback(ModelTable model) {
        if (model.history.size() < 2) {
            return null;
        }
        List<Long> older = new ArrayList<>(model.history.headMap(model.history.lastKey()).keySet());
        return new MaintenanceOps.Rollback(table, pick(older));
    }

    private Op timeTravel(ModelTable model) {
        List<Long> ids = new ArrayList<>(model.history.keySet());
        return ids.isEmpty() ? null : new MaintenanceOps.TimeTravel(table, pick(ids));
    }

    // ---- expressions ----

    /** Scalar columns an UPDATE may assign. */
    private static List<Field> scalarAssignable(ModelTable model) {
        return model.schema.assignable().stream()
                .filter(f -> f.type() instanceof ModelType.Scalar)
                .toList();
    }

    /** A literal of {@code type}'s domain, NULL now and then. */
    private Object literal(ModelType.Scalar type) {
        if (random.nextInt(8) == 0) {
            return null;
        }
        return type == ModelType.Scalar.STRING
                ? "v" + random.nextInt(22)
                : (Object) (long) random.nextInt(104);
    }

    /** A value for a column of {@code type}, over the target's columns under {@code alias}. */
    Expr.Cast value(ModelTable model, ModelType type, String alias) {
        if (type instanceof ModelType.RowOf row) {
            List<Expr> fields = new ArrayList<>();
            for (Field f : row.fields()) {
                fields.add(value(model, f.type(), alias));
            }
            return new Expr.Cast(row, new Expr.RowValue(row, fields));
        }
        ModelType.Scalar scalar = (ModelType.Scalar) type;
        List<Expr.Ref> same = refs(model, alias, scalar == ModelType.Scalar.STRING);
        List<Expr.Ref> integers = refs(model, alias, false);
        Expr.Ref ref = pick(same);
        Expr e =
                switch (ref == null ? 0 : random.nextInt(5)) {
                    case 0 -> new Expr.Lit(scalar, literal(scalar));
                    case 1 -> ref;
                    case 2 ->
                            scalar == ModelType.Scalar.STRING
                                    ? new Expr.Concat("u", ref)
                                    : new Expr.Plus(ref, 1 + random.nextInt(5));
                    case 3 -> new Expr.Coalesce(ref, new Expr.Lit(scalar, literal(scalar)));
                    default ->
                            scalar == ModelType.Scalar.STRING && !integers.isEmpty()
                                    ? new Expr.Cast(ModelType.Scalar.STRING, pick(integers))
                                    : new Expr.Lit(scalar, literal(scalar));
                };
        return new Expr.Cast(scalar, e);
    }

    /** References to the scalar columns (and nested scalar fields) of one kind. */
    private static List<Expr.Ref> refs(ModelTable model, String alias, boolean strings) {
        return refs(model, alias, strings, true);
    }

    private static List<Expr.Ref> refs(
            ModelTable model, String alias, boolean strings, boolean nestedFields) {
        List<Expr.Ref> out = new ArrayList<>();
        for (Field f : model.schema.columns()) {
            if (f.type() instanceof ModelType.Scalar s) {
                if ((s == ModelType.Scalar.STRING) == strings) {
                    out.add(Expr.Ref.of(alias, f.name()));
                }
            } else if (nestedFields) {
                for (Field nested : ((ModelType.RowOf) f.type()).fields()) {
                    if (nested.type() instanceof ModelType.Scalar s
                            && (s == ModelType.Scalar.STRING) == strings) {
                        out.add(Expr.Ref.of(alias, f.name(), nested.name()));
                    }
                }
            }
        }
        return out;
    }

    /** A random condition over the target (under {@code alias}), nested up to {@code depth}. */
    Pred condition(ModelTable model, String alias, int depth) {
        return condition(model, alias, depth, true);
    }

    /**
     * A random condition; without nested field references if {@code nestedFields} is false (a
     * DELETE's WHERE: Flink 2.3's planner fails on one, a scala.MatchError in
     * RexNodeToExpressionConverter.visitFieldAccess from DeletePushDownUtils).
     */
    private Pred condition(ModelTable model, String alias, int depth, boolean nestedFields) {
        int kind = random.nextInt(depth > 0 ? 9 : 6);
        switch (kind) {
            case 0, 1 -> {
                boolean strings = random.nextBoolean();
                Expr.Ref ref = pick(refs(model, alias, strings, nestedFields));
                if (ref == null) {
                    ref = pick(refs(model, alias, !strings, nestedFields));
                    strings = !strings;
                }
                ModelType.Scalar type = strings ? ModelType.Scalar.STRING : ModelType.Scalar.BIGINT;
                String op = new String[] {"=", "<>", "<", "<=", ">", ">="}[random.nextInt(6)];
                Object literal = literal(type);
                return new Pred.Cmp(
                        ref,
                        op,
                        new Expr.Lit(
                                type, literal == null ? (strings ? "v5" : (Object) 50L) : literal));
            }
            case 2 -> {
                Expr.Ref ref = pick(refs(model, alias, random.nextBoolean(), nestedFields));
                if (ref == null || random.nextInt(4) == 0) {
                    Field f = pick(model.schema.columns());
                    ref = Expr.Ref.of(alias, f.name());
                }
                return new Pred.IsNull(ref, random.nextBoolean());
            }
            case 3 -> {
                long hi = Math.max(1, model.nextRowId);
                long a = random.nextLong(hi + 5);
                long b = a + random.nextLong(Math.max(1, hi / 2));
                return new Pred.Between(
                        Expr.Ref.of(alias, Scope.ROW_ID),
                        new Expr.Lit(ModelType.Scalar.BIGINT, a),
                        new Expr.Lit(ModelType.Scalar.BIGINT, b));
            }
            case 4 -> {
                Expr.Ref ref = pick(refs(model, alias, false, nestedFields));
                if (ref == null) {
                    return new Pred.IsNull(Expr.Ref.of(alias, ModelSchema.KEY), true);
                }
                List<Expr> values = new ArrayList<>();
                for (int i = 0; i < 1 + random.nextInt(4); i++) {
                    values.add(new Expr.Lit(ModelType.Scalar.BIGINT, (long) random.nextInt(100)));
                }
                return new Pred.In(ref, values);
            }
            case 5 -> {
                if (config.partitioned() && model.schema.partition() != null) {
                    return new Pred.Cmp(
                            Expr.Ref.of(alias, ModelSchema.PARTITION),
                            random.nextBoolean() ? "=" : "<>",
                            new Expr.Lit(
                                    ModelType.Scalar.STRING,
                                    Generated.PARTITIONS.get(random.nextInt(3))));
                }
                return new Pred.Cmp(
                        Expr.Ref.of(alias, Scope.ROW_ID),
                        random.nextBoolean() ? "<" : ">=",
                        new Expr.Lit(
                                ModelType.Scalar.BIGINT,
                                random.nextLong(Math.max(1, model.nextRowId))));
            }
            case 6 -> {
                return new Pred.And(
                        List.of(
                                condition(model, alias, depth - 1, nestedFields),
                                condition(model, alias, depth - 1, nestedFields)));
            }
            case 7 -> {
                return new Pred.Or(
                        List.of(
                                condition(model, alias, depth - 1, nestedFields),
                                condition(model, alias, depth - 1, nestedFields)));
            }
            default -> {
                return new Pred.Not(condition(model, alias, depth - 1, nestedFields));
            }
        }
    }

    /** A random projection of the current columns (nested fields too), for a checking query. */
    List<Expr> projection(ModelTable model) {
        List<Expr> out = new ArrayList<>();
        for (Field f : model.schema.columns()) {
            if (random.nextInt(3) == 0) {
                out.add(Expr.Ref.of(null, f.name()));
            } else if (f.type() instanceof ModelType.RowOf row && random.nextInt(3) == 0) {
                out.add(Expr.Ref.of(null, f.name(), pick(row.fields()).name()));
            }
        }
        if (out.isEmpty()) {
            out.add(Expr.Ref.of(null, ModelSchema.KEY));
        }
        Collections.shuffle(out, random);
        return out;
    }
}
