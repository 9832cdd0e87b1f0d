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

import io.dovetail.table.types.DataType;

import java.util.List;
import java.util.Objects;

/**
 * One change of an {@code ALTER TABLE}. Column changes address a column by a path of names: one
 * name for a top-level column, more for a field nested in it (through ROW fields by name, ARRAY
 * elements as {@code element}, MAP values as {@code value}); moves are top-level only. A list of
 * changes is applied in order and committed as one new schema version by {@link
 * SchemaManager#commitChanges}; {@link SchemaEvolution} holds the rules.
 */
public sealed interface SchemaChange {

    static SchemaChange setOption(String key, String value) {
        return new SetOption(key, value);
    }

    static SchemaChange removeOption(String key) {
        return new RemoveOption(key);
    }

    static SchemaChange addColumn(String name, DataType type) {
        return new AddColumn(List.of(name), type, null, ColumnPosition.last());
    }

    static SchemaChange addColumn(
            String name, DataType type, String description, ColumnPosition position) {
        return new AddColumn(List.of(name), type, description, position);
    }

    /** Adds a field to the ROW that {@code path} without its last name addresses. */
    static SchemaChange addColumn(
            List<String> path, DataType type, String description, ColumnPosition position) {
        return new AddColumn(path, type, description, position);
    }

    static SchemaChange dropColumn(String name) {
        return new DropColumn(List.of(name));
    }

    static SchemaChange dropColumn(List<String> path) {
        return new DropColumn(path);
    }

    static SchemaChange renameColumn(String name, String newName) {
        return new RenameColumn(List.of(name), newName);
    }

    static SchemaChange renameColumn(List<String> path, String newName) {
        return new RenameColumn(path, newName);
    }

    static SchemaChange moveColumn(String name, ColumnPosition position) {
        return new MoveColumn(name, position);
    }

    static SchemaChange updateColumnType(String name, DataType newType) {
        return new UpdateColumnType(List.of(name), newType);
    }

    static SchemaChange updateColumnType(List<String> path, DataType newType) {
        return new UpdateColumnType(path, newType);
    }

    static SchemaChange updateColumnNullability(String name, boolean nullable) {
        return new UpdateColumnNullability(List.of(name), nullable);
    }

    static SchemaChange updateColumnNullability(List<String> path, boolean nullable) {
        return new UpdateColumnNullability(path, nullable);
    }

    static SchemaChange updateColumnComment(String name, String comment) {
        return new UpdateColumnComment(List.of(name), comment);
    }

    static SchemaChange updateColumnComment(List<String> path, String comment) {
        return new UpdateColumnComment(path, comment);
    }

    static SchemaChange updateComment(String comment) {
        return new UpdateComment(comment);
    }

    /** Sets a table option (immutable options refused). */
    record SetOption(String key, String value) implements SchemaChange {
        public SetOption {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }

    /** Removes a table option, returning it to its default (immutable options refused). */
    record RemoveOption(String key) implements SchemaChange {
        public RemoveOption {
            Objects.requireNonNull(key, "key");
        }
    }

    /**
     * Adds a nullable column. Field ids inside {@code type} are ignored: the column and its nested
     * ROW fields get fresh ids after the table's {@code highestFieldId}.
     */
    record AddColumn(List<String> path, DataType type, String description, ColumnPosition position)
            implements SchemaChange {
        public AddColumn {
            path = List.copyOf(path);
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(position, "position");
        }
    }

    /** Drops a column; its id is retired, never reused. */
    record DropColumn(List<String> path) implements SchemaChange {
        public DropColumn {
            path = List.copyOf(path);
        }
    }

    /** Renames a column; the field id stays, so old files keep feeding it. */
    record RenameColumn(List<String> path, String newName) implements SchemaChange {
        public RenameColumn {
            path = List.copyOf(path);
            Objects.requireNonNull(newName, "newName");
        }
    }

    /** Moves a column; positions do not matter to old files (mapping is by field id). */
    record MoveColumn(String name, ColumnPosition position) implements SchemaChange {
        public MoveColumn {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(position, "position");
        }
    }

    /**
     * Changes a column's type (see {@link TypeChangeRules}); the new type's nullability is taken as
     * given and checked like {@link UpdateColumnNullability}.
     */
    record UpdateColumnType(List<String> path, DataType newType) implements SchemaChange {
        public UpdateColumnType {
            path = List.copyOf(path);
            Objects.requireNonNull(newType, "newType");
        }
    }

    /** Makes a column nullable (allowed) or NOT NULL (refused). */
    record UpdateColumnNullability(List<String> path, boolean nullable) implements SchemaChange {
        public UpdateColumnNullability {
            path = List.copyOf(path);
        }
    }

    /** Sets (or with null removes) a column's comment. */
    record UpdateColumnComment(List<String> path, String comment) implements SchemaChange {
        public UpdateColumnComment {
            path = List.copyOf(path);
        }
    }

    /** Sets (or with null removes) the table comment. */
    record UpdateComment(String comment) implements SchemaChange {}
}
