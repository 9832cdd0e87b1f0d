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
import io.dovetail.table.types.ArrayType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.MapType;
import io.dovetail.table.types.MultisetType;
import io.dovetail.table.types.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

/**
 * Addresses a column or a field nested in it, Paimon style: a path of names from a top-level column
 * through ROW fields, with {@code element} stepping into an ARRAY or MULTISET and {@code value}
 * into a MAP's values (map keys never change). Rewrites the schema's field tree along the path,
 * leaving everything else, field ids included, as it was.
 */
record NestedFieldPath(List<String> names) {

    static final String ELEMENT = "element";
    static final String VALUE = "value";

    NestedFieldPath {
        names = List.copyOf(names);
        if (names.isEmpty()) {
            throw Errors.invalidArgument("A column path needs at least one name.");
        }
    }

    boolean isTopLevel() {
        return names.size() == 1;
    }

    String last() {
        return names.get(names.size() - 1);
    }

    @Override
    public String toString() {
        return String.join(".", names);
    }

    /**
     * {@code fields} with the list of siblings that holds (or is to hold) the last name replaced by
     * {@code edit(siblings, last name)}.
     */
    List<DataField> editSiblings(
            List<DataField> fields, BiFunction<List<DataField>, String, List<DataField>> edit) {
        return editSiblings(fields, 0, edit);
    }

    /** {@code fields} with the type at this path replaced by {@code edit(type)}. */
    List<DataField> editType(List<DataField> fields, UnaryOperator<DataType> edit) {
        return editTypeAt(fields, 0, edit);
    }

    /** The type at this path; a clear error if the path does not exist. */
    DataType type(List<DataField> fields) {
        DataType[] found = new DataType[1];
        editType(
                fields,
                type -> {
                    found[0] = type;
                    return type;
                });
        return found[0];
    }

    private List<DataField> editSiblings(
            List<DataField> fields,
            int depth,
            BiFunction<List<DataField>, String, List<DataField>> edit) {
        if (depth == names.size() - 1) {
            return edit.apply(fields, names.get(depth));
        }
        int index = indexOf(fields, names.get(depth), depth);
        return replace(
                fields,
                index,
                f ->
                        f.withType(
                                intoContainer(
                                        f.type(),
                                        depth + 1,
                                        (row, rowDepth) ->
                                                new RowType(
                                                        row.nullable(),
                                                        editSiblings(
                                                                row.fields(), rowDepth, edit)))));
    }

    private List<DataField> editTypeAt(
            List<DataField> fields, int depth, UnaryOperator<DataType> edit) {
        int index = indexOf(fields, names.get(depth), depth);
        return replace(fields, index, f -> f.withType(typeAt(f.type(), depth + 1, edit)));
    }

    private DataType typeAt(DataType type, int depth, UnaryOperator<DataType> edit) {
        if (depth == names.size()) {
            return edit.apply(type);
        }
        String step = names.get(depth);
        if (type instanceof RowType row) {
            return new RowType(row.nullable(), editTypeAt(row.fields(), depth, edit));
        }
        if (type instanceof ArrayType array && step.equals(ELEMENT)) {
            return new ArrayType(array.nullable(), typeAt(array.element(), depth + 1, edit));
        }
        if (type instanceof MultisetType multiset && step.equals(ELEMENT)) {
            return new MultisetType(
                    multiset.nullable(), typeAt(multiset.element(), depth + 1, edit));
        }
        if (type instanceof MapType map && step.equals(VALUE)) {
            return new MapType(map.nullable(), map.key(), typeAt(map.value(), depth + 1, edit));
        }
        throw notAContainer(type, depth, step);
    }

    /**
     * Steps from {@code type} (at path position {@code depth}) through ARRAY elements and MAP
     * values to the ROW whose fields hold the next name, and rebuilds the type around {@code
     * editRow(row, position of the name in the path)}.
     */
    private DataType intoContainer(
            DataType type, int depth, BiFunction<RowType, Integer, DataType> editRow) {
        if (type instanceof RowType row) {
            return editRow.apply(row, depth);
        }
        String step = depth < names.size() ? names.get(depth) : "";
        if (depth < names.size() - 1) {
            if (type instanceof ArrayType array && step.equals(ELEMENT)) {
                return new ArrayType(
                        array.nullable(), intoContainer(array.element(), depth + 1, editRow));
            }
            if (type instanceof MultisetType multiset && step.equals(ELEMENT)) {
                return new MultisetType(
                        multiset.nullable(), intoContainer(multiset.element(), depth + 1, editRow));
            }
            if (type instanceof MapType map && step.equals(VALUE)) {
                return new MapType(
                        map.nullable(), map.key(), intoContainer(map.value(), depth + 1, editRow));
            }
        }
        throw notAContainer(type, depth, step);
    }

    private RuntimeException notAContainer(DataType type, int depth, String step) {
        return Errors.invalidArgument(
                "Cannot address '"
                        + this
                        + "': '"
                        + String.join(".", names.subList(0, depth))
                        + "' is "
                        + type.asSqlString()
                        + ", which has no field '"
                        + step
                        + "' (step into ROW fields by name, ARRAY or MULTISET elements with '"
                        + ELEMENT
                        + "', MAP values with '"
                        + VALUE
                        + "').");
    }

    private int indexOf(List<DataField> fields, String name, int depth) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        String where =
                depth == 0 ? "the table" : "'" + String.join(".", names.subList(0, depth)) + "'";
        throw Errors.invalidArgument(
                "Column '"
                        + String.join(".", names.subList(0, depth + 1))
                        + "' does not exist; the fields of "
                        + where
                        + " are "
                        + fields.stream().map(DataField::name).toList()
                        + ".");
    }

    private static List<DataField> replace(
            List<DataField> fields, int index, UnaryOperator<DataField> edit) {
        List<DataField> result = new ArrayList<>(fields);
        result.set(index, edit.apply(fields.get(index)));
        return result;
    }
}
