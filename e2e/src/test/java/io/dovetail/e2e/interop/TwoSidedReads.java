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
package io.dovetail.e2e.interop;

import io.dovetail.e2e.paimon.PaimonWorkbench;
import io.dovetail.table.TableStore;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.table.source.ReadBuilder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The same table read by real Paimon and by Dovetail, both rendered as sorted row strings. */
final class TwoSidedReads {

    private TwoSidedReads() {}

    /** Paimon's own read of {@code columns} (table columns and system columns), rendered. */
    static List<String> paimon(FileStoreTable table, String... columns) throws Exception {
        org.apache.paimon.types.RowType full =
                SpecialFields.rowTypeWithRowTracking(table.rowType());
        org.apache.paimon.types.RowType readType = full.project(columns);
        ReadBuilder rb = table.newReadBuilder().withReadType(readType);
        List<String> out = new ArrayList<>();
        try (RecordReader<InternalRow> reader =
                rb.newRead().createReader(rb.newScan().plan().splits())) {
            reader.forEachRemaining(row -> out.add(PaimonWorkbench.render(readType, row)));
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** Dovetail's read of the latest snapshot, rendered like {@link PaimonWorkbench#render}. */
    static List<String> dovetail(TableStore dovetail, ReadRequest request) {
        ReadPlan plan = new ReadPlanner(dovetail).planLatest(request);
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

    /** The text form of {@link PaimonWorkbench#render}, for Flink rows. */
    private static String render(RowType type, RowData row) {
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
            return elements(array.getElementType(), (ArrayData) v).toString();
        }
        if (type instanceof MapType map) {
            MapData data = (MapData) v;
            List<String> keys = elements(map.getKeyType(), data.keyArray());
            List<String> values = elements(map.getValueType(), data.valueArray());
            List<String> items = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                items.add(keys.get(i) + "->" + values.get(i));
            }
            items.sort(Comparator.naturalOrder());
            return items.toString();
        }
        if (v instanceof byte[] bytes) {
            return "0x" + java.util.HexFormat.of().formatHex(bytes);
        }
        return String.valueOf(v);
    }

    private static List<String> elements(LogicalType type, ArrayData data) {
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(type);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            items.add(value(type, getter.getElementOrNull(data, i)));
        }
        return items;
    }
}
