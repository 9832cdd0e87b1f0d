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
package io.dovetail.flink.dml;

import io.dovetail.table.update.RowUpdate;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChangesByGroupTest {

    private final ChangesByGroup changes =
            new ChangesByGroup(
                    List.of(new long[] {0, 9}, new long[] {10, 19}, new long[] {30, 34}),
                    (rowId, first, second) ->
                            new IllegalArgumentException(
                                    rowId + ": " + describe(first) + " then " + describe(second)));

    @Test
    void updatesComeOutInRowIdOrderAndDeletesApart() {
        for (long rowId : new long[] {33, 4, 12, 0, 30, 9}) {
            assertThat(changes.add(rowId, bigint(rowId * 10))).isTrue();
        }
        assertThat(changes.add(17, null)).isTrue();
        assertThat(changes.add(31, null)).isTrue();

        List<String> updates = new ArrayList<>();
        changes.updates()
                .forEachRemaining(u -> updates.add(u.rowId() + "=" + u.values().getLong(0)));
        assertThat(updates).containsExactly("0=0", "4=40", "9=90", "12=120", "30=300", "33=330");
        assertThat(changes.deletes().toArray()).containsExactly(17L, 31L);
        assertThat(changes.isEmpty()).isFalse();
    }

    @Test
    void rowIdsOutsideEveryGroupAreRefusedAndNotKept() {
        for (long stale : new long[] {-1, 20, 29, 35, 1_000}) {
            assertThat(changes.add(stale, bigint(1L))).as("row id " + stale).isFalse();
        }
        assertThat(changes.isEmpty()).isTrue();
        assertThat(changes.updates().hasNext()).isFalse();
        assertThat(changes.deletes().isEmpty()).isTrue();
    }

    @Test
    void aSecondChangeOfARowFailsNamingBoth() {
        changes.add(15, bigint(1L));
        assertThatThrownBy(() -> changes.add(15, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("15: 1 then delete");
        changes.add(34, null);
        assertThatThrownBy(() -> changes.add(34, bigint(7L))).hasMessage("34: delete then 7");
        List<RowUpdate> updates = new ArrayList<>();
        changes.updates().forEachRemaining(updates::add);
        assertThat(updates).extracting(RowUpdate::rowId).containsExactly(15L);
    }

    @Test
    void valuesSpanningManyChunksComeBackByteForByte() {
        RowDataSerializer strings = new RowDataSerializer(new VarCharType(VarCharType.MAX_LENGTH));
        ChangesByGroup many =
                new ChangesByGroup(
                        List.<long[]>of(new long[] {0, 2_999}),
                        (rowId, first, second) -> new IllegalStateException());
        for (long rowId = 2_999; rowId >= 0; rowId--) { // 3,000 x ~1 KB: several 1 MB chunks
            String text = rowId + ":" + "x".repeat((int) (rowId % 1_500));
            many.add(rowId, strings.toBinaryRow(GenericRowData.of(StringData.fromString(text))));
        }
        List<String> read = new ArrayList<>();
        many.updates().forEachRemaining(u -> read.add(u.rowId() + "|" + u.values().getString(0)));
        assertThat(read).hasSize(3_000);
        for (int rowId = 0; rowId < 3_000; rowId++) {
            assertThat(read.get(rowId))
                    .isEqualTo(rowId + "|" + rowId + ":" + "x".repeat(rowId % 1_500));
        }
    }

    private static BinaryRowData bigint(long value) {
        return new RowDataSerializer(new BigIntType()).toBinaryRow(GenericRowData.of(value)).copy();
    }

    private static String describe(RowData values) {
        return values == null ? "delete" : String.valueOf(values.getLong(0));
    }
}
