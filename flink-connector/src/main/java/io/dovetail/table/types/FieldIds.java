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
package io.dovetail.table.types;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Field id rules. Ids are unique across the whole type tree of a table, never reused, and handed
 * out by one counter in depth-first pre-order: a column gets the next id, then every ROW field
 * inside its type (through ARRAY, MAP and MULTISET members, which get no ids themselves; a VECTOR
 * holds only numbers) gets the next id before the walk descends into that field's type. Ids from
 * {@link #SYSTEM_FIELD_ID_START} up are reserved for system fields such as {@code _ROW_ID} and do
 * not count towards a schema's {@code highestFieldId}.
 */
public final class FieldIds {

    /** First id of the reserved system range (1073741823). */
    public static final int SYSTEM_FIELD_ID_START = Integer.MAX_VALUE / 2;

    /** Base of the synthetic ids of ARRAY elements and MAP keys/values: {@code (2^31 - 1) / 4}. */
    private static final int MEMBER_ID_BASE = Integer.MAX_VALUE / 4;

    private static final int MEMBER_ID_STRIDE = 1024;

    private FieldIds() {}

    /**
     * The synthetic id data files give the element of ARRAY field {@code fieldId} at nesting {@code
     * depth} (1 = a top-level column), as Paimon writes it in Parquet and ORC files.
     */
    public static int listElementId(int fieldId, int depth) {
        return MEMBER_ID_BASE + fieldId * MEMBER_ID_STRIDE + depth;
    }

    /** The synthetic id of the key of MAP / MULTISET field {@code fieldId} at {@code depth}. */
    public static int mapKeyId(int fieldId, int depth) {
        return MEMBER_ID_BASE - fieldId * MEMBER_ID_STRIDE - depth;
    }

    /** The synthetic id of the value of MAP / MULTISET field {@code fieldId} at {@code depth}. */
    public static int mapValueId(int fieldId, int depth) {
        return MEMBER_ID_BASE + fieldId * MEMBER_ID_STRIDE + depth;
    }

    /** The largest non-system id in the tree, or -1 when there is none. */
    public static int highest(List<DataField> fields) {
        int[] max = {-1};
        forEachField(
                fields,
                f -> {
                    if (f.id() < SYSTEM_FIELD_ID_START) {
                        max[0] = Math.max(max[0], f.id());
                    }
                });
        return max[0];
    }

    /** All ids of the tree in pre-order. */
    public static List<Integer> all(List<DataField> fields) {
        List<Integer> ids = new ArrayList<>();
        forEachField(fields, f -> ids.add(f.id()));
        return ids;
    }

    /** Visits every field of the tree (nested ROW fields included) in pre-order. */
    public static void forEachField(List<DataField> fields, Consumer<DataField> visitor) {
        for (DataField field : fields) {
            visitor.accept(field);
            forEachNestedField(field.type(), visitor);
        }
    }

    private static void forEachNestedField(DataType type, Consumer<DataField> visitor) {
        if (type instanceof RowType row) {
            forEachField(row.fields(), visitor);
        } else if (type instanceof ArrayType array) {
            forEachNestedField(array.element(), visitor);
        } else if (type instanceof MultisetType multiset) {
            forEachNestedField(multiset.element(), visitor);
        } else if (type instanceof MapType map) {
            forEachNestedField(map.key(), visitor);
            forEachNestedField(map.value(), visitor);
        }
    }

    /**
     * Gives the fields (and all nested ROW fields) fresh ids in pre-order, the first being {@code
     * lastAssigned + 1}. Table creation passes -1; adding a column passes the table's {@code
     * highestFieldId}. Whatever ids the input carried are discarded.
     */
    public static List<DataField> assignFresh(List<DataField> fields, int lastAssigned) {
        return new Counter(lastAssigned).fields(fields);
    }

    private static final class Counter {
        private int last;

        Counter(int last) {
            this.last = last;
        }

        List<DataField> fields(List<DataField> fields) {
            List<DataField> result = new ArrayList<>(fields.size());
            for (DataField field : fields) {
                int id = ++last;
                result.add(field.withId(id).withType(type(field.type())));
            }
            return result;
        }

        DataType type(DataType type) {
            if (type instanceof RowType row) {
                return new RowType(row.nullable(), fields(row.fields()));
            } else if (type instanceof ArrayType array) {
                return new ArrayType(array.nullable(), type(array.element()));
            } else if (type instanceof MultisetType multiset) {
                return new MultisetType(multiset.nullable(), type(multiset.element()));
            } else if (type instanceof MapType map) {
                DataType key = type(map.key());
                return new MapType(map.nullable(), key, type(map.value()));
            }
            return type;
        }
    }
}
