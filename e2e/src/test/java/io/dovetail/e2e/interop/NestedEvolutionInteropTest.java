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
package io.dovetail.e2e.interop;

import io.dovetail.e2e.paimon.PaimonWorkbench;
import io.dovetail.table.TableStore;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.schema.ColumnPosition;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.apache.paimon.data.GenericRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dovetail evolves nested columns between writes (a ROW field added, renamed, widened and dropped;
 * fields added to the ROW elements of an ARRAY and to the ROW values of a MAP) and updates a nested
 * column through the updater; Paimon 1.4.2 must read exactly Dovetail's rows. Then Paimon updates
 * the nested column, and Dovetail must read exactly Paimon's rows.
 */
class NestedEvolutionInteropTest {

    private static final String TABLE = "nested_by_dovetail";
    private static final String USER = "dovetail-nested-interop";

    @TempDir java.nio.file.Path warehouse;

    private TableStore store;
    private long identifier;

    @Test
    void nestedSchemaChangesReadTheSameOnBothSides() throws Exception {
        store =
                DovetailTables.create(
                        warehouse,
                        TABLE,
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT()),
                                new DataField(
                                        1,
                                        "v",
                                        DataTypes.ROW(
                                                new DataField(2, "a", DataTypes.INT()),
                                                new DataField(3, "b", DataTypes.STRING()))),
                                new DataField(
                                        4,
                                        "arr",
                                        DataTypes.ARRAY(
                                                DataTypes.ROW(
                                                        new DataField(5, "x", DataTypes.INT())))),
                                new DataField(
                                        6,
                                        "m",
                                        DataTypes.MAP(
                                                DataTypes.STRING(),
                                                DataTypes.ROW(
                                                        new DataField(7, "p", DataTypes.INT()))))),
                        List.of(),
                        Map.of());
        List<GenericRowData> first = new ArrayList<>();
        for (int id = 0; id < 4; id++) {
            first.add(
                    GenericRowData.of(
                            (long) id,
                            id == 3 ? null : GenericRowData.of(id, str("b" + id)),
                            new GenericArrayData(new Object[] {GenericRowData.of(id), null}),
                            new GenericMapData(Map.of(str("k" + id), GenericRowData.of(-id)))));
        }
        append(first);

        store.schemas()
                .commitChanges(
                        SchemaChange.addColumn(
                                List.of("v", "c"), DataTypes.BIGINT(), null, ColumnPosition.last()),
                        SchemaChange.renameColumn(List.of("v", "a"), "a2"),
                        SchemaChange.updateColumnType(List.of("v", "a2"), DataTypes.BIGINT()),
                        SchemaChange.dropColumn(List.of("v", "b")),
                        SchemaChange.addColumn(
                                List.of("arr", "element", "y"),
                                DataTypes.STRING(),
                                null,
                                ColumnPosition.first()),
                        SchemaChange.addColumn(
                                List.of("m", "value", "q"),
                                DataTypes.DOUBLE(),
                                null,
                                ColumnPosition.last()));
        List<GenericRowData> second = new ArrayList<>();
        for (int id = 4; id < 6; id++) {
            second.add(
                    GenericRowData.of(
                            (long) id,
                            GenericRowData.of((long) id * 10, (long) id * 100),
                            new GenericArrayData(
                                    new Object[] {GenericRowData.of(str("y" + id), id)}),
                            new GenericMapData(
                                    Map.of(str("k" + id), GenericRowData.of(-id, id + 0.5)))));
        }
        append(second);

        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            List<String> rows = dovetailRows();
            assertThat(rows)
                    .contains(
                            "id=1, v={a2=1, c=null}, arr=[{y=null, x=1}, null],"
                                    + " m=[k1->{p=-1, q=null}], _ROW_ID=1, _SEQUENCE_NUMBER=1");
            assertThat(paimon.readRowsWithRowTracking(TABLE)).isEqualTo(rows);

            Snapshot base = store.latestSnapshot().orElseThrow();
            List<RowUpdate> updates =
                    List.of(
                            new RowUpdate(0, GenericRowData.of(GenericRowData.of(70L, 77L))),
                            new RowUpdate(3, GenericRowData.of(GenericRowData.of(null, 33L))),
                            new RowUpdate(5, GenericRowData.of((Object) null)));
            ColumnUpdater.on(store, base, List.of("v"))
                    .commit(USER, ++identifier, updates.iterator())
                    .orElseThrow();
            rows = dovetailRows();
            assertThat(rows).anyMatch(r -> r.startsWith("id=3, v={a2=null, c=33}"));
            assertThat(paimon.readRowsWithRowTracking(TABLE)).isEqualTo(rows);

            paimon.updateColumns(
                    TABLE,
                    List.of("v"),
                    (rowId, row) -> new Object[] {GenericRow.of(rowId, rowId * 2)});
            List<String> afterPaimon = paimon.readRowsWithRowTracking(TABLE);
            assertThat(afterPaimon).anyMatch(r -> r.startsWith("id=5, v={a2=5, c=10}"));
            assertThat(dovetailRows()).isEqualTo(afterPaimon);
        }
    }

    private void append(List<GenericRowData> rows) {
        DovetailTables.append(store, USER, ++identifier, GenericRowData.of(), rows);
    }

    private List<String> dovetailRows() {
        return TwoSidedReads.dovetail(
                store, ReadRequest.allColumns(store.latestSchema()).withRowTracking());
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
