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
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.testing.RenderedReads;

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
        return RenderedReads.read(new ReadPlanner(dovetail).planLatest(request));
    }
}
