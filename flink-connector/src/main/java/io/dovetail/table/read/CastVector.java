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
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.types.RowType;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.ColumnarRowData;
import org.apache.flink.table.data.columnar.vector.ArrayColumnVector;
import org.apache.flink.table.data.columnar.vector.BooleanColumnVector;
import org.apache.flink.table.data.columnar.vector.ByteColumnVector;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.DecimalColumnVector;
import org.apache.flink.table.data.columnar.vector.DoubleColumnVector;
import org.apache.flink.table.data.columnar.vector.FloatColumnVector;
import org.apache.flink.table.data.columnar.vector.IntColumnVector;
import org.apache.flink.table.data.columnar.vector.LongColumnVector;
import org.apache.flink.table.data.columnar.vector.MapColumnVector;
import org.apache.flink.table.data.columnar.vector.RowColumnVector;
import org.apache.flink.table.data.columnar.vector.ShortColumnVector;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;

import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * A view of a file's column vector in the read type, for columns whose type changed after the file
 * was written, at the top level or inside ROW / ARRAY / MAP ({@link NestedValueCasts}): each access
 * reads the stored value and converts it. A ROW view exposes its fields as views too, so nested
 * rows stay columnar for the consumer. Unchanged columns are not wrapped, so they stay zero-copy.
 */
final class CastVector
        implements BooleanColumnVector,
                ByteColumnVector,
                ShortColumnVector,
                IntColumnVector,
                LongColumnVector,
                FloatColumnVector,
                DoubleColumnVector,
                DecimalColumnVector,
                BytesColumnVector,
                TimestampColumnVector,
                ArrayColumnVector,
                MapColumnVector,
                RowColumnVector {

    private final IntFunction<Object> values;
    private final boolean cached;
    private final VectorizedColumnBatch fields;
    private int cachedRow = -1;
    private Object cachedValue;

    /**
     * @param values the converted value at a position, null for NULL
     * @param cached whether to remember the last value (the top-level view; field views read
     *     through their row's cache)
     */
    private CastVector(IntFunction<Object> values, DataType type, boolean cached) {
        this.values = values;
        this.cached = cached;
        this.fields = type instanceof RowType row ? fieldViews(row) : null;
    }

    /**
     * {@code source} (holding values of {@code stored}) as a vector of {@code target}: itself when
     * only nullability, names or field ids differ, else a converting view.
     */
    static ColumnVector of(ColumnVector source, DataType stored, DataType target, String column) {
        if (NestedValueCasts.sameLayout(stored, target)) {
            return source;
        }
        Function<Object, Object> cast = NestedValueCasts.of(stored, target, column);
        IntFunction<Object> read = reader(source, stored);
        return new CastVector(
                i -> source.isNullAt(i) ? null : cast.apply(read.apply(i)), target, true);
    }

    private VectorizedColumnBatch fieldViews(RowType row) {
        ColumnVector[] views = new ColumnVector[row.fields().size()];
        for (int k = 0; k < views.length; k++) {
            DataField field = row.fields().get(k);
            RowData.FieldGetter getter =
                    RowData.createFieldGetter(FlinkTypes.toFlink(field.type()), k);
            views[k] =
                    new CastVector(
                            i -> {
                                RowData value = (RowData) value(i);
                                return value == null ? null : getter.getFieldOrNull(value);
                            },
                            field.type(),
                            false);
        }
        return new VectorizedColumnBatch(views);
    }

    private static IntFunction<Object> reader(ColumnVector v, DataType type) {
        switch (type.root()) {
            case BOOLEAN:
                return i -> ((BooleanColumnVector) v).getBoolean(i);
            case TINYINT:
                return i -> ((ByteColumnVector) v).getByte(i);
            case SMALLINT:
                return i -> ((ShortColumnVector) v).getShort(i);
            case INT:
            case DATE:
            case TIME:
                return i -> ((IntColumnVector) v).getInt(i);
            case BIGINT:
                return i -> ((LongColumnVector) v).getLong(i);
            case FLOAT:
                return i -> ((FloatColumnVector) v).getFloat(i);
            case DOUBLE:
                return i -> ((DoubleColumnVector) v).getDouble(i);
            case DECIMAL:
                AtomicType decimal = (AtomicType) type;
                return i ->
                        ((DecimalColumnVector) v)
                                .getDecimal(i, decimal.precision(), decimal.scale());
            case CHAR:
            case VARCHAR:
                return i -> StringData.fromBytes(((BytesColumnVector) v).getBytes(i).getBytes());
            case BINARY:
            case VARBINARY:
                return i -> ((BytesColumnVector) v).getBytes(i).getBytes();
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                int precision = ((AtomicType) type).precision();
                return i -> ((TimestampColumnVector) v).getTimestamp(i, precision);
            case ROW:
                return i -> ((RowColumnVector) v).getRow(i);
            case ARRAY:
                return i -> ((ArrayColumnVector) v).getArray(i);
            case MAP:
            case MULTISET:
                return i -> ((MapColumnVector) v).getMap(i);
            default:
                throw Errors.unsupported("converting a column of type " + type.asSqlString(), null);
        }
    }

    private Object value(int i) {
        if (!cached) {
            return values.apply(i);
        }
        if (i != cachedRow) {
            cachedValue = values.apply(i);
            cachedRow = i;
        }
        return cachedValue;
    }

    /** Forgets the cached value: the source vector was refilled. */
    void invalidate() {
        cachedRow = -1;
        cachedValue = null;
    }

    @Override
    public boolean isNullAt(int i) {
        return value(i) == null;
    }

    @Override
    public boolean getBoolean(int i) {
        return (Boolean) value(i);
    }

    @Override
    public byte getByte(int i) {
        return (Byte) value(i);
    }

    @Override
    public short getShort(int i) {
        return (Short) value(i);
    }

    @Override
    public int getInt(int i) {
        return (Integer) value(i);
    }

    @Override
    public long getLong(int i) {
        return (Long) value(i);
    }

    @Override
    public float getFloat(int i) {
        return (Float) value(i);
    }

    @Override
    public double getDouble(int i) {
        return (Double) value(i);
    }

    @Override
    public DecimalData getDecimal(int i, int precision, int scale) {
        return (DecimalData) value(i);
    }

    @Override
    public Bytes getBytes(int i) {
        Object v = value(i);
        byte[] bytes = v instanceof StringData s ? s.toBytes() : (byte[]) v;
        return new Bytes(bytes, 0, bytes.length);
    }

    @Override
    public TimestampData getTimestamp(int i, int precision) {
        return (TimestampData) value(i);
    }

    @Override
    public ArrayData getArray(int i) {
        return (ArrayData) value(i);
    }

    @Override
    public MapData getMap(int i) {
        return (MapData) value(i);
    }

    @Override
    public ColumnarRowData getRow(int i) {
        return new ColumnarRowData(fields, i);
    }
}
