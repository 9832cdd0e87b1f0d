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
package io.dovetail.table.testing;

import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * Reads a plan to text for tests: one sorted string per row, in the form the e2e module renders
 * Paimon's rows, so the two can be compared directly.
 */
public final class RenderedReads {

    private RenderedReads() {}

    /** Every row of every split of {@code plan}, rendered, sorted. */
    public static List<String> read(ReadPlan plan) {
        List<String> out = new ArrayList<>();
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan, split)) {
                for (ReadBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                    for (int i = 0; i < b.size(); i++) {
                        out.add(render(plan.rowType(), b.row(i)));
                    }
                }
            }
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** {@code name=value, ...}; nested values included, map entries sorted, binary in hex. */
    public static String render(RowType type, RowData row) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < type.getFieldCount(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            LogicalType t = type.getTypeAt(i);
            sb.append(type.getFieldNames().get(i))
                    .append('=')
                    .append(value(t, RowData.createFieldGetter(t, i).getFieldOrNull(row)));
        }
        return sb.toString();
    }

    private static String value(LogicalType type, Object v) {
        if (v == null) {
            return "null";
        }
        if (type instanceof RowType row) {
            return "{" + render(row, (RowData) v) + "}";
        }
        if (type instanceof ArrayType array) {
            ArrayData data = (ArrayData) v;
            ArrayData.ElementGetter getter = ArrayData.createElementGetter(array.getElementType());
            List<String> items = new ArrayList<>();
            for (int i = 0; i < data.size(); i++) {
                items.add(value(array.getElementType(), getter.getElementOrNull(data, i)));
            }
            return items.toString();
        }
        if (type instanceof MultisetType multiset) {
            return value(new MapType(multiset.getElementType(), new IntType(false)), v);
        }
        if (type instanceof MapType map) {
            MapData data = (MapData) v;
            ArrayData.ElementGetter k = ArrayData.createElementGetter(map.getKeyType());
            ArrayData.ElementGetter val = ArrayData.createElementGetter(map.getValueType());
            List<String> items = new ArrayList<>();
            for (int i = 0; i < data.size(); i++) {
                items.add(
                        value(map.getKeyType(), k.getElementOrNull(data.keyArray(), i))
                                + "->"
                                + value(
                                        map.getValueType(),
                                        val.getElementOrNull(data.valueArray(), i)));
            }
            items.sort(Comparator.naturalOrder());
            return items.toString();
        }
        if (v instanceof byte[] bytes) {
            return "0x" + HexFormat.of().formatHex(bytes);
        }
        return String.valueOf(v);
    }
}
