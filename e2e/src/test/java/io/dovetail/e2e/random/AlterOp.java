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

/**
 * {@code ALTER TABLE}: add a column (first, after another, or last), rename, drop, change a type
 * (widen an integer, an integer into a string, a row's nested fields added, dropped or widened).
 * Field ids as Paimon keeps them: a new column or nested field gets a new id, so a dropped and
 * re-added name reads NULL in old rows; a rename or type change keeps the id.
 */
final class AlterOp extends Op {

    enum Change {
        ADD,
        RENAME,
        DROP,
        MODIFY
    }

    final String table;
    final Change change;
    final String column;

    /** ADD: the new name; RENAME: the new name. */
    final String newName;

    /** ADD, MODIFY: the type (nested fields matched by name; new ones get new ids). */
    final ModelType type;

    /** ADD: FIRST if true, else AFTER {@link #after} if not null, else last. */
    final boolean first;

    final String after;

    AlterOp(
            String table,
            Change change,
            String column,
            String newName,
            ModelType type,
            boolean first,
            String after) {
        this.table = table;
        this.change = change;
        this.column = column;
        this.newName = newName;
        this.type = type;
        this.first = first;
        this.after = after;
    }

    @Override
    String kind() {
        return "alter-" + change.name().toLowerCase();
    }

    @Override
    List<String> statements(ModelTable model) {
        String t = "ALTER TABLE " + Sql.name(table) + " ";
        return List.of(
                switch (change) {
                    case ADD ->
                            t
                                    + "ADD ("
                                    + Sql.name(newName)
                                    + " "
                                    + type.sql()
                                    + (first
                                            ? " FIRST"
                                            : after != null ? " AFTER " + Sql.name(after) : "")
                                    + ")";
                    case RENAME -> t + "RENAME " + Sql.name(column) + " TO " + Sql.name(newName);
                    case DROP -> t + "DROP (" + Sql.name(column) + ")";
                    case MODIFY -> t + "MODIFY (" + Sql.name(column) + " " + type.sql() + ")";
                });
    }

    @Override
    boolean applicable(ModelTable model) {
        ModelSchema schema = model.schema;
        return switch (change) {
            case ADD ->
                    schema.column(newName) == null
                            && (after == null || schema.column(after) != null);
            case RENAME ->
                    schema.assignable().contains(schema.column(column))
                            && schema.column(newName) == null;
            case DROP -> schema.assignable().contains(schema.column(column));
            case MODIFY -> {
                Field f = schema.column(column);
                yield f != null
                        && schema.assignable().contains(f)
                        && (f.type() instanceof ModelType.Scalar from
                                ? type instanceof ModelType.Scalar to && from.widensTo(to)
                                : type instanceof ModelType.RowOf);
            }
        };
    }

    @Override
    void finish(ModelTable model, Probe probe) {
        ModelSchema schema = model.schema;
        int[] highest = {schema.highestFieldId()};
        model.schema =
                switch (change) {
                    case ADD -> {
                        ModelType withIds = withIds(type, null, highest);
                        Field added = new Field(++highest[0], newName, withIds);
                        yield schema.add(added, after, first, highest[0]);
                    }
                    case RENAME -> schema.rename(column, newName);
                    case DROP -> schema.drop(column);
                    case MODIFY ->
                            schema.retype(
                                    column,
                                    withIds(type, schema.column(column).type(), highest),
                                    highest[0]);
                };
    }

    /** {@code type} with field ids: those of {@code current}'s fields by name, new ones above. */
    private static ModelType withIds(ModelType type, ModelType current, int[] highest) {
        if (!(type instanceof ModelType.RowOf row)) {
            return type;
        }
        ModelType.RowOf old = current instanceof ModelType.RowOf r ? r : null;
        List<Field> fields = new ArrayList<>();
        for (Field f : row.fields()) {
            Field existing = old == null ? null : old.field(f.name());
            if (existing != null) {
                fields.add(
                        new Field(
                                existing.id(),
                                f.name(),
                                withIds(f.type(), existing.type(), highest)));
            } else {
                int id = ++highest[0];
                fields.add(new Field(id, f.name(), withIds(f.type(), null, highest)));
            }
        }
        return new ModelType.RowOf(fields);
    }
}
