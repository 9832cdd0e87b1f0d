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
package io.dovetail.table.schema;

import io.dovetail.table.error.Errors;
import io.dovetail.table.schema.SchemaChange.AddColumn;
import io.dovetail.table.schema.SchemaChange.DropColumn;
import io.dovetail.table.schema.SchemaChange.MoveColumn;
import io.dovetail.table.schema.SchemaChange.RemoveOption;
import io.dovetail.table.schema.SchemaChange.RenameColumn;
import io.dovetail.table.schema.SchemaChange.SetOption;
import io.dovetail.table.schema.SchemaChange.UpdateColumnComment;
import io.dovetail.table.schema.SchemaChange.UpdateColumnNullability;
import io.dovetail.table.schema.SchemaChange.UpdateColumnType;
import io.dovetail.table.schema.SchemaChange.UpdateComment;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.FieldIds;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Applies schema changes to a schema, giving the next schema version. Rules beyond {@link
 * DataEvolutionTableValidator} (which the result must also pass):
 *
 * <ul>
 *   <li>options in {@link TableOptions#IMMUTABLE} cannot change or be removed, except that {@code
 *       blob-field} may gain or lose names of columns the table does not have; a BYTES column it
 *       names becomes a BLOB column when added; {@code deletion-vectors.enabled} only changes when
 *       {@code deletion-vectors.modifiable} is true;
 *   <li>columns are addressed by {@link NestedFieldPath}s, so every change but a move also applies
 *       to fields nested in ROW, ARRAY and MAP columns;
 *   <li>added columns must be nullable and get fresh ids after {@code highestFieldId} (nested ROW
 *       fields included, in pre-order); ids are never reused and {@code highestFieldId} never
 *       decreases;
 *   <li>partition columns can only be moved or commented: not dropped, renamed, retyped or made
 *       nullable; BLOB columns cannot be renamed; the last column cannot be dropped;
 *   <li>type changes follow {@link TypeChangeRules}; a column can become nullable but never NOT
 *       NULL (files written before the change, and files that do not carry the column, read it as
 *       NULL).
 * </ul>
 */
public final class SchemaEvolution {

    private SchemaEvolution() {}

    /** The schema with id {@code base.id() + 1} that results from applying the changes in order. */
    public static TableSchema apply(TableSchema base, List<SchemaChange> changes, long timeMillis) {
        Draft draft = new Draft(base);
        changes.forEach(draft::apply);
        TableSchema next =
                base.next(
                        draft.fields,
                        draft.highestFieldId,
                        draft.options,
                        draft.comment,
                        timeMillis);
        DataEvolutionTableValidator.validate(next);
        return next;
    }

    /** The mutable state of one evolution step. */
    private static final class Draft {
        private final List<String> partitionKeys;
        private final List<DataField> fields;
        private final Map<String, String> options;
        private int highestFieldId;
        private String comment;

        Draft(TableSchema base) {
            this.partitionKeys = base.partitionKeys();
            this.fields = new ArrayList<>(base.fields());
            this.options = new LinkedHashMap<>(base.options());
            this.highestFieldId = base.highestFieldId();
            this.comment = base.comment();
        }

        void apply(SchemaChange change) {
            if (change instanceof SetOption set) {
                checkOptionChange(set.key(), set.value());
                options.put(set.key(), set.value());
            } else if (change instanceof RemoveOption remove) {
                checkOptionChange(remove.key(), null);
                options.remove(remove.key());
            } else if (change instanceof AddColumn add) {
                addColumn(add);
            } else if (change instanceof DropColumn drop) {
                dropColumn(new NestedFieldPath(drop.path()));
            } else if (change instanceof RenameColumn rename) {
                renameColumn(new NestedFieldPath(rename.path()), rename.newName());
            } else if (change instanceof MoveColumn move) {
                DataField field = fields.get(indexOf(move.name()));
                if (move.position() instanceof ColumnPosition.After after
                        && after.column().equals(move.name())) {
                    throw Errors.invalidArgument(
                            "Cannot move column '" + move.name() + "' after itself.");
                }
                fields.remove(field);
                fields.add(insertionIndex(fields, move.position()), field);
            } else if (change instanceof UpdateColumnType update) {
                updateColumnType(new NestedFieldPath(update.path()), update.newType());
            } else if (change instanceof UpdateColumnNullability update) {
                NestedFieldPath path = new NestedFieldPath(update.path());
                checkNullability(path, path.type(fields), update.nullable());
                edit(path.editType(fields, type -> type.withNullable(update.nullable())));
            } else if (change instanceof UpdateColumnComment update) {
                NestedFieldPath path = new NestedFieldPath(update.path());
                edit(
                        path.editSiblings(
                                fields,
                                (siblings, name) ->
                                        replaced(
                                                siblings,
                                                siblingIndex(siblings, path),
                                                siblings.get(siblingIndex(siblings, path))
                                                        .withDescription(update.comment()))));
            } else if (change instanceof UpdateComment update) {
                comment = update.comment();
            }
        }

        private void checkOptionChange(String key, String newValue) {
            String oldValue = options.get(key);
            if (Objects.equals(oldValue, newValue)) {
                return;
            }
            if (TableOptions.IMMUTABLE.contains(key) && !isBlobFieldAnnouncement(key, newValue)) {
                throw Errors.invalidSchema(
                        "Option '"
                                + key
                                + "' cannot be changed after the table is created (it is "
                                + describe(oldValue)
                                + ", requested "
                                + describe(newValue)
                                + "). Create a new table with the desired value.");
            }
            if (key.equals(TableOptions.DELETION_VECTORS_ENABLED)
                    && "true".equalsIgnoreCase(oldValue) != "true".equalsIgnoreCase(newValue)
                    && !TableOptions.isTrue(options, TableOptions.DELETION_VECTORS_MODIFIABLE)) {
                throw Errors.invalidSchema(
                        "Option 'deletion-vectors.enabled' cannot be changed (it is "
                                + describe(oldValue)
                                + ") unless 'deletion-vectors.modifiable' = 'true'. Decide"
                                + " deletion-vector support when creating the table: turning it"
                                + " off makes deleted rows visible again.");
            }
        }

        /**
         * Whether a change of {@code blob-field} only adds or removes names of columns the table
         * does not have: it announces BLOB columns a later ADD creates, and every existing column
         * keeps its kind.
         */
        private boolean isBlobFieldAnnouncement(String key, String newValue) {
            if (!key.equals(TableOptions.BLOB_FIELD) || newValue == null) {
                return false;
            }
            Set<String> before = TableOptions.names(options, key);
            Set<String> after = TableOptions.names(Map.of(key, newValue), key);
            for (DataField field : fields) {
                if (before.contains(field.name()) != after.contains(field.name())) {
                    return false;
                }
            }
            return true;
        }

        private static String describe(String value) {
            return value == null ? "unset" : "'" + value + "'";
        }

        private void addColumn(AddColumn add) {
            NestedFieldPath path = new NestedFieldPath(add.path());
            DataType type = add.type();
            if (path.isTopLevel()) {
                type = ColumnDeclarations.declared(path.last(), type, options);
            }
            if (!type.nullable()) {
                throw Errors.invalidSchema(
                        "Cannot add column '"
                                + path
                                + "' as "
                                + type.asSqlString()
                                + ": added columns must be nullable, because rows written before"
                                + " the change have no value for them. Drop the NOT NULL.");
            }
            DataField field =
                    FieldIds.assignFresh(
                                    List.of(
                                            new DataField(
                                                    0, path.last(), type, add.description(), null)),
                                    highestFieldId)
                            .get(0);
            edit(
                    path.editSiblings(
                            fields,
                            (siblings, name) -> {
                                if (indexOfOrMinusOne(siblings, name) >= 0) {
                                    throw Errors.invalidSchema(
                                            "Cannot add column '" + path + "': it exists.");
                                }
                                List<DataField> result = new ArrayList<>(siblings);
                                result.add(insertionIndex(siblings, add.position()), field);
                                return result;
                            }));
            highestFieldId = Math.max(highestFieldId, FieldIds.highest(List.of(field)));
        }

        private void dropColumn(NestedFieldPath path) {
            if (path.isTopLevel()) {
                refusePartitionKey(path.last(), "dropped");
            }
            edit(
                    path.editSiblings(
                            fields,
                            (siblings, name) -> {
                                int index = siblingIndex(siblings, path);
                                if (siblings.size() == 1) {
                                    throw Errors.invalidSchema(
                                            "Cannot drop column '"
                                                    + path
                                                    + "': it is the only "
                                                    + (path.isTopLevel()
                                                            ? "column of the table."
                                                            : "field of its ROW."));
                                }
                                List<DataField> result = new ArrayList<>(siblings);
                                result.remove(index);
                                return result;
                            }));
        }

        private void renameColumn(NestedFieldPath path, String newName) {
            edit(
                    path.editSiblings(
                            fields,
                            (siblings, name) -> {
                                int index = siblingIndex(siblings, path);
                                if (name.equals(newName)) {
                                    return siblings;
                                }
                                if (indexOfOrMinusOne(siblings, newName) >= 0) {
                                    throw Errors.invalidSchema(
                                            "Cannot rename column '"
                                                    + path
                                                    + "' to '"
                                                    + newName
                                                    + "': a column with that name exists.");
                                }
                                if (path.isTopLevel()) {
                                    refusePartitionKey(name, "renamed");
                                }
                                DataField field = siblings.get(index);
                                if (DataEvolutionTableValidator.isBlobColumn(field.type())) {
                                    throw Errors.invalidSchema(
                                            "BLOB column '" + path + "' cannot be renamed.");
                                }
                                return replaced(siblings, index, field.withName(newName));
                            }));
        }

        private void updateColumnType(NestedFieldPath path, DataType newType) {
            DataType oldType = path.type(fields);
            if (path.isTopLevel()) {
                refusePartitionKey(path.last(), "given a new type");
            }
            if (!TypeChangeRules.isAllowed(oldType, newType)) {
                throw Errors.invalidSchema(
                        "Cannot change the type of column '"
                                + path
                                + "' from "
                                + oldType.asSqlString()
                                + " to "
                                + newType.asSqlString()
                                + ": old files could not be read as the new type. Add a new"
                                + " column and backfill it instead.");
            }
            checkNullability(path, oldType, newType.nullable());
            edit(path.editType(fields, type -> newType));
        }

        private void checkNullability(NestedFieldPath path, DataType type, boolean nullable) {
            if (type.nullable() && !nullable) {
                throw Errors.invalidSchema(
                        "Cannot make column '"
                                + path
                                + "' NOT NULL: files written before the change, and files that"
                                + " do not carry the column, read it as NULL. Keep it nullable.");
            }
            if (type.nullable() != nullable && path.isTopLevel()) {
                refusePartitionKey(path.last(), "made nullable");
            }
        }

        private void edit(List<DataField> newFields) {
            List<DataField> copy = List.copyOf(newFields); // may be the fields list itself
            fields.clear();
            fields.addAll(copy);
        }

        private static List<DataField> replaced(
                List<DataField> siblings, int index, DataField field) {
            List<DataField> result = new ArrayList<>(siblings);
            result.set(index, field);
            return result;
        }

        private static int siblingIndex(List<DataField> siblings, NestedFieldPath path) {
            int index = indexOfOrMinusOne(siblings, path.last());
            if (index < 0) {
                throw Errors.invalidArgument(
                        "Column '"
                                + path
                                + "' does not exist; the fields there are "
                                + siblings.stream().map(DataField::name).toList()
                                + ".");
            }
            return index;
        }

        private void refusePartitionKey(String name, String action) {
            if (partitionKeys.contains(name)) {
                throw Errors.invalidSchema(
                        "Partition column '"
                                + name
                                + "' cannot be "
                                + action
                                + "; partition columns can only be moved or commented.");
            }
        }

        private static int insertionIndex(List<DataField> siblings, ColumnPosition position) {
            if (position instanceof ColumnPosition.First) {
                return 0;
            }
            if (position instanceof ColumnPosition.After after) {
                int index = indexOfOrMinusOne(siblings, after.column());
                if (index < 0) {
                    throw Errors.invalidArgument(
                            "Column '"
                                    + after.column()
                                    + "' named in AFTER does not exist; the columns there are "
                                    + siblings.stream().map(DataField::name).toList()
                                    + ".");
                }
                return index + 1;
            }
            return siblings.size();
        }

        private int indexOf(String name) {
            int index = indexOfOrMinusOne(fields, name);
            if (index < 0) {
                throw Errors.invalidArgument(
                        "Column '" + name + "' does not exist; the columns are " + names() + ".");
            }
            return index;
        }

        private static int indexOfOrMinusOne(List<DataField> siblings, String name) {
            for (int i = 0; i < siblings.size(); i++) {
                if (siblings.get(i).name().equals(name)) {
                    return i;
                }
            }
            return -1;
        }

        private List<String> names() {
            return fields.stream().map(DataField::name).toList();
        }
    }
}
