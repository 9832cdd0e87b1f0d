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
package io.dovetail.flink.merge.keyjoin;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SourceRowsByKeyTest {

    private static final int ROWS = 100_000; // many times the initial slots

    @Test
    void oneIntegralKeyIsHeldAsALongAndOthersAsBinaryRows() {
        assertThat(SourceRowsByKey.of(List.of(new BigIntType()))).isInstanceOf(LongKeyedRows.class);
        assertThat(SourceRowsByKey.of(List.of(new IntType()))).isInstanceOf(LongKeyedRows.class);
        assertThat(SourceRowsByKey.of(List.of(new VarCharType(10))))
                .isInstanceOf(BinaryKeyedRows.class);
        assertThat(SourceRowsByKey.of(List.of(new IntType(), new IntType())))
                .isInstanceOf(BinaryKeyedRows.class);
    }

    @Test
    void aBigintKeyFindsItsRowAndNothingElse() {
        RowDataSerializer rows = new RowDataSerializer(new BigIntType(), new BigIntType());
        SourceRowsByKey byKey = SourceRowsByKey.of(List.of(new BigIntType()));
        // keys spaced by a power of two and negative ones: what weak hashing stacks up
        for (long i = 0; i < ROWS; i++) {
            byKey.add(binary(rows, GenericRowData.of(key(i), i)));
        }
        BinaryRowData view = new BinaryRowData(2);
        for (long i = 0; i < ROWS; i++) {
            int entry = byKey.find(GenericRowData.of(key(i), -1L));
            assertThat(entry).isEqualTo(i);
            assertThat(byKey.row(entry, view).getLong(1)).isEqualTo(i);
            assertThat(byKey.duplicateOf(entry)).isEqualTo(-1);
        }
        assertThat(byKey.find(GenericRowData.of(1L, -1L))).isEqualTo(-1);
        assertThat(byKey.find(GenericRowData.of(key(ROWS), -1L))).isEqualTo(-1);
        assertThat(byKey.size()).isEqualTo(ROWS);
        // 28-byte records, an 8-byte address, slots at most half full: what the budget counts
        assertThat(byKey.heapBytes()).isBetween(ROWS * (28L + 8 + 32), ROWS * (28L + 16 + 64));
    }

    @Test
    void aTwoColumnKeyFindsItsRowAndNothingElse() {
        List<LogicalType> keyTypes = List.of(new VarCharType(20), new IntType());
        RowDataSerializer rows =
                new RowDataSerializer(new VarCharType(20), new IntType(), new BigIntType());
        SourceRowsByKey byKey = SourceRowsByKey.of(keyTypes);
        for (int i = 0; i < ROWS; i++) {
            byKey.add(binary(rows, GenericRowData.of(text(i % 7), i / 7, (long) i)));
        }
        BinaryRowData view = new BinaryRowData(3);
        for (int i = 0; i < ROWS; i++) {
            int entry = byKey.find(GenericRowData.of(text(i % 7), i / 7, "other fields"));
            assertThat(byKey.row(entry, view).getLong(2)).isEqualTo(i);
            assertThat(view.getString(0)).isEqualTo(text(i % 7));
        }
        assertThat(byKey.find(GenericRowData.of(text(7), 0, null))).isEqualTo(-1);
        assertThat(byKey.find(GenericRowData.of(text(0), ROWS, null))).isEqualTo(-1);
    }

    @Test
    void aKeyGivenTwiceKeepsBothRowsForTheError() {
        for (List<LogicalType> keyTypes :
                List.of(
                        List.<LogicalType>of(new BigIntType()),
                        List.of(new BigIntType(), new IntType()))) {
            RowDataSerializer rows =
                    new RowDataSerializer(new BigIntType(), new IntType(), new BigIntType());
            SourceRowsByKey byKey = SourceRowsByKey.of(keyTypes);
            for (long i = 0; i < 10_000; i++) {
                byKey.add(binary(rows, GenericRowData.of(i % 9_000, 0, i)));
            }
            BinaryRowData view = new BinaryRowData(3);
            int first = byKey.find(GenericRowData.of(500L, 0, null));
            int second = byKey.duplicateOf(first);
            assertThat(byKey.row(first, view).getLong(2)).as(keyTypes.toString()).isEqualTo(500);
            assertThat(byKey.row(second, view).getLong(2)).isEqualTo(9_500);
            assertThat(byKey.duplicateOf(byKey.find(GenericRowData.of(8_500L, 0, null))))
                    .isEqualTo(-1);
            assertThat(byKey.size()).isEqualTo(10_000);
        }
    }

    private static long key(long i) {
        return (i % 2 == 0 ? 1 : -1) * (i << 20);
    }

    private static StringData text(int i) {
        return StringData.fromString("key-" + i);
    }

    private static BinaryRowData binary(RowDataSerializer serializer, GenericRowData row) {
        return serializer.toBinaryRow(row); // reused buffer: the table must copy it
    }
}
