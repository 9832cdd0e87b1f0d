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

import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.schema.ColumnPosition;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.testing.RenderedReads;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Partition columns are read from the group's partition value (the manifest entry's partition row),
 * never from the data files: a file storing another value, a NULL partition, files of older schemas
 * and partial-column files all read the partition's value, and statistics pruning judges partition
 * columns by that value too.
 */
class PartitionColumnsReadTest {

    @TempDir java.nio.file.Path dir;

    private static final List<DataField> FIELDS =
            List.of(
                    new DataField(0, "id", DataTypes.INT()),
                    new DataField(1, "p", DataTypes.INT()));

    @Test
    void thePartitionValueWinsOverWhatTheFileStores() {
        TestTable t = new TestTable(dir, FIELDS, List.of("p"));
        t.append(GenericRowData.of(7), List.of(GenericRowData.of(1, 1), GenericRowData.of(2, 1)));
        DataField p = t.schema().field("p").orElseThrow();

        assertThat(t.read(t.request())).containsExactly("id=1, p=7", "id=2, p=7");
        ReadPlan onlyP = new ReadPlanner(t.store()).planLatest(t.request().withColumns("p"));
        assertThat(onlyP.splits().get(0).groups().get(0).files()).isEmpty();
        assertThat(RenderedReads.read(onlyP)).containsExactly("p=7", "p=7");
        assertThat(groups(t, Predicate.equal(p, 7))).isEqualTo(1);
        assertThat(groups(t, Predicate.equal(p, 1))).isZero();
    }

    @Test
    void aNullPartitionReadsAsNull() {
        TestTable t = new TestTable(dir, FIELDS, List.of("p"));
        t.append(GenericRowData.of((Object) null), List.of(GenericRowData.of(1, 3)));
        DataField p = t.schema().field("p").orElseThrow();

        assertThat(t.read(t.request().withColumns("p", "_ROW_ID")))
                .containsExactly("p=null, _ROW_ID=0");
        assertThat(groups(t, Predicate.isNull(p))).isEqualTo(1);
        assertThat(groups(t, Predicate.equal(p, 3))).isZero();
    }

    @Test
    void filesOfOlderSchemasAndPartialColumnFilesReadTheGroupsPartition() {
        TestTable t =
                new TestTable(
                        dir,
                        List.of(
                                new DataField(0, "id", DataTypes.INT()),
                                new DataField(1, "dt", DataTypes.STRING()),
                                new DataField(2, "v", DataTypes.INT())),
                        List.of("dt"));
        t.append(row("a"), List.of(row(1, "a", 10), row(2, "a", 20)));
        t.alter(
                SchemaChange.addColumn("w", DataTypes.INT()),
                SchemaChange.moveColumn("dt", ColumnPosition.first()));
        t.append(row("b"), List.of(row("b", 3, 30, 300)));
        t.update(row("a"), 0, List.of("v"), List.of(row(11), row(21)));

        assertThat(t.read(t.request().withColumns("dt", "v", "w", "_ROW_ID")))
                .containsExactly(
                        "dt=a, v=11, w=null, _ROW_ID=0",
                        "dt=a, v=21, w=null, _ROW_ID=1",
                        "dt=b, v=30, w=300, _ROW_ID=2");
    }

    /** ORC stores a timestamp in the last second before 1970 with a fraction one second later. */
    @ParameterizedTest
    @ValueSource(strings = {"parquet", "orc"})
    void aTimestampPartitionReadsAsThePartitionHoldsIt(String format) {
        TestTable t =
                new TestTable(
                        dir,
                        List.of(
                                new DataField(0, "id", DataTypes.INT()),
                                new DataField(1, "ts", DataTypes.TIMESTAMP(3))),
                        List.of("ts"),
                        Map.of("file.format", format));
        TimestampData ts =
                TimestampData.fromLocalDateTime(LocalDateTime.parse("1969-12-31T23:59:59.999"));
        t.append(GenericRowData.of(ts), List.of(GenericRowData.of(1, ts)));

        assertThat(t.read(t.request())).containsExactly("id=1, ts=1969-12-31T23:59:59.999");
        assertThat(groups(t, Predicate.equal(t.schema().field("ts").orElseThrow(), ts)))
                .isEqualTo(1);
    }

    private static int groups(TestTable t, Predicate filter) {
        ReadPlan plan = new ReadPlanner(t.store()).planLatest(t.request().withFilter(filter));
        return plan.splits().stream().mapToInt(s -> s.groups().size()).sum();
    }

    private static GenericRowData row(Object... values) {
        Object[] converted = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            converted[i] = values[i] instanceof String s ? StringData.fromString(s) : values[i];
        }
        return GenericRowData.of(converted);
    }
}
