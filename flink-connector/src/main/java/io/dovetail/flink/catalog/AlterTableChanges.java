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
package io.dovetail.flink.catalog;

import io.dovetail.table.error.Errors;
import io.dovetail.table.schema.ColumnPosition;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.types.ArrayType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.types.MapType;
import io.dovetail.table.types.MultisetType;
import io.dovetail.table.types.RowType;

import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.TableChange;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Translates the {@link TableChange}s of an {@code ALTER TABLE} into Dovetail schema changes. A
 * type change of a ROW column (or of the ROW elements of an ARRAY / values of a MAP) is compared
 * field by field, by name, and becomes nested changes: fields added (after their predecessor),
 * dropped and retyped; nested fields cannot be reordered.
 */
final class AlterTableChanges {

    private AlterTableChanges() {}

    static List<SchemaChange> toSchemaChanges(List<TableChange> changes, List<DataField> current) {
        List<SchemaChange> out = new ArrayList<>();
        for (TableChange change : changes) {
            translate(change, current, out);
        }
        return out;
    }

    private static void translate(
            TableChange change, List<DataField> current, List<SchemaChange> out) {
        if (change instanceof TableChange.SetOption set) {
            out.add(SchemaChange.setOption(set.getKey(), set.getValue()));
        } else if (change instanceof TableChange.ResetOption reset) {
            out.add(SchemaChange.removeOption(reset.getKey()));
        } else if (change instanceof TableChange.AddColumn add) {
            Column column = physical(add.getColumn());
            out.add(
                    SchemaChange.addColumn(
                            column.getName(),
                            type(column),
                            column.getComment().orElse(null),
                            position(add.getPosition())));
        } else if (change instanceof TableChange.DropColumn drop) {
            out.add(SchemaChange.dropColumn(drop.getColumnName()));
        } else if (change instanceof TableChange.ModifyColumn modify) {
            modifyColumn(modify, current, out);
        } else {
            throw Errors.unsupported(
                    "ALTER TABLE change " + change,
                    "Data-evolution tables support column changes and options only");
        }
    }

    /** Renames, type changes, comments and moves, in that order. */
    private static void modifyColumn(
            TableChange.ModifyColumn modify, List<DataField> current, List<SchemaChange> out) {
        Column before = modify.getOldColumn();
        Column after = physical(modify.getNewColumn());
        String name = before.getName();
        if (!after.getName().equals(name)) {
            out.add(SchemaChange.renameColumn(name, after.getName()));
            name = after.getName();
        }
        DataType oldType =
                current.stream()
                        .filter(f -> f.name().equals(before.getName()))
                        .findFirst()
                        .map(DataField::type)
                        .orElseGet(() -> type(before));
        DataType newType = type(after);
        if (!sameIgnoringIds(oldType, newType)) {
            typeChanges(List.of(name), oldType, newType, out);
        }
        if (!Objects.equals(before.getComment(), after.getComment())) {
            out.add(SchemaChange.updateColumnComment(name, after.getComment().orElse(null)));
        }
        if (modify.getNewPosition() != null) {
            out.add(SchemaChange.moveColumn(name, position(modify.getNewPosition())));
        }
    }

    /** The changes turning {@code from} into {@code to} at {@code path}. */
    private static void typeChanges(
            List<String> path, DataType from, DataType to, List<SchemaChange> out) {
        if (from instanceof RowType a && to instanceof RowType b) {
            rowChanges(path, a, b, out);
            if (a.nullable() != b.nullable()) {
                out.add(SchemaChange.updateColumnNullability(path, b.nullable()));
            }
        } else if (from instanceof ArrayType a && to instanceof ArrayType b) {
            typeChanges(append(path, "element"), a.element(), b.element(), out);
            nullability(path, from, to, out);
        } else if (from instanceof MultisetType a && to instanceof MultisetType b) {
            typeChanges(append(path, "element"), a.element(), b.element(), out);
            nullability(path, from, to, out);
        } else if (from instanceof MapType a
                && to instanceof MapType b
                && sameIgnoringIds(a.key(), b.key())) {
            typeChanges(append(path, "value"), a.value(), b.value(), out);
            nullability(path, from, to, out);
        } else if (!sameIgnoringIds(from, to)) {
            out.add(SchemaChange.updateColumnType(path, to));
        }
    }

    private static void rowChanges(
            List<String> path, RowType from, RowType to, List<SchemaChange> out) {
        List<String> kept = new ArrayList<>();
        List<SchemaChange> drops = new ArrayList<>();
        for (DataField old : from.fields()) {
            if (to.field(old.name()).isEmpty()) {
                drops.add(SchemaChange.dropColumn(append(path, old.name())));
            } else {
                kept.add(old.name());
            }
        }
        List<String> order = new ArrayList<>();
        String previous = null;
        for (DataField field : to.fields()) {
            var old = from.field(field.name());
            if (old.isEmpty()) {
                out.add(
                        SchemaChange.addColumn(
                                append(path, field.name()),
                                field.type(),
                                field.description(),
                                previous == null
                                        ? ColumnPosition.first()
                                        : ColumnPosition.after(previous)));
            } else {
                order.add(field.name());
                typeChanges(append(path, field.name()), old.get().type(), field.type(), out);
            }
            previous = field.name();
        }
        out.addAll(drops); // after the additions, so a ROW is never left without fields
        if (!order.equals(kept)) {
            throw Errors.unsupported(
                    "reordering the fields of ROW '" + String.join(".", path) + "'",
                    "Nested fields keep their order; add new fields, drop or retype old ones");
        }
    }

    private static void nullability(
            List<String> path, DataType from, DataType to, List<SchemaChange> out) {
        if (from.nullable() != to.nullable()) {
            out.add(SchemaChange.updateColumnNullability(path, to.nullable()));
        }
    }

    /** Equal apart from field ids (which Flink types do not carry). */
    private static boolean sameIgnoringIds(DataType a, DataType b) {
        return FlinkTypes.toFlink(a).equals(FlinkTypes.toFlink(b));
    }

    private static List<String> append(List<String> path, String name) {
        List<String> longer = new ArrayList<>(path);
        longer.add(name);
        return longer;
    }

    private static Column physical(Column column) {
        if (!column.isPhysical()) {
            throw Errors.unsupported(
                    "computed or metadata column '" + column.getName() + "'",
                    "Data-evolution tables store physical columns only");
        }
        return column;
    }

    private static DataType type(Column column) {
        return FlinkTypes.fromFlink(column.getDataType().getLogicalType());
    }

    private static ColumnPosition position(TableChange.ColumnPosition position) {
        if (position == null) {
            return ColumnPosition.last();
        }
        if (position instanceof TableChange.After after) {
            return ColumnPosition.after(after.column());
        }
        return ColumnPosition.first();
    }
}
