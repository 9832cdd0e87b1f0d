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
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.testing.DataEvolutionTables;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables of {@code (id BIGINT, caption STRING)} for tests of column updates, whose rows' ids are
 * their row ids.
 */
final class CaptionTables {

    private CaptionTables() {}

    /**
     * Creates the table at {@code store} with {@code rows} rows appended in {@code groups} commits
     * (one group each), captions {@code initial}.
     */
    static void create(TableStore store, int rows, int groups, String initial) {
        TableSchema schema =
                DataEvolutionTables.create(
                        store,
                        new DataField(0, "id", DataTypes.BIGINT()),
                        new DataField(1, "caption", DataTypes.STRING()));
        int perGroup = rows / groups;
        for (int group = 0; group < groups; group++) {
            List<RowData> appended = new ArrayList<>();
            for (long id = (long) group * perGroup; id < (group + 1L) * perGroup; id++) {
                appended.add(
                        GenericRowData.of(
                                id, initial == null ? null : StringData.fromString(initial)));
            }
            DataEvolutionTables.append(store, schema, group + 1, appended);
        }
    }

    /** Row id -> caption of the latest snapshot, checking that each row's id is its row id. */
    static Map<Long, String> captions(TableStore store) {
        ReadRequest request = ReadRequest.allColumns(store.latestSchema()).withRowTracking();
        Map<Long, String> captions = new HashMap<>();
        ReadPlan plan = new ReadPlanner(store).planLatest(request);
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan, split)) {
                for (ReadBatch batch = reader.nextBatch();
                        batch != null;
                        batch = reader.nextBatch()) {
                    for (int i = 0; i < batch.size(); i++) {
                        RowData row = batch.row(i);
                        assertThat(row.getLong(0)).isEqualTo(row.getLong(2));
                        captions.put(
                                row.getLong(2),
                                row.isNullAt(1) ? null : row.getString(1).toString());
                    }
                }
            }
        }
        return captions;
    }
}
