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
package io.dovetail.table.data;

import io.dovetail.table.error.Errors;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.types.RowKind;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The one codec for Paimon's serialized BinaryRow: a 4-byte big-endian arity followed by the
 * little-endian row (null bits, 8-byte slots, 8-byte aligned variable part). Partitions, keys and
 * statistics rows are all written through it, so equal values always give identical bytes, which
 * Paimon relies on when it compares partitions byte for byte.
 *
 * <p>Supports every atomic type. Columns of nested types (ARRAY, MAP, MULTISET, ROW) may only hold
 * NULL, as in the statistics rows Paimon writes for the nested columns of ORC files; a non-null
 * nested value is rejected.
 */
public final class BinaryRowCodec {

    private static final int ARITY_BYTES = 4;
    private static final int SLOT_BYTES = 8;
    private static final int MAX_INLINE_BYTES = 7;
    private static final int WIDE_DECIMAL_BYTES = 16;
    private static final int WIDE_TIMESTAMP_BYTES = 8;
    private static final int MAX_NANO_OF_MILLI = 999_999;

    /** How a column is laid out in its slot (and, for some kinds, the variable part). */
    private enum Layout {
        BOOLEAN,
        TINYINT,
        SMALLINT,
        INT,
        BIGINT,
        FLOAT,
        DOUBLE,
        COMPACT_DECIMAL,
        WIDE_DECIMAL,
        COMPACT_TIMESTAMP,
        WIDE_TIMESTAMP,
        STRING,
        BINARY,
        /** A nested column, always NULL. */
        NULL_ONLY
    }

    private final List<LogicalType> types;
    private final Layout[] layouts;
    private final int[] precisions;
    private final int[] scales;
    private final int headerBytes;
    private final int fixedBytes;

    private BinaryRowCodec(List<LogicalType> types) {
        this.types = List.copyOf(types);
        int arity = this.types.size();
        this.layouts = new Layout[arity];
        this.precisions = new int[arity];
        this.scales = new int[arity];
        for (int i = 0; i < arity; i++) {
            LogicalType type = this.types.get(i);
            layouts[i] = layoutOf(type);
            if (type instanceof DecimalType) {
                precisions[i] = ((DecimalType) type).getPrecision();
                scales[i] = ((DecimalType) type).getScale();
            } else if (layouts[i] == Layout.COMPACT_TIMESTAMP
                    || layouts[i] == Layout.WIDE_TIMESTAMP) {
                precisions[i] = LogicalTypeChecks.getPrecision(type);
            }
        }
        this.headerBytes = headerBytes(arity);
        this.fixedBytes = headerBytes + SLOT_BYTES * arity;
    }

    /** A codec for rows of the given column types (nullability of the types is not enforced). */
    public static BinaryRowCodec of(List<LogicalType> types) {
        return new BinaryRowCodec(types);
    }

    public static BinaryRowCodec of(LogicalType... types) {
        return new BinaryRowCodec(List.of(types));
    }

    /** The serialized row of arity 0 (12 bytes), used for empty keys, stats and partitions. */
    public static byte[] emptyRow() {
        return new byte[ARITY_BYTES + headerBytes(0)];
    }

    public List<LogicalType> types() {
        return types;
    }

    /**
     * Reads the arity prefix and checks that the bytes are long enough for the null bits and slots
     * of that arity; {@code source} names the file and field for the error message.
     */
    public static int arity(byte[] serialized, Object source) {
        if (serialized.length < ARITY_BYTES) {
            throw corrupt(source, "it has " + serialized.length + " bytes, fewer than the arity");
        }
        int arity = ByteBuffer.wrap(serialized).order(ByteOrder.BIG_ENDIAN).getInt(0);
        if (arity < 0) {
            throw corrupt(source, "negative arity " + arity);
        }
        long needed = (long) ARITY_BYTES + headerBytes(arity) + (long) SLOT_BYTES * arity;
        if (serialized.length < needed) {
            throw corrupt(
                    source,
                    "arity "
                            + arity
                            + " needs at least "
                            + needed
                            + " bytes but only "
                            + serialized.length
                            + " are present (truncated)");
        }
        return arity;
    }

    /** Serializes {@code row} in Paimon's canonical form; the row kind goes to the header byte. */
    public byte[] serialize(RowData row) {
        int arity = layouts.length;
        if (row.getArity() != arity) {
            throw Errors.invalidArgument(
                    "Cannot serialize a row of arity "
                            + row.getArity()
                            + " with a BinaryRow codec for "
                            + arity
                            + " columns "
                            + types);
        }
        byte[][] variable = new byte[arity][];
        int size = fixedBytes;
        for (int i = 0; i < arity; i++) {
            size += variableBytes(row, i, variable);
        }
        ByteBuffer out = ByteBuffer.allocate(ARITY_BYTES + size).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(0, Integer.reverseBytes(arity));
        out.put(ARITY_BYTES, row.getRowKind().toByteValue());
        int cursor = fixedBytes;
        for (int i = 0; i < arity; i++) {
            int slot = ARITY_BYTES + headerBytes + SLOT_BYTES * i;
            boolean isNull = row.isNullAt(i);
            if (isNull) {
                int bit = i + 8;
                int at = ARITY_BYTES + (bit >> 3);
                out.put(at, (byte) (out.get(at) | (1 << (bit & 7))));
            }
            switch (layouts[i]) {
                case WIDE_DECIMAL:
                case WIDE_TIMESTAMP:
                    byte[] reserved = variable[i];
                    int reservedLength =
                            layouts[i] == Layout.WIDE_DECIMAL
                                    ? WIDE_DECIMAL_BYTES
                                    : WIDE_TIMESTAMP_BYTES;
                    long low = 0;
                    if (!isNull) {
                        out.put(ARITY_BYTES + cursor, reserved);
                        low =
                                layouts[i] == Layout.WIDE_DECIMAL
                                        ? reserved.length
                                        : row.getTimestamp(i, precisions[i]).getNanoOfMillisecond();
                    }
                    out.putLong(slot, ((long) cursor << 32) | low);
                    cursor += reservedLength;
                    break;
                case STRING:
                case BINARY:
                    if (isNull) {
                        break;
                    }
                    byte[] data = variable[i];
                    if (data.length <= MAX_INLINE_BYTES) {
                        out.put(slot, data);
                        out.put(slot + 7, (byte) (0x80 | data.length));
                    } else {
                        out.put(ARITY_BYTES + cursor, data);
                        out.putLong(slot, ((long) cursor << 32) | data.length);
                        cursor += roundToWord(data.length);
                    }
                    break;
                case NULL_ONLY:
                    if (!isNull) {
                        throw nestedValue(i);
                    }
                    break;
                default:
                    if (!isNull) {
                        writeFixed(out, slot, row, i);
                    }
            }
        }
        return out.array();
    }

    /** Decodes bytes written by {@link #serialize} (or by Paimon) into a {@link GenericRowData}. */
    public GenericRowData deserialize(byte[] serialized) {
        return deserialize(serialized, "a serialized BinaryRow");
    }

    /**
     * Decodes serialized row bytes; truncated or garbled input fails with an error naming {@code
     * source} (the file and field the bytes came from).
     */
    public GenericRowData deserialize(byte[] serialized, Object source) {
        int arity = arity(serialized, source);
        if (arity != layouts.length) {
            throw corrupt(
                    source,
                    "the row has arity "
                            + arity
                            + " but "
                            + layouts.length
                            + " columns "
                            + types
                            + " were expected");
        }
        ByteBuffer in = ByteBuffer.wrap(serialized).order(ByteOrder.LITTLE_ENDIAN);
        byte header = serialized[ARITY_BYTES];
        if (header < 0 || header > 3) {
            throw corrupt(source, "invalid row kind " + header + " in the header byte");
        }
        GenericRowData row = new GenericRowData(RowKind.fromByteValue(header), arity);
        int size = serialized.length - ARITY_BYTES;
        for (int i = 0; i < arity; i++) {
            int bit = i + 8;
            if ((serialized[ARITY_BYTES + (bit >> 3)] & (1 << (bit & 7))) != 0) {
                continue;
            }
            int slot = ARITY_BYTES + headerBytes + SLOT_BYTES * i;
            row.setField(i, readField(in, slot, size, i, source));
        }
        return row;
    }

    private Object readField(ByteBuffer in, int slot, int size, int i, Object source) {
        switch (layouts[i]) {
            case BOOLEAN:
                return in.get(slot) != 0;
            case TINYINT:
                return in.get(slot);
            case SMALLINT:
                return in.getShort(slot);
            case INT:
                return in.getInt(slot);
            case BIGINT:
                return in.getLong(slot);
            case FLOAT:
                return in.getFloat(slot);
            case DOUBLE:
                return in.getDouble(slot);
            case COMPACT_DECIMAL:
                return DecimalData.fromUnscaledLong(in.getLong(slot), precisions[i], scales[i]);
            case COMPACT_TIMESTAMP:
                return TimestampData.fromEpochMillis(in.getLong(slot));
            case WIDE_DECIMAL:
                {
                    long offsetAndLength = in.getLong(slot);
                    int length = (int) offsetAndLength;
                    if (length < 1 || length > WIDE_DECIMAL_BYTES) {
                        throw corrupt(source, "column " + i + " has decimal length " + length);
                    }
                    byte[] unscaled =
                            variablePart(
                                    in, (int) (offsetAndLength >>> 32), length, size, i, source);
                    DecimalData value =
                            DecimalData.fromUnscaledBytes(unscaled, precisions[i], scales[i]);
                    if (value == null) {
                        throw corrupt(
                                source,
                                "column "
                                        + i
                                        + " holds a decimal that exceeds precision "
                                        + precisions[i]);
                    }
                    return value;
                }
            case WIDE_TIMESTAMP:
                {
                    long offsetAndNanos = in.getLong(slot);
                    int nanos = (int) offsetAndNanos;
                    if (nanos < 0 || nanos > MAX_NANO_OF_MILLI) {
                        throw corrupt(source, "column " + i + " has nano-of-millisecond " + nanos);
                    }
                    int offset = (int) (offsetAndNanos >>> 32);
                    variablePart(in, offset, WIDE_TIMESTAMP_BYTES, size, i, source);
                    return TimestampData.fromEpochMillis(in.getLong(ARITY_BYTES + offset), nanos);
                }
            case STRING:
                return StringData.fromBytes(variableLength(in, slot, size, i, source));
            case BINARY:
                return variableLength(in, slot, size, i, source);
            case NULL_ONLY:
                throw corrupt(source, "column " + i + " of type " + types.get(i) + " is not NULL");
            default:
                throw new IllegalStateException("Unhandled layout " + layouts[i]);
        }
    }

    private byte[] variableLength(ByteBuffer in, int slot, int size, int i, Object source) {
        byte mark = in.get(slot + 7);
        if ((mark & 0x80) != 0) {
            int length = mark & 0x7F;
            if (length > MAX_INLINE_BYTES) {
                throw corrupt(source, "column " + i + " has inline length " + length);
            }
            byte[] data = new byte[length];
            in.get(slot, data);
            return data;
        }
        long offsetAndLength = in.getLong(slot);
        return variablePart(
                in, (int) (offsetAndLength >>> 32), (int) offsetAndLength, size, i, source);
    }

    private byte[] variablePart(
            ByteBuffer in, int offset, int length, int size, int i, Object source) {
        if (offset < fixedBytes || length < 0 || (long) offset + length > size) {
            throw corrupt(
                    source,
                    "column "
                            + i
                            + " points to bytes ["
                            + offset
                            + ", +"
                            + length
                            + ") outside the variable part ["
                            + fixedBytes
                            + ", "
                            + size
                            + ") (truncated or garbled)");
        }
        byte[] data = new byte[length];
        in.get(ARITY_BYTES + offset, data);
        return data;
    }

    /** Bytes field {@code i} adds to the variable part; remembers the bytes to copy there. */
    private int variableBytes(RowData row, int i, byte[][] variable) {
        boolean isNull = row.isNullAt(i);
        switch (layouts[i]) {
            case WIDE_DECIMAL:
                if (!isNull) {
                    variable[i] = unscaledBytes(row.getDecimal(i, precisions[i], scales[i]), i);
                }
                return WIDE_DECIMAL_BYTES;
            case WIDE_TIMESTAMP:
                if (!isNull) {
                    variable[i] =
                            ByteBuffer.allocate(WIDE_TIMESTAMP_BYTES)
                                    .order(ByteOrder.LITTLE_ENDIAN)
                                    .putLong(0, row.getTimestamp(i, precisions[i]).getMillisecond())
                                    .array();
                }
                return WIDE_TIMESTAMP_BYTES;
            case STRING:
            case BINARY:
                if (isNull) {
                    return 0;
                }
                byte[] data =
                        layouts[i] == Layout.STRING ? row.getString(i).toBytes() : row.getBinary(i);
                variable[i] = data;
                return data.length <= MAX_INLINE_BYTES ? 0 : roundToWord(data.length);
            default:
                return 0;
        }
    }

    private void writeFixed(ByteBuffer out, int slot, RowData row, int i) {
        switch (layouts[i]) {
            case BOOLEAN:
                out.put(slot, (byte) (row.getBoolean(i) ? 1 : 0));
                break;
            case TINYINT:
                out.put(slot, row.getByte(i));
                break;
            case SMALLINT:
                out.putShort(slot, row.getShort(i));
                break;
            case INT:
                out.putInt(slot, row.getInt(i));
                break;
            case BIGINT:
                out.putLong(slot, row.getLong(i));
                break;
            case FLOAT:
                out.putFloat(slot, row.getFloat(i));
                break;
            case DOUBLE:
                out.putDouble(slot, row.getDouble(i));
                break;
            case COMPACT_DECIMAL:
                DecimalData decimal = row.getDecimal(i, precisions[i], scales[i]);
                checkScale(decimal, i);
                out.putLong(slot, decimal.toUnscaledLong());
                break;
            case COMPACT_TIMESTAMP:
                out.putLong(slot, row.getTimestamp(i, precisions[i]).getMillisecond());
                break;
            default:
                throw new IllegalStateException("Not a fixed-size layout: " + layouts[i]);
        }
    }

    private byte[] unscaledBytes(DecimalData decimal, int i) {
        checkScale(decimal, i);
        byte[] unscaled = decimal.toUnscaledBytes();
        if (unscaled.length > WIDE_DECIMAL_BYTES) {
            throw Errors.invalidArgument(
                    "Decimal "
                            + decimal
                            + " does not fit column "
                            + i
                            + " of type "
                            + types.get(i));
        }
        return unscaled;
    }

    private void checkScale(DecimalData decimal, int i) {
        if (decimal.scale() != scales[i]) {
            throw Errors.invalidArgument(
                    "Decimal "
                            + decimal
                            + " has scale "
                            + decimal.scale()
                            + " but column "
                            + i
                            + " is "
                            + types.get(i));
        }
    }

    private static Layout layoutOf(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return Layout.BOOLEAN;
            case TINYINT:
                return Layout.TINYINT;
            case SMALLINT:
                return Layout.SMALLINT;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return Layout.INT;
            case BIGINT:
                return Layout.BIGINT;
            case FLOAT:
                return Layout.FLOAT;
            case DOUBLE:
                return Layout.DOUBLE;
            case DECIMAL:
                return DecimalData.isCompact(((DecimalType) type).getPrecision())
                        ? Layout.COMPACT_DECIMAL
                        : Layout.WIDE_DECIMAL;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TimestampData.isCompact(LogicalTypeChecks.getPrecision(type))
                        ? Layout.COMPACT_TIMESTAMP
                        : Layout.WIDE_TIMESTAMP;
            case CHAR:
            case VARCHAR:
                return Layout.STRING;
            case BINARY:
            case VARBINARY:
                return Layout.BINARY;
            case ARRAY:
            case MAP:
            case MULTISET:
            case ROW:
                return Layout.NULL_ONLY;
            default:
                throw Errors.unsupported(
                        "type " + type + " in a serialized BinaryRow",
                        "Partition keys and statistics rows support only atomic types and NULL"
                                + " nested values");
        }
    }

    private RuntimeException nestedValue(int i) {
        return Errors.unsupported(
                "a non-null value of the nested column "
                        + i
                        + " ("
                        + types.get(i)
                        + ") in a serialized BinaryRow",
                "Partition keys and statistics rows hold nested columns only as NULL");
    }

    private static int headerBytes(int arity) {
        return ((arity + 63 + 8) / 64) * 8;
    }

    private static int roundToWord(int length) {
        return (length + 7) & ~7;
    }

    private static RuntimeException corrupt(Object source, String problem) {
        return Errors.corruptFile(source, "invalid serialized BinaryRow: " + problem);
    }
}
