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

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.BooleanColumnVector;
import org.apache.flink.table.data.columnar.vector.ByteColumnVector;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;
import org.apache.flink.table.data.columnar.vector.DecimalColumnVector;
import org.apache.flink.table.data.columnar.vector.DoubleColumnVector;
import org.apache.flink.table.data.columnar.vector.FloatColumnVector;
import org.apache.flink.table.data.columnar.vector.IntColumnVector;
import org.apache.flink.table.data.columnar.vector.LongColumnVector;
import org.apache.flink.table.data.columnar.vector.ShortColumnVector;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;

import javax.annotation.Nullable;

/**
 * A column holding one value at every position: a partition column or {@code _SEQUENCE_NUMBER}. The
 * value is a Flink internal value of the column's atomic type (or null); the vector answers through
 * the interface of whichever type that is, so nothing is filled per batch.
 */
final class ConstantVector
        implements BooleanColumnVector,
                ByteColumnVector,
                ShortColumnVector,
                IntColumnVector,
                LongColumnVector,
                FloatColumnVector,
                DoubleColumnVector,
                BytesColumnVector,
                DecimalColumnVector,
                TimestampColumnVector {

    @Nullable private final Object value;
    @Nullable private final Bytes bytes;

    ConstantVector(@Nullable Object value) {
        this.value = value;
        byte[] data = null;
        if (value instanceof StringData string) {
            data = string.toBytes();
        } else if (value instanceof byte[] binary) {
            data = binary;
        }
        this.bytes = data == null ? null : new Bytes(data, 0, data.length);
    }

    @Override
    public boolean isNullAt(int i) {
        return value == null;
    }

    @Override
    public boolean getBoolean(int i) {
        return (Boolean) value;
    }

    @Override
    public byte getByte(int i) {
        return (Byte) value;
    }

    @Override
    public short getShort(int i) {
        return (Short) value;
    }

    @Override
    public int getInt(int i) {
        return (Integer) value;
    }

    @Override
    public long getLong(int i) {
        return (Long) value;
    }

    @Override
    public float getFloat(int i) {
        return (Float) value;
    }

    @Override
    public double getDouble(int i) {
        return (Double) value;
    }

    @Override
    public Bytes getBytes(int i) {
        return bytes;
    }

    @Override
    public DecimalData getDecimal(int i, int precision, int scale) {
        return (DecimalData) value;
    }

    @Override
    public TimestampData getTimestamp(int i, int precision) {
        return (TimestampData) value;
    }
}
