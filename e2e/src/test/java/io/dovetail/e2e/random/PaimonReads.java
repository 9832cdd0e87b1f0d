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
package io.dovetail.e2e.random;

import io.dovetail.e2e.paimon.PaimonWorkbench;

import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.InternalRowUtils;

import java.util.ArrayList;
import java.util.List;

/**
 * Apache Paimon 1.4.2's own read of a table (its Java API, every column and {@code _ROW_ID}),
 * rendered like the model: the judge of whether what Dovetail wrote is what Paimon reads.
 */
final class PaimonReads {

    private PaimonReads() {}

    /** Paimon's column names, in order. */
    static List<String> columns(PaimonWorkbench paimon, String table) throws Exception {
        return paimon.table(table).rowType().getFieldNames();
    }

    static List<String> rows(PaimonWorkbench paimon, String table) throws Exception {
        FileStoreTable t = paimon.table(table);
        RowType full = SpecialFields.rowTypeWithRowTracking(t.rowType());
        List<String> columns = new ArrayList<>();
        columns.add(SpecialFields.ROW_ID.name());
        columns.addAll(t.rowType().getFieldNames());
        RowType readType = full.project(columns);
        ReadBuilder rb = t.newReadBuilder().withReadType(readType);
        List<String> out = new ArrayList<>();
        try (RecordReader<InternalRow> reader =
                rb.newRead().createReader(rb.newScan().plan().splits())) {
            reader.forEachRemaining(row -> out.add(render(readType, row, " | ")));
        }
        out.sort(null);
        return out;
    }

    private static String render(RowType type, InternalRow row, String separator) {
        List<String> fields = new ArrayList<>();
        List<DataField> typeFields = type.getFields();
        for (int i = 0; i < typeFields.size(); i++) {
            DataType fieldType = typeFields.get(i).type();
            Object value = InternalRowUtils.get(row, i, fieldType);
            if (value == null) {
                fields.add("null");
            } else if (fieldType instanceof RowType nested) {
                fields.add("{" + render(nested, (InternalRow) value, ", ") + "}");
            } else {
                fields.add(value.toString());
            }
        }
        return String.join(separator, fields);
    }
}
