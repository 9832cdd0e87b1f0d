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
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.testing.DataEvolutionTables;
import io.dovetail.table.testing.TestCompaction;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The router of streaming column updates keys each update by its group's first row id: appended
 * groups are learnt when their rows come, and the groups a compaction merged get the key of their
 * first part from the next checkpoint barrier on, never between two barriers.
 */
class ColumnUpdateRouterTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void keysFollowAppendsAtOnceAndCompactionsAtTheNextBarrier() throws Exception {
        TableStore store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        TableSchema schema =
                DataEvolutionTables.create(store, new DataField(0, "id", DataTypes.BIGINT()));
        append(store, schema, 1, 0, 10);
        append(store, schema, 2, 10, 10);
        try (OneInputStreamOperatorTestHarness<RowData, Tuple2<Long, RowData>> router =
                new OneInputStreamOperatorTestHarness<>(new ColumnUpdateRouter(store.paths()))) {
            router.open();
            assertThat(keys(router, 5, 15)).containsExactly(0L, 10L);

            new TableCommit(store)
                    .commit(
                            TestCompaction.rewrite(
                                    store,
                                    "compactor",
                                    store.latestSnapshot().orElseThrow(),
                                    new RowRange(0, 19)));
            append(store, schema, 3, 20, 10);
            assertThat(keys(router, 15, 25, 100))
                    .as("the new group is learnt; the merge waits for the barrier; 100 is stale")
                    .containsExactly(10L, 20L, 100L);

            router.prepareSnapshotPreBarrier(1);
            assertThat(keys(router, 15, 5, 25)).containsExactly(0L, 0L, 20L);
        }
    }

    private static List<Long> keys(
            OneInputStreamOperatorTestHarness<RowData, Tuple2<Long, RowData>> router,
            long... rowIds)
            throws Exception {
        router.getOutput().clear();
        for (long rowId : rowIds) {
            router.processElement(GenericRowData.of(rowId, 0L), 0);
        }
        List<Long> keys = new ArrayList<>();
        List<Tuple2<Long, RowData>> out = router.extractOutputValues();
        for (int i = 0; i < out.size(); i++) {
            assertThat(out.get(i).f1.getLong(0)).as("the update itself").isEqualTo(rowIds[i]);
            keys.add(out.get(i).f0);
        }
        return keys;
    }

    private static void append(
            TableStore store, TableSchema schema, long identifier, long first, int rows) {
        List<RowData> appended = new ArrayList<>();
        for (long id = first; id < first + rows; id++) {
            appended.add(GenericRowData.of(id));
        }
        DataEvolutionTables.append(store, schema, identifier, appended);
    }
}
