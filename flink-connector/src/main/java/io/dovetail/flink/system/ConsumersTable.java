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
package io.dovetail.flink.system;

import io.dovetail.table.TableStore;
import io.dovetail.table.snapshot.Consumers;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

import static io.dovetail.flink.system.Values.string;

/**
 * {@code t$consumers} (Paimon's columns): every streaming consumer and job pin of the table with
 * the next snapshot it reads (a pin: the snapshot it keeps), ordered by id.
 */
final class ConsumersTable implements SystemTable {

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("consumer_id", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD(
                                            "next_snapshot_id", DataTypes.BIGINT().notNull()))
                            .notNull()
                            .getLogicalType();

    @Override
    public String name() {
        return "consumers";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }

    @Override
    public List<RowData> rows(TableStore store, @Nullable Snapshot snapshot) {
        List<RowData> rows = new ArrayList<>();
        new Consumers(store.paths())
                .all()
                .forEach((id, next) -> rows.add(GenericRowData.of(string(id), next)));
        return rows;
    }
}
