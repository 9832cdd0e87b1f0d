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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paimon 1.4.2 writes a data-evolution table (appends over 5 partitions, partial updates on
 * different and the same columns with explicit NULLs, add / rename / drop / reorder / type change,
 * nested ROW / ARRAY / MAP columns), once with Parquet and once with ORC data files; Dovetail's
 * read path must return the same rows as Paimon's own read, row by row, {@code _ROW_ID} and {@code
 * _SEQUENCE_NUMBER} included.
 */
class ReadPaimonWrittenTablesTest {

    private static final List<String> FORMATS = List.of("parquet", "orc");

    @TempDir static java.nio.file.Path warehouse;

    private static PaimonWorkbench paimon;
    private static final Map<String, TableStore> dovetail = new HashMap<>();

    @BeforeAll
    static void writeWithPaimon() throws Exception {
        paimon = new PaimonWorkbench(warehouse);
        for (String format : FORMATS) {
            PaimonScenarios.evolvedPartitionedTable(paimon, table(format), format);
            dovetail.put(
                    format,
                    TableStore.open(
                            new Warehouse(new Path(warehouse.toUri()))
                                    .table(PaimonWorkbench.DB, table(format))));
        }
    }

    private static String table(String format) {
        return "evolved_" + format;
    }

    @ParameterizedTest
    @FieldSource("FORMATS")
    void fullScanWithRowTrackingEqualsPaimonsRead(String format) throws Exception {
        String[] all = allColumns(format);
        assertThat(all).contains("nested", "tags", "attrs", "_ROW_ID", "_SEQUENCE_NUMBER");
        List<String> expected = paimonRead(format, all);
        assertThat(expected).hasSize(15);
        assertThat(read(format, request(format).withColumns(all)))
                .containsExactlyElementsOf(expected);
        assertThat(
                        dovetail.get(format)
                                .files(dovetail.get(format).latestSnapshot().orElseThrow())
                                .liveFiles())
                .allSatisfy(e -> assertThat(e.file().fileName()).endsWith("." + format));
    }

    @ParameterizedTest
    @FieldSource("FORMATS")
    void projectionsEqualPaimonsProjectedRead(String format) throws Exception {
        for (String[] columns :
                List.of(
                        new String[] {"extra", "title", "_ROW_ID"},
                        new String[] {"small", "p_str", "_ROW_ID"},
                        new String[] {"attrs", "nested", "_ROW_ID"},
                        new String[] {"tags"},
                        new String[] {"p_ts", "score"})) {
            assertThat(read(format, request(format).withColumns(columns)))
                    .as(String.join(",", columns))
                    .isEqualTo(paimonRead(format, columns));
        }
    }

    /** The table's columns in schema order, then {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}. */
    private static String[] allColumns(String format) {
        List<String> names = new ArrayList<>(dovetail.get(format).latestSchema().fieldNames());
        names.add("_ROW_ID");
        names.add("_SEQUENCE_NUMBER");
        return names.toArray(String[]::new);
    }

    private static ReadRequest request(String format) {
        return ReadRequest.allColumns(dovetail.get(format).latestSchema());
    }

    @ParameterizedTest
    @FieldSource("FORMATS")
    void onlyTheAddedColumnReturnsEveryRow(String format) {
        List<String> actual = read(format, request(format).withColumns("extra", "_ROW_ID"));
        assertThat(actual).hasSize(15);
        assertThat(actual).contains("extra=extra-0, _ROW_ID=0", "extra=extra-14, _ROW_ID=14");
    }

    /**
     * Paimon's read. Paimon takes partition columns from the partition, Dovetail from the file;
     * they differ only where ORC cannot store the value: a timestamp in the last second before 1970
     * with a fraction of a second, which ORC stores one second later.
     */
    private static List<String> paimonRead(String format, String[] columns) throws Exception {
        List<String> rows = TwoSidedReads.paimon(paimon.table(table(format)), columns);
        if (!format.equals("orc")) {
            return rows;
        }
        return rows.stream()
                .map(r -> r.replace("p_ts=1969-12-31T23:59:59.999", "p_ts=1970-01-01T00:00:00.999"))
                .sorted()
                .toList();
    }

    private static List<String> read(String format, ReadRequest request) {
        return TwoSidedReads.dovetail(dovetail.get(format), request);
    }
}
