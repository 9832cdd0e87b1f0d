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

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading a whole range for a rewrite: every row in order, or a clear error. */
class RangeRowsTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void readsEveryRowOfTheRangeInOrderAndRefusesGaps() {
        TestTable t =
                new TestTable(dir, List.of(new DataField(0, "v", DataTypes.INT())), List.of());
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            rows.add(GenericRowData.of(i * 10));
        }
        t.append(GenericRowData.of(), rows);
        List<DataField> fields = List.of(t.schema().fields().get(0), SystemFields.ROW_ID);
        FileGroup group =
                new ReadPlanner(t.store())
                        .planLatest(t.request().withFields(fields))
                        .splits()
                        .get(0)
                        .groups()
                        .get(0);

        List<Long> ids = new ArrayList<>();
        try (RangeRows range = RangeRows.open(fields, List.of(group), new RowRange(0, 4), "test")) {
            for (RowData row = range.next(); row != null; row = range.next()) {
                ids.add(row.getLong(1));
            }
        }
        assertThat(ids).containsExactly(0L, 1L, 2L, 3L, 4L);

        assertThatThrownBy(() -> drain(fields, group, new RowRange(0, 9)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("Cannot compact row range [0, 9]")
                .hasMessageContaining("the read ended before row id 5");
        assertThatThrownBy(() -> drain(fields, group, new RowRange(2, 6)))
                .hasMessageContaining("read row id 0 where 2 was due");
    }

    private static void drain(List<DataField> fields, FileGroup group, RowRange range) {
        try (RangeRows rows =
                RangeRows.open(fields, List.of(group), range, "compact row range " + range)) {
            while (rows.next() != null) {
                // reads to the end
            }
        }
    }
}
