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
package io.dovetail.flink.source;

import io.dovetail.table.format.blob.ReferencedBytes;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.variant.Variant;

import java.util.Arrays;

/**
 * A read row whose inline-descriptor BLOB columns ({@code blob-descriptor-field}) return the bytes
 * their descriptors reference instead of the descriptors, read when a consumer asks for the value
 * (a query that never touches the column reads no referenced file). Each value is read once per row
 * (an operator asking twice, as a filter and a projection of the same column do, gets the same
 * bytes) and dropped with the row. Every other field is the wrapped row's.
 */
final class DereferencedRow implements RowData {

    private final String[] names; // per position: the BLOB column's name, or null (not wrapped)
    private final byte[][] read; // per position: the referenced bytes read for this row, or null
    private RowData row;

    /** {@code names}: per output position, the name of a column to dereference, or null. */
    DereferencedRow(String[] names) {
        this.names = names.clone();
        this.read = new byte[names.length][];
    }

    /** This wrapper over {@code next}. */
    DereferencedRow replace(RowData next) {
        this.row = next;
        Arrays.fill(read, null);
        return this;
    }

    @Override
    public byte[] getBinary(int pos) {
        if (names[pos] == null) {
            return row.getBinary(pos);
        }
        if (read[pos] == null) {
            read[pos] = ReferencedBytes.read(row.getBinary(pos), names[pos]);
        }
        return read[pos];
    }

    @Override
    public int getArity() {
        return row.getArity();
    }

    @Override
    public RowKind getRowKind() {
        return row.getRowKind();
    }

    @Override
    public void setRowKind(RowKind kind) {
        row.setRowKind(kind);
    }

    @Override
    public boolean isNullAt(int pos) {
        return row.isNullAt(pos);
    }

    @Override
    public boolean getBoolean(int pos) {
        return row.getBoolean(pos);
    }

    @Override
    public byte getByte(int pos) {
        return row.getByte(pos);
    }

    @Override
    public short getShort(int pos) {
        return row.getShort(pos);
    }

    @Override
    public int getInt(int pos) {
        return row.getInt(pos);
    }

    @Override
    public long getLong(int pos) {
        return row.getLong(pos);
    }

    @Override
    public float getFloat(int pos) {
        return row.getFloat(pos);
    }

    @Override
    public double getDouble(int pos) {
        return row.getDouble(pos);
    }

    @Override
    public StringData getString(int pos) {
        return row.getString(pos);
    }

    @Override
    public DecimalData getDecimal(int pos, int precision, int scale) {
        return row.getDecimal(pos, precision, scale);
    }

    @Override
    public TimestampData getTimestamp(int pos, int precision) {
        return row.getTimestamp(pos, precision);
    }

    @Override
    public <T> RawValueData<T> getRawValue(int pos) {
        return row.getRawValue(pos);
    }

    @Override
    public ArrayData getArray(int pos) {
        return row.getArray(pos);
    }

    @Override
    public MapData getMap(int pos) {
        return row.getMap(pos);
    }

    @Override
    public RowData getRow(int pos, int numFields) {
        return row.getRow(pos, numFields);
    }

    @Override
    public Variant getVariant(int pos) {
        return row.getVariant(pos);
    }
}
