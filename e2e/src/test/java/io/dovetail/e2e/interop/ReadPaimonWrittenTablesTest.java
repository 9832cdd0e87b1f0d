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
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.testing.FilterEvaluation;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.math.BigDecimal;
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

    /**
     * Filters over evolved, updated, widened, partition and system columns: the planner may only
     * skip groups the statistics Paimon wrote prove empty, so the rows matching each filter are
     * exactly those of the unfiltered read (which equals Paimon's read), and some groups are
     * skipped.
     */
    @ParameterizedTest
    @FieldSource("FORMATS")
    void filteredReadsKeepEveryMatchingRow(String format) throws Exception {
        TableSchema schema = dovetail.get(format).latestSchema();
        DataField id = schema.field("id").orElseThrow();
        DataField small = schema.field("small").orElseThrow();
        DataField score = schema.field("score").orElseThrow();
        DataField title = schema.field("title").orElseThrow();
        DataField extra = schema.field("extra").orElseThrow();
        DataField pInt = schema.field("p_int").orElseThrow();
        DataField pStr = schema.field("p_str").orElseThrow();
        DataField pDec = schema.field("p_dec").orElseThrow();
        List<Predicate> filters =
                List.of(
                        Predicate.equal(id, 3L),
                        Predicate.and(
                                Predicate.greaterOrEqual(id, 12L), Predicate.lessOrEqual(id, 14L)),
                        Predicate.greaterThan(small, 5000L),
                        Predicate.lessThan(score, 1.0),
                        Predicate.equal(title, StringData.fromString("title-5")),
                        Predicate.not(
                                Predicate.in(
                                        title,
                                        StringData.fromString("title-1"),
                                        StringData.fromString("title-2"))),
                        Predicate.isNull(extra),
                        Predicate.or(Predicate.equal(pInt, 1), Predicate.isNull(pStr)),
                        Predicate.greaterThan(
                                pDec, DecimalData.fromBigDecimal(new BigDecimal("0.50"), 10, 2)),
                        Predicate.and(
                                Predicate.greaterThan(SystemFields.ROW_ID, 9L),
                                Predicate.lessThan(SystemFields.ROW_ID, 13L)));
        ReadRequest all = request(format).withRowTracking();
        List<String> paimonRows = paimonRead(format, allColumns(format));
        ReadPlanner planner = new ReadPlanner(dovetail.get(format));
        long readUnfiltered = 0;
        long readFiltered = 0;
        for (Predicate filter : filters) {
            FilterEvaluation.Filtered full = FilterEvaluation.read(planner.planLatest(all), filter);
            FilterEvaluation.Filtered pruned =
                    FilterEvaluation.read(planner.planLatest(all.withFilter(filter)), filter);
            assertThat(pruned.matching()).as(filter.toString()).isEqualTo(full.matching());
            assertThat(paimonRows).containsAll(full.matching());
            readUnfiltered += full.rowsRead();
            readFiltered += pruned.rowsRead();
        }
        assertThat(readFiltered).isLessThan(readUnfiltered);
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

    /** Paimon's read (both take partition columns from the partition, not the file). */
    private static List<String> paimonRead(String format, String[] columns) throws Exception {
        return TwoSidedReads.paimon(paimon.table(table(format)), columns);
    }

    private static List<String> read(String format, ReadRequest request) {
        return TwoSidedReads.dovetail(dovetail.get(format), request);
    }
}
