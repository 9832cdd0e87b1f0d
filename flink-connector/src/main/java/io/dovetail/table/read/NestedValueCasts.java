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
package io.dovetail.table.read;

import io.dovetail.table.error.Errors;
import io.dovetail.table.types.ArrayType;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.types.MapType;
import io.dovetail.table.types.MultisetType;
import io.dovetail.table.types.RowType;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Converts a value stored under an older type into the read type, at any depth: ROW fields are
 * matched by field id (renamed fields keep their value, fields added later read NULL, dropped
 * fields are skipped, reordered fields move), ARRAY elements and MAP keys and values are converted
 * one by one, and leaves go through {@link ValueCasts}. Values use Flink's internal data
 * structures; nested results are the generic ones ({@link GenericRowData} and friends).
 */
final class NestedValueCasts {

    private NestedValueCasts() {}

    /** Whether values of {@code stored} already are values of {@code target}. */
    static boolean sameLayout(DataType stored, DataType target) {
        if (stored instanceof AtomicType x && target instanceof AtomicType y) {
            return x.withNullable(true).equals(y.withNullable(true));
        }
        if (stored instanceof RowType x && target instanceof RowType y) {
            List<DataField> f = x.fields();
            List<DataField> g = y.fields();
            if (f.size() != g.size()) {
                return false;
            }
            for (int i = 0; i < f.size(); i++) {
                if (f.get(i).id() != g.get(i).id()
                        || !sameLayout(f.get(i).type(), g.get(i).type())) {
                    return false;
                }
            }
            return true;
        }
        if (stored instanceof ArrayType x && target instanceof ArrayType y) {
            return sameLayout(x.element(), y.element());
        }
        if (stored instanceof MultisetType x && target instanceof MultisetType y) {
            return sameLayout(x.element(), y.element());
        }
        if (stored instanceof MapType x && target instanceof MapType y) {
            return sameLayout(x.key(), y.key()) && sameLayout(x.value(), y.value());
        }
        return false;
    }

    /** The conversion of non-null values of {@code stored} into {@code target}. */
    static Function<Object, Object> of(DataType stored, DataType target, String column) {
        if (sameLayout(stored, target)) {
            return v -> v;
        }
        if (stored instanceof AtomicType from && target instanceof AtomicType to) {
            return ValueCasts.of(from, to, column);
        }
        if (stored instanceof RowType from && target instanceof RowType to) {
            return row(from, to, column);
        }
        if (stored instanceof ArrayType from && target instanceof ArrayType to) {
            return array(from.element(), to.element(), column);
        }
        if (stored instanceof MultisetType from && target instanceof MultisetType to) {
            return map(from.element(), to.element(), null, null, column);
        }
        if (stored instanceof MapType from && target instanceof MapType to) {
            return map(from.key(), to.key(), from.value(), to.value(), column);
        }
        throw Errors.unsupported(
                "reading column '"
                        + column
                        + "' stored as "
                        + stored.asSqlString()
                        + " as "
                        + target.asSqlString(),
                "A column cannot change between atomic, ROW, ARRAY and MAP shapes; the file was"
                        + " written by an incompatible writer");
    }

    private static Function<Object, Object> row(RowType from, RowType to, String column) {
        int arity = to.fields().size();
        RowData.FieldGetter[] getters = new RowData.FieldGetter[arity];
        @SuppressWarnings("unchecked")
        Function<Object, Object>[] casts = new Function[arity];
        for (int i = 0; i < arity; i++) {
            DataField field = to.fields().get(i);
            for (int k = 0; k < from.fields().size(); k++) {
                DataField old = from.fields().get(k);
                if (old.id() == field.id()) {
                    getters[i] = RowData.createFieldGetter(FlinkTypes.toFlink(old.type()), k);
                    casts[i] = of(old.type(), field.type(), column + "." + field.name());
                }
            }
        }
        return v -> {
            RowData source = (RowData) v;
            GenericRowData result = new GenericRowData(source.getRowKind(), arity);
            for (int i = 0; i < arity; i++) {
                Object value = getters[i] == null ? null : getters[i].getFieldOrNull(source);
                result.setField(i, value == null ? null : casts[i].apply(value));
            }
            return result;
        };
    }

    private static Function<Object, Object> array(DataType from, DataType to, String column) {
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(FlinkTypes.toFlink(from));
        Function<Object, Object> cast = of(from, to, column + "[]");
        return v -> {
            ArrayData source = (ArrayData) v;
            Object[] elements = new Object[source.size()];
            for (int i = 0; i < elements.length; i++) {
                Object element = getter.getElementOrNull(source, i);
                elements[i] = element == null ? null : cast.apply(element);
            }
            return new GenericArrayData(elements);
        };
    }

    /** MAP entries, or MULTISET elements with their counts when the value types are null. */
    private static Function<Object, Object> map(
            DataType fromKey, DataType toKey, DataType fromValue, DataType toValue, String column) {
        ArrayData.ElementGetter keyGetter =
                ArrayData.createElementGetter(FlinkTypes.toFlink(fromKey));
        Function<Object, Object> keyCast = of(fromKey, toKey, column + ".key");
        ArrayData.ElementGetter valueGetter =
                fromValue == null
                        ? (array, pos) -> array.getInt(pos)
                        : ArrayData.createElementGetter(FlinkTypes.toFlink(fromValue));
        Function<Object, Object> valueCast =
                fromValue == null ? c -> c : of(fromValue, toValue, column + ".value");
        return v -> {
            MapData source = (MapData) v;
            ArrayData keys = source.keyArray();
            ArrayData values = source.valueArray();
            Map<Object, Object> entries = new LinkedHashMap<>();
            for (int i = 0; i < source.size(); i++) {
                Object key = keyGetter.getElementOrNull(keys, i);
                Object value = valueGetter.getElementOrNull(values, i);
                entries.put(
                        key == null ? null : keyCast.apply(key),
                        value == null ? null : valueCast.apply(value));
            }
            return new GenericMapData(entries);
        };
    }
}
