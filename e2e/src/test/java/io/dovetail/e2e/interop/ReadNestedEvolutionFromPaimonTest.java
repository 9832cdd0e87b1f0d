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
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.read.ReadRequest;

import org.apache.flink.core.fs.Path;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paimon 1.4.2 evolves nested columns of a data-evolution table between writes: a field added to a
 * ROW, a nested field renamed, dropped and widened, a field added to the ROW elements of an ARRAY
 * and to the ROW values of a MAP, plus a partial update of a nested column after the changes.
 * Dovetail must read every generation of files under the latest schema exactly as Paimon does.
 */
class ReadNestedEvolutionFromPaimonTest {

    private static final String TABLE = "nested_evolution";

    @TempDir static java.nio.file.Path warehouse;

    private static final String[] ALL = {"id", "v", "arr", "m", "_ROW_ID", "_SEQUENCE_NUMBER"};

    private static PaimonWorkbench paimon;
    private static TableStore dovetail;
    private static List<String> paimonBeforeUpdate;
    private static List<String> dovetailBeforeUpdate;

    @BeforeAll
    static void writeWithPaimon() throws Exception {
        paimon = new PaimonWorkbench(warehouse);
        paimon.createTable(
                TABLE,
                PaimonWorkbench.dataEvolutionSchema()
                        .column("id", DataTypes.INT())
                        .column(
                                "v",
                                DataTypes.ROW(
                                        DataTypes.FIELD(1, "a", DataTypes.INT()),
                                        DataTypes.FIELD(2, "b", DataTypes.STRING()),
                                        DataTypes.FIELD(3, "s", DataTypes.SMALLINT())))
                        .column(
                                "arr",
                                DataTypes.ARRAY(
                                        DataTypes.ROW(
                                                DataTypes.FIELD(5, "x", DataTypes.INT()),
                                                DataTypes.FIELD(6, "y", DataTypes.STRING()))))
                        .column(
                                "m",
                                DataTypes.MAP(
                                        DataTypes.STRING(),
                                        DataTypes.ROW(
                                                DataTypes.FIELD(8, "p", DataTypes.INT()),
                                                DataTypes.FIELD(9, "q", DataTypes.INT()))))
                        .build());
        List<GenericRow> first = new ArrayList<>();
        for (int id = 0; id < 4; id++) {
            first.add(
                    GenericRow.of(
                            id,
                            id == 3 ? null : GenericRow.of(id, str("b" + id), (short) (id * 10)),
                            new GenericArray(new Object[] {GenericRow.of(id, str("y" + id)), null}),
                            new GenericMap(Map.of(str("k" + id), GenericRow.of(id, -id)))));
        }
        paimon.append(TABLE, first);

        paimon.alter(
                TABLE,
                SchemaChange.addColumn(new String[] {"v", "c"}, DataTypes.BIGINT(), null, null));
        paimon.alter(TABLE, SchemaChange.renameColumn(new String[] {"v", "a"}, "a2"));
        paimon.alter(TABLE, SchemaChange.dropColumn(new String[] {"v", "b"}));
        paimon.alter(
                TABLE,
                SchemaChange.updateColumnType(new String[] {"v", "s"}, DataTypes.INT(), true));
        paimon.alter(
                TABLE,
                SchemaChange.addColumn(
                        new String[] {"arr", "element", "z"}, DataTypes.STRING(), null, null));
        paimon.alter(
                TABLE,
                SchemaChange.addColumn(
                        new String[] {"m", "value", "r"}, DataTypes.DOUBLE(), null, null));

        List<GenericRow> second = new ArrayList<>();
        for (int id = 4; id < 7; id++) {
            second.add(
                    GenericRow.of(
                            id,
                            GenericRow.of(id, id * 100, (long) id * 1000),
                            new GenericArray(
                                    new Object[] {GenericRow.of(id, str("y" + id), str("z" + id))}),
                            new GenericMap(
                                    Map.of(str("k" + id), GenericRow.of(id, -id, id + 0.5)))));
        }
        paimon.append(TABLE, second);
        dovetail =
                TableStore.open(
                        new Warehouse(new Path(warehouse.toUri()))
                                .table(PaimonWorkbench.DB, TABLE));
        paimonBeforeUpdate = TwoSidedReads.paimon(paimon.table(TABLE), ALL);
        dovetailBeforeUpdate = read(ALL);
        paimon.updateColumns(
                TABLE,
                List.of("v"),
                (rowId, row) ->
                        new Object[] {
                            rowId % 2 == 0
                                    ? GenericRow.of((int) (rowId * 7), null, rowId * 11)
                                    : row.isNullAt(1) ? null : row.getRow(1, 3)
                        });
    }

    @Test
    void filesOfBothSchemasReadLikePaimonBeforeTheUpdate() {
        assertThat(paimonBeforeUpdate)
                .hasSize(7)
                .contains(
                        "id=0, v={a2=0, s=0, c=null}, arr=[{x=0, y=y0, z=null}, null],"
                                + " m=[k0->{p=0, q=0, r=null}], _ROW_ID=0, _SEQUENCE_NUMBER=1");
        assertThat(dovetailBeforeUpdate).containsExactlyElementsOf(paimonBeforeUpdate);
    }

    @Test
    void everyGenerationReadsLikePaimon() throws Exception {
        List<String> expected = TwoSidedReads.paimon(paimon.table(TABLE), ALL);
        assertThat(expected).hasSize(7);
        assertThat(expected)
                .contains(
                        "id=1, v={a2=1, s=10, c=null}, arr=[{x=1, y=y1, z=null}, null],"
                                + " m=[k1->{p=1, q=-1, r=null}], _ROW_ID=1, _SEQUENCE_NUMBER=3");
        assertThat(read(ALL)).containsExactlyElementsOf(expected);
    }

    @Test
    void nestedColumnsAloneReadLikePaimon() throws Exception {
        for (String[] columns :
                List.of(
                        new String[] {"v"},
                        new String[] {"arr", "_ROW_ID"},
                        new String[] {"m", "id"},
                        new String[] {"m", "v", "arr"})) {
            assertThat(read(columns))
                    .as(String.join(",", columns))
                    .isEqualTo(TwoSidedReads.paimon(paimon.table(TABLE), columns));
        }
    }

    private static List<String> read(String[] columns) {
        return TwoSidedReads.dovetail(
                dovetail, ReadRequest.allColumns(dovetail.latestSchema()).withColumns(columns));
    }

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }
}
