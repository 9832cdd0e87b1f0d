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
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.MapType;
import io.dovetail.table.types.MultisetType;
import io.dovetail.table.types.RowType;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.BooleanColumnVector;
import org.apache.flink.table.data.columnar.vector.ByteColumnVector;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.DecimalColumnVector;
import org.apache.flink.table.data.columnar.vector.DoubleColumnVector;
import org.apache.flink.table.data.columnar.vector.FloatColumnVector;
import org.apache.flink.table.data.columnar.vector.IntColumnVector;
import org.apache.flink.table.data.columnar.vector.LongColumnVector;
import org.apache.flink.table.data.columnar.vector.ShortColumnVector;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;

import java.util.List;
import java.util.function.Function;

/**
 * A view of a file's column vector in the read type, for columns whose type changed after the file
 * was written: each access reads the stored value and casts it ({@link ValueCasts}). Unchanged
 * columns are not wrapped, so they stay zero-copy.
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
                TimestampColumnVector {

    private final ColumnVector source;
    private final Function<Integer, Object> read;
    private final Function<Object, Object> cast;
    private int cachedRow = -1;
    private Object cachedValue;

    private CastVector(
            ColumnVector source, Function<Integer, Object> read, Function<Object, Object> cast) {
        this.source = source;
        this.read = read;
        this.cast = cast;
    }

    /**
     * {@code source} (holding values of {@code stored}) as a vector of {@code target}: itself when
     * only nullability, names or field ids differ, else a casting view.
     */
    static ColumnVector of(ColumnVector source, DataType stored, DataType target, String column) {
        if (sameLayout(stored, target)) {
            return source;
        }
        if (stored instanceof AtomicType from && target instanceof AtomicType to) {
            return new CastVector(source, reader(source, from), ValueCasts.of(from, to, column));
        }
        throw Errors.unsupported(
                "reading nested column '"
                        + column
                        + "' stored as "
                        + stored.asSqlString()
                        + " as "
                        + target.asSqlString()
                        + " (nested schema evolution)",
                "Only top-level columns may change type or shape for now");
    }

    private static boolean sameLayout(DataType a, DataType b) {
        if (a instanceof AtomicType x && b instanceof AtomicType y) {
            return x.withNullable(true).equals(y.withNullable(true));
        }
        if (a instanceof RowType x && b instanceof RowType y) {
            List<io.dovetail.table.types.DataField> f = x.fields();
            List<io.dovetail.table.types.DataField> g = y.fields();
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
        if (a instanceof ArrayType x && b instanceof ArrayType y) {
            return sameLayout(x.element(), y.element());
        }
        if (a instanceof MultisetType x && b instanceof MultisetType y) {
            return sameLayout(x.element(), y.element());
        }
        if (a instanceof MapType x && b instanceof MapType y) {
            return sameLayout(x.key(), y.key()) && sameLayout(x.value(), y.value());
        }
        return false;
    }

    private static Function<Integer, Object> reader(ColumnVector v, AtomicType type) {
        switch (type.root()) {
            case BOOLEAN:
                return i -> ((BooleanColumnVector) v).getBoolean(i);
            case TINYINT:
                return i -> ((ByteColumnVector) v).getByte(i);
            case SMALLINT:
                return i -> ((ShortColumnVector) v).getShort(i);
            case INT:
            case DATE:
                return i -> ((IntColumnVector) v).getInt(i);
            case BIGINT:
                return i -> ((LongColumnVector) v).getLong(i);
            case FLOAT:
                return i -> ((FloatColumnVector) v).getFloat(i);
            case DOUBLE:
                return i -> ((DoubleColumnVector) v).getDouble(i);
            case DECIMAL:
                return i -> ((DecimalColumnVector) v).getDecimal(i, type.precision(), type.scale());
            case CHAR:
            case VARCHAR:
                return i -> StringData.fromBytes(((BytesColumnVector) v).getBytes(i).getBytes());
            case BINARY:
            case VARBINARY:
                return i -> ((BytesColumnVector) v).getBytes(i).getBytes();
            case TIMESTAMP:
                return i -> ((TimestampColumnVector) v).getTimestamp(i, type.precision());
            default:
                throw Errors.unsupported("casting a column of type " + type.asSqlString(), null);
        }
    }

    private Object value(int i) {
        if (i != cachedRow) {
            cachedValue = source.isNullAt(i) ? null : cast.apply(read.apply(i));
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
}
