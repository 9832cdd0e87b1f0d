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
package io.dovetail.flink.memory;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RowArenaTest {

    private final RowDataSerializer serializer =
            new RowDataSerializer(new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH));
    private final RowArena arena = new RowArena();

    @Test
    void rowsComeBackByIndexAcrossChunksIncludingOneLargerThanAChunk() {
        String large = "x".repeat(3 << 20);
        for (int i = 0; i < 30_000; i++) {
            assertThat(arena.add(row(i, i == 7_000 ? large : "value " + i))).isEqualTo(i);
        }
        assertThat(arena.add(null)).isEqualTo(30_000);

        assertThat(arena.size()).isEqualTo(30_001);
        BinaryRowData view = new BinaryRowData(2);
        for (int i = 0; i < 30_000; i++) {
            assertThat(arena.isNull(i)).isFalse();
            arena.pointTo(i, view);
            assertThat(view.getLong(0)).isEqualTo(i);
            assertThat(view.getString(1).toString()).isEqualTo(i == 7_000 ? large : "value " + i);
        }
        assertThat(arena.isNull(30_000)).isTrue();
        assertThat(arena.get(30_000)).isNull();
        assertThat(arena.get(29_999).getString(1).toString()).isEqualTo("value 29999");
    }

    @Test
    void theRowsAddedAreCopiesNotTheCallersBuffers() {
        BinaryRowData reused = row(1, "first");
        arena.add(reused);
        reused.setLong(0, 99);

        assertThat(arena.get(0).getLong(0)).isEqualTo(1);
    }

    @Test
    void aPairKeepsBothRows() {
        for (int i = 0; i < 5_000; i++) {
            arena.add(row(i, "key " + i), row(-i, "row " + i));
        }
        BinaryRowData first = new BinaryRowData(2);
        BinaryRowData second = new BinaryRowData(2);
        for (int i = 0; i < 5_000; i++) {
            arena.pointTo(i, first);
            arena.pointToSecond(i, second);
            assertThat(first.getString(1).toString()).isEqualTo("key " + i);
            assertThat(second.getLong(0)).isEqualTo(-i);
            assertThat(second.getString(1).toString()).isEqualTo("row " + i);
        }
    }

    private BinaryRowData row(long id, String text) {
        return serializer.toBinaryRow(GenericRowData.of(id, StringData.fromString(text))).copy();
    }
}
