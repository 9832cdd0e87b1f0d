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

import io.dovetail.table.TableStore;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.testing.DataEvolutionTables;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.InstantiationUtil;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Routing streaming updates by group key: the base snapshot's groups balanced by rows, every other
 * key by its hash; every partitioner computes the same writer for a key, whenever it is created.
 */
class GroupPartitionerTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void groupKeysGoToTheBaseGroupsWritersOrByHash() {
        TableStore store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        TableSchema schema =
                DataEvolutionTables.create(store, new DataField(0, "id", DataTypes.BIGINT()));
        append(store, schema, 1, 30); // rows 0..29
        append(store, schema, 2, 10); // rows 30..39
        append(store, schema, 3, 10); // rows 40..49
        GroupPartitioner early = GroupPartitioner.byGroupKey(store.paths(), 3);
        assertThat(early.partition(0L, 2)).as("the largest group first").isZero();
        assertThat(early.partition(30L, 2)).isEqualTo(1);
        assertThat(early.partition(40L, 2)).as("to the less loaded writer").isEqualTo(1);

        append(store, schema, 4, 10); // rows 50..59
        GroupPartitioner late = GroupPartitioner.byGroupKey(store.paths(), 3);
        for (long key : new long[] {0, 30, 40, 50, 1_000}) {
            assertThat(late.partition(key, 2)).as("key %s", key).isEqualTo(early.partition(key, 2));
            assertThat(late.partition(key, 3)).as("key %s", key).isBetween(0, 2);
        }
        assertThat(
                        java.util.stream.LongStream.range(0, 64)
                                .map(k -> early.partition(1_000 + k * 10, 2))
                                .sum())
                .as("keys outside the base spread over both writers")
                .isBetween(16L, 48L);
    }

    @Test
    void withoutItsBaseSnapshotEveryKeyGoesByHash() {
        TableStore store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        TableSchema schema =
                DataEvolutionTables.create(store, new DataField(0, "id", DataTypes.BIGINT()));
        append(store, schema, 1, 30);
        GroupPartitioner expired = GroupPartitioner.byGroupKey(store.paths(), 7);
        GroupPartitioner none = GroupPartitioner.byGroupKey(store.paths(), 0);
        for (long key = 0; key < 100; key += 10) {
            assertThat(expired.partition(key, 4)).isEqualTo(none.partition(key, 4));
        }
    }

    @Test
    void routesByTheRangesShippedInsideItWithoutReadingTheTable() throws Exception {
        TableStore store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        TableSchema schema =
                DataEvolutionTables.create(store, new DataField(0, "id", DataTypes.BIGINT()));
        append(store, schema, 1, 30); // rows 0..29
        append(store, schema, 2, 10); // rows 30..39
        append(store, schema, 3, 10); // rows 40..49
        GroupPartitioner built = new GroupPartitioner(store.paths(), 3);
        GroupPartitioner byPartition = GroupPartitioner.byTablePartition(store.paths(), 3);
        GroupPartitioner shipped = InstantiationUtil.clone(built);
        GroupPartitioner shippedByPartition = InstantiationUtil.clone(byPartition);
        try (java.util.stream.Stream<java.nio.file.Path> files = Files.walk(dir)) {
            for (java.nio.file.Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        assertThat(shipped.partition(5L, 2)).as("the largest group first").isZero();
        assertThat(shipped.partition(35L, 2)).isEqualTo(1);
        assertThat(shipped.partition(45L, 2)).as("to the less loaded writer").isEqualTo(1);
        assertThat(shipped.partition(50L, 2)).as("a row id in no group").isZero();
        assertThat(shipped.partition(35L, 3)).as("at another parallelism").isEqualTo(1);
        assertThat(shipped.partition(45L, 3)).isEqualTo(2);
        for (long rowId = 0; rowId < 50; rowId++) {
            assertThat(shippedByPartition.partition(rowId, 2))
                    .as("one table partition, one writer")
                    .isZero();
        }
    }

    private static void append(TableStore store, TableSchema schema, long identifier, int rows) {
        long first = store.snapshots().latestId().isPresent() ? rowCount(store) : 0;
        List<RowData> appended = new ArrayList<>();
        for (long id = first; id < first + rows; id++) {
            appended.add(GenericRowData.of(id));
        }
        DataEvolutionTables.append(store, schema, identifier, appended);
    }

    private static long rowCount(TableStore store) {
        return store.files(store.latestSnapshot().orElseThrow()).liveFiles().stream()
                .mapToLong(e -> e.file().rowCount())
                .sum();
    }
}
