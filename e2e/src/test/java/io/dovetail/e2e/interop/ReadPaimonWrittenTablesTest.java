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

import io.dovetail.e2e.paimon.PaimonScenarios;
import io.dovetail.e2e.paimon.PaimonWorkbench;
import io.dovetail.table.TableStore;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.read.ReadRequest;

import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paimon 1.4.2 writes a data-evolution table (appends over 5 partitions, partial updates on
 * different and the same columns with explicit NULLs, add / rename / drop / reorder / type change,
 * nested ROW / ARRAY / MAP columns); Dovetail's read path must return the same rows as Paimon's own
 * read, row by row, {@code _ROW_ID} and {@code _SEQUENCE_NUMBER} included.
 */
class ReadPaimonWrittenTablesTest {

    private static final String TABLE = "evolved";

    @TempDir static java.nio.file.Path warehouse;

    private static PaimonWorkbench paimon;
    private static TableStore dovetail;

    @BeforeAll
    static void writeWithPaimon() throws Exception {
        paimon = new PaimonWorkbench(warehouse);
        PaimonScenarios.evolvedPartitionedTable(paimon, TABLE);
        dovetail =
                TableStore.open(
                        new Warehouse(new Path(warehouse.toUri()))
                                .table(PaimonWorkbench.DB, TABLE));
    }

    @Test
    void fullScanWithRowTrackingEqualsPaimonsRead() throws Exception {
        String[] all = allColumns();
        assertThat(all).contains("nested", "tags", "attrs", "_ROW_ID", "_SEQUENCE_NUMBER");
        List<String> expected = paimonRead(all);
        assertThat(expected).hasSize(15);
        assertThat(read(request().withColumns(all))).containsExactlyElementsOf(expected);
    }

    @Test
    void projectionsEqualPaimonsProjectedRead() throws Exception {
        for (String[] columns :
                List.of(
                        new String[] {"extra", "title", "_ROW_ID"},
                        new String[] {"small", "p_str", "_ROW_ID"},
                        new String[] {"attrs", "nested", "_ROW_ID"},
                        new String[] {"tags"},
                        new String[] {"p_ts", "score"})) {
            assertThat(read(request().withColumns(columns)))
                    .as(String.join(",", columns))
                    .isEqualTo(paimonRead(columns));
        }
    }

    /** The table's columns in schema order, then {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}. */
    private static String[] allColumns() {
        List<String> names = new ArrayList<>(dovetail.latestSchema().fieldNames());
        names.add("_ROW_ID");
        names.add("_SEQUENCE_NUMBER");
        return names.toArray(String[]::new);
    }

    private static ReadRequest request() {
        return ReadRequest.allColumns(dovetail.latestSchema());
    }

    @Test
    void onlyTheAddedColumnReturnsEveryRow() {
        List<String> actual =
                read(
                        ReadRequest.allColumns(dovetail.latestSchema())
                                .withColumns("extra", "_ROW_ID"));
        assertThat(actual).hasSize(15);
        assertThat(actual).contains("extra=extra-0, _ROW_ID=0", "extra=extra-14, _ROW_ID=14");
    }

    private static List<String> paimonRead(String[] columns) throws Exception {
        return TwoSidedReads.paimon(paimon.table(TABLE), columns);
    }

    private static List<String> read(ReadRequest request) {
        return TwoSidedReads.dovetail(dovetail, request);
    }
}
