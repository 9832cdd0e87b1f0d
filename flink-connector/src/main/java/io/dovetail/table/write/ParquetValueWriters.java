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
package io.dovetail.table.write;

import io.dovetail.table.error.Errors;
import io.dovetail.table.types.ArrayType;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.MapType;
import io.dovetail.table.types.MultisetType;
import io.dovetail.table.types.RowType;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;

import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Writes Flink internal values ({@code RowData}, {@code ArrayData}, {@code MapData}, {@code
 * StringData}, {@code DecimalData}, {@code TimestampData}) to a Parquet {@link RecordConsumer}
 * following the layout of {@link ParquetSchemas}. One writer tree is built per file schema; a null
 * in a NOT NULL position is rejected with a message naming the column.
 */
final class ParquetValueWriters {

    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final int NANOS_PER_MICRO = 1_000;
    private static final int MICROS_PER_MILLI = 1_000;

    /** Julian day number of 1970-01-01. */
    private static final int JULIAN_DAY_OF_EPOCH = 2_440_588;

    private static final int INT96_BYTES = 12;

    private ParquetValueWriters() {}

    /** Writes the fields of a top-level row (the whole Parquet message body). */
    static FieldsWriter forColumns(List<DataField> columns) {
        return new FieldsWriter(columns, "");
    }

    /** Writes one value, read either from a row field or from an array element. */
    abstract static class ValueWriter {
        final String path;

        ValueWriter(String path) {
            this.path = path;
        }

        abstract void write(RecordConsumer out, RowData row, int pos);

        abstract void write(RecordConsumer out, ArrayData array, int index);
    }

    /** Writes the fields of a row: top-level columns, or the children of a ROW value. */
    static final class FieldsWriter {
        private final String[] names;
        private final boolean[] nullable;
        private final ValueWriter[] writers;

        private FieldsWriter(List<DataField> fields, String parentPath) {
            int arity = fields.size();
            this.names = new String[arity];
            this.nullable = new boolean[arity];
            this.writers = new ValueWriter[arity];
            for (int i = 0; i < arity; i++) {
                DataField field = fields.get(i);
                names[i] = field.name();
                nullable[i] = field.type().nullable();
                writers[i] = writerFor(field.type(), parentPath + field.name());
            }
        }

        int arity() {
            return names.length;
        }

        void writeFields(RecordConsumer out, RowData row) {
            if (row.getArity() != names.length) {
                throw Errors.invalidArgument(
                        "A row of "
                                + row.getArity()
                                + " fields cannot be written as "
                                + names.length
                                + " columns "
                                + List.of(names)
                                + ".");
            }
            for (int i = 0; i < names.length; i++) {
                if (row.isNullAt(i)) {
                    checkNullable(nullable[i], writers[i].path);
                    continue;
                }
                out.startField(names[i], i);
                writers[i].write(out, row, i);
                out.endField(names[i], i);
            }
        }
    }

    private static void checkNullable(boolean nullable, String path) {
        if (!nullable) {
            throw Errors.invalidArgument(
                    "Column '"
                            + path
                            + "' is NOT NULL but the row to write holds null there; fix the"
                            + " input or declare the column nullable.");
        }
    }

    private static ValueWriter writerFor(DataType type, String path) {
        if (type instanceof AtomicType atomic) {
            return atomicWriter(atomic, path);
        } else if (type instanceof RowType row) {
            return new RowWriter(row, path);
        } else if (type instanceof ArrayType array) {
            return new ArrayWriter(array.element(), path);
        } else if (type instanceof MapType map) {
            return new MapWriter(map.key(), map.value(), path);
        } else if (type instanceof MultisetType multiset) {
            return new MapWriter(multiset.element(), DataTypes.INT().withNullable(false), path);
        }
        throw Errors.unsupported(
                "writing column '" + path + "' of type " + type.asSqlString() + " to Parquet",
                "VARIANT and VECTOR columns are not supported by the writer yet");
    }

    private static ValueWriter atomicWriter(AtomicType type, String path) {
        switch (type.root()) {
            case BOOLEAN:
                return new Primitive(
                        path,
                        (out, row, pos) -> out.addBoolean(row.getBoolean(pos)),
                        (out, array, i) -> out.addBoolean(array.getBoolean(i)));
            case TINYINT:
                return new Primitive(
                        path,
                        (out, row, pos) -> out.addInteger(row.getByte(pos)),
                        (out, array, i) -> out.addInteger(array.getByte(i)));
            case SMALLINT:
                return new Primitive(
                        path,
                        (out, row, pos) -> out.addInteger(row.getShort(pos)),
                        (out, array, i) -> out.addInteger(array.getShort(i)));
            case INT:
            case DATE:
            case TIME:
                return new Primitive(
                        path,
                        (out, row, pos) -> out.addInteger(row.getInt(pos)),
                        (out, array, i) -> out.addInteger(array.getInt(i)));
            case BIGINT:
                return new Primitive(
                        path,
                        (out, row, pos) -> out.addLong(row.getLong(pos)),
                        (out, array, i) -> out.addLong(array.getLong(i)));
            case FLOAT:
                return new Primitive(
                        path,
                        (out, row, pos) -> out.addFloat(row.getFloat(pos)),
                        (out, array, i) -> out.addFloat(array.getFloat(i)));
            case DOUBLE:
                return new Primitive(
                        path,
                        (out, row, pos) -> out.addDouble(row.getDouble(pos)),
                        (out, array, i) -> out.addDouble(array.getDouble(i)));
            case CHAR:
            case VARCHAR:
                return new Primitive(
                        path,
                        (out, row, pos) -> out.addBinary(reused(row.getString(pos).toBytes())),
                        (out, array, i) -> out.addBinary(reused(array.getString(i).toBytes())));
            case BINARY:
            case VARBINARY:
            case BLOB: // inline descriptors
                return new Primitive(
                        path,
                        (out, row, pos) -> out.addBinary(reused(row.getBinary(pos))),
                        (out, array, i) -> out.addBinary(reused(array.getBinary(i))));
            case DECIMAL:
                return new DecimalWriter(path, type.precision(), type.scale());
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return new TimestampWriter(path, type.precision());
            default:
                throw Errors.unsupported(
                        "writing column '" + path + "' of type " + type.asSqlString(),
                        "VARIANT columns are not supported by the writer yet");
        }
    }

    /**
     * The bytes may belong to a buffer the caller reuses; Parquet copies reused binaries before it
     * keeps them (dictionaries, statistics).
     */
    private static Binary reused(byte[] bytes) {
        return Binary.fromReusedByteArray(bytes);
    }

    @FunctionalInterface
    private interface FromRow {
        void write(RecordConsumer out, RowData row, int pos);
    }

    @FunctionalInterface
    private interface FromArray {
        void write(RecordConsumer out, ArrayData array, int index);
    }

    private static final class Primitive extends ValueWriter {
        private final FromRow fromRow;
        private final FromArray fromArray;

        Primitive(String path, FromRow fromRow, FromArray fromArray) {
            super(path);
            this.fromRow = fromRow;
            this.fromArray = fromArray;
        }

        @Override
        void write(RecordConsumer out, RowData row, int pos) {
            fromRow.write(out, row, pos);
        }

        @Override
        void write(RecordConsumer out, ArrayData array, int index) {
            fromArray.write(out, array, index);
        }
    }

    /** Unscaled value as INT32, INT64 or big-endian two's complement of fixed length. */
    private static final class DecimalWriter extends ValueWriter {
        private final int precision;
        private final int scale;
        private final int fixedBytes;

        DecimalWriter(String path, int precision, int scale) {
            super(path);
            this.precision = precision;
            this.scale = scale;
            this.fixedBytes = ParquetSchemas.decimalBytes(precision);
        }

        @Override
        void write(RecordConsumer out, RowData row, int pos) {
            write(out, row.getDecimal(pos, precision, scale));
        }

        @Override
        void write(RecordConsumer out, ArrayData array, int index) {
            write(out, array.getDecimal(index, precision, scale));
        }

        private void write(RecordConsumer out, DecimalData value) {
            if (value.scale() != scale) {
                throw doesNotFit(value);
            }
            if (ParquetSchemas.isInt32Decimal(precision)) {
                long unscaled = unscaledLong(value);
                if (unscaled != (int) unscaled) {
                    throw doesNotFit(value);
                }
                out.addInteger((int) unscaled);
            } else if (ParquetSchemas.isInt64Decimal(precision)) {
                out.addLong(unscaledLong(value));
            } else {
                out.addBinary(Binary.fromConstantByteArray(signExtended(value)));
            }
        }

        private long unscaledLong(DecimalData value) {
            try {
                return value.toUnscaledLong();
            } catch (ArithmeticException e) {
                throw doesNotFit(value);
            }
        }

        private RuntimeException doesNotFit(DecimalData value) {
            return Errors.invalidArgument(
                    "Column '"
                            + path
                            + "' is DECIMAL("
                            + precision
                            + ", "
                            + scale
                            + ") but got the value "
                            + value
                            + " of DECIMAL("
                            + value.precision()
                            + ", "
                            + value.scale()
                            + "); cast it to the column type first.");
        }

        private byte[] signExtended(DecimalData value) {
            byte[] minimal = value.toUnscaledBytes();
            if (minimal.length > fixedBytes) {
                throw doesNotFit(value);
            }
            byte[] fixed = new byte[fixedBytes];
            byte sign = (byte) (minimal.length > 0 && minimal[0] < 0 ? -1 : 0);
            int padding = fixedBytes - minimal.length;
            for (int i = 0; i < padding; i++) {
                fixed[i] = sign;
            }
            System.arraycopy(minimal, 0, fixed, padding, minimal.length);
            return fixed;
        }
    }

    /** INT64 epoch millis or micros, or INT96 (nanos of day, Julian day) by precision. */
    private static final class TimestampWriter extends ValueWriter {
        private final int precision;
        private final ParquetSchemas.TimestampUnit unit;

        TimestampWriter(String path, int precision) {
            super(path);
            this.precision = precision;
            this.unit = ParquetSchemas.timestampUnit(precision);
        }

        @Override
        void write(RecordConsumer out, RowData row, int pos) {
            write(out, row.getTimestamp(pos, precision));
        }

        @Override
        void write(RecordConsumer out, ArrayData array, int index) {
            write(out, array.getTimestamp(index, precision));
        }

        private void write(RecordConsumer out, TimestampData value) {
            long millis = value.getMillisecond();
            int nanoOfMilli = value.getNanoOfMillisecond();
            switch (unit) {
                case MILLIS:
                    out.addLong(millis);
                    break;
                case MICROS:
                    out.addLong(
                            Math.addExact(
                                    Math.multiplyExact(millis, MICROS_PER_MILLI),
                                    nanoOfMilli / NANOS_PER_MICRO));
                    break;
                default:
                    out.addBinary(int96(millis, nanoOfMilli));
            }
        }

        /** 8 bytes little-endian nanos of the day, then 4 bytes little-endian Julian day. */
        private static Binary int96(long millis, int nanoOfMilli) {
            long epochDay = Math.floorDiv(millis, MILLIS_PER_DAY);
            long nanosOfDay = Math.floorMod(millis, MILLIS_PER_DAY) * NANOS_PER_MILLI + nanoOfMilli;
            ByteBuffer buffer = ByteBuffer.allocate(INT96_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            buffer.putLong(nanosOfDay);
            buffer.putInt(Math.toIntExact(epochDay + JULIAN_DAY_OF_EPOCH));
            return Binary.fromConstantByteArray(buffer.array());
        }
    }

    /** A ROW value: a group with one field per child. */
    private static final class RowWriter extends ValueWriter {
        private final FieldsWriter fields;

        RowWriter(RowType type, String path) {
            super(path);
            this.fields = new FieldsWriter(type.fields(), path + ".");
        }

        @Override
        void write(RecordConsumer out, RowData row, int pos) {
            write(out, row.getRow(pos, fields.arity()));
        }

        @Override
        void write(RecordConsumer out, ArrayData array, int index) {
            write(out, array.getRow(index, fields.arity()));
        }

        private void write(RecordConsumer out, RowData value) {
            out.startGroup();
            fields.writeFields(out, value);
            out.endGroup();
        }
    }

    /** An ARRAY value: {@code group { repeated group list { element } }}. */
    private static final class ArrayWriter extends ValueWriter {
        private final boolean elementNullable;
        private final ValueWriter element;

        ArrayWriter(DataType elementType, String path) {
            super(path);
            this.elementNullable = elementType.nullable();
            this.element = writerFor(elementType, path + "[]");
        }

        @Override
        void write(RecordConsumer out, RowData row, int pos) {
            write(out, row.getArray(pos));
        }

        @Override
        void write(RecordConsumer out, ArrayData array, int index) {
            write(out, array.getArray(index));
        }

        private void write(RecordConsumer out, ArrayData value) {
            out.startGroup();
            int size = value.size();
            if (size > 0) {
                out.startField(ParquetSchemas.LIST_REPEATED_NAME, 0);
                for (int i = 0; i < size; i++) {
                    out.startGroup();
                    if (value.isNullAt(i)) {
                        checkNullable(elementNullable, element.path);
                    } else {
                        out.startField(ParquetSchemas.LIST_ELEMENT_NAME, 0);
                        element.write(out, value, i);
                        out.endField(ParquetSchemas.LIST_ELEMENT_NAME, 0);
                    }
                    out.endGroup();
                }
                out.endField(ParquetSchemas.LIST_REPEATED_NAME, 0);
            }
            out.endGroup();
        }
    }

    /** A MAP (or MULTISET) value: {@code group { repeated group key_value { key; value } }}. */
    private static final class MapWriter extends ValueWriter {
        private final ValueWriter key;
        private final boolean valueNullable;
        private final ValueWriter value;

        MapWriter(DataType keyType, DataType valueType, String path) {
            super(path);
            this.key = writerFor(keyType, path + ".key");
            this.valueNullable = valueType.nullable();
            this.value = writerFor(valueType, path + ".value");
        }

        @Override
        void write(RecordConsumer out, RowData row, int pos) {
            write(out, row.getMap(pos));
        }

        @Override
        void write(RecordConsumer out, ArrayData array, int index) {
            write(out, array.getMap(index));
        }

        private void write(RecordConsumer out, MapData map) {
            out.startGroup();
            int size = map.size();
            if (size > 0) {
                ArrayData keys = map.keyArray();
                ArrayData values = map.valueArray();
                out.startField(ParquetSchemas.MAP_REPEATED_NAME, 0);
                for (int i = 0; i < size; i++) {
                    out.startGroup();
                    if (keys.isNullAt(i)) {
                        throw Errors.invalidArgument(
                                "Map column '"
                                        + path
                                        + "' holds a null key; Parquet map keys cannot be null.");
                    }
                    out.startField(ParquetSchemas.MAP_KEY_NAME, 0);
                    key.write(out, keys, i);
                    out.endField(ParquetSchemas.MAP_KEY_NAME, 0);
                    if (values.isNullAt(i)) {
                        checkNullable(valueNullable, value.path);
                    } else {
                        out.startField(ParquetSchemas.MAP_VALUE_NAME, 1);
                        value.write(out, values, i);
                        out.endField(ParquetSchemas.MAP_VALUE_NAME, 1);
                    }
                    out.endGroup();
                }
                out.endField(ParquetSchemas.MAP_REPEATED_NAME, 0);
            }
            out.endGroup();
        }
    }
}
