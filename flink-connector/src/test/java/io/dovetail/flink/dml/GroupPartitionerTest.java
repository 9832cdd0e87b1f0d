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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Routing updates by group while appends add groups: a partitioner following appends learns of the
 * new groups when it meets their row ids and never moves a known group, so partitioners that learn
 * at different snapshots agree.
 */
class GroupPartitionerTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void followingAppendsAssignsNewGroupsWithoutMovingKnownOnes() {
        TableStore store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        TableSchema schema =
                DataEvolutionTables.create(store, new DataField(0, "id", DataTypes.BIGINT()));
        append(store, schema, 1, 30); // rows 0..29
        append(store, schema, 2, 10); // rows 30..39
        GroupPartitioner early = GroupPartitioner.followingAppends(store.paths(), 2);
        GroupPartitioner batch = new GroupPartitioner(store.paths(), 2);
        assertThat(early.partition(0L, 2)).isZero();
        assertThat(early.partition(35L, 2)).isEqualTo(1);

        append(store, schema, 3, 10); // rows 40..49
        assertThat(early.partition(45L, 2)).as("learnt: to the less loaded writer").isEqualTo(1);
        append(store, schema, 4, 10); // rows 50..59
        GroupPartitioner late = GroupPartitioner.followingAppends(store.paths(), 2);
        for (long rowId : new long[] {59, 45, 35, 0}) {
            assertThat(late.partition(rowId, 2))
                    .as("row %s", rowId)
                    .isEqualTo(early.partition(rowId, 2));
        }
        assertThat(late.partition(55L, 2)).isEqualTo(1); // loads 30 : 20 after rows 40..49
        assertThat(batch.partition(45L, 2))
                .as("a batch partitioner sends rows of no group to 0")
                .isZero();
        assertThat(early.partition(1_000L, 2)).as("a stale row id").isZero();
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
