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
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.read.ReadRequest;

import org.apache.flink.core.fs.Path;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paimon 1.4.2 writes a data-evolution table with every primitive type over three partitions (NULL
 * included), then three partial-column updates on different and on the same columns, with explicit
 * NULLs. Dovetail's read must equal Paimon's own read row by row, with {@code _ROW_ID} and {@code
 * _SEQUENCE_NUMBER}, for full scans, projections, {@code _ROW_ID} ranges and partition filters (the
 * last two against Paimon's full read filtered in memory: Paimon 1.4.2 itself mis-numbers rows
 * under filters).
 */
class ReadAllPrimitiveTypesFromPaimonTest {

    private static final String TABLE = "all_types";
    private static final Pattern ROW_ID = Pattern.compile("_ROW_ID=(\\d+)");

    @TempDir static java.nio.file.Path warehouse;

    private static PaimonWorkbench paimon;
    private static TableStore dovetail;

    @BeforeAll
    static void writeWithPaimon() throws Exception {
        paimon = new PaimonWorkbench(warehouse);
        paimon.createTable(
                TABLE,
                PaimonWorkbench.dataEvolutionSchema()
                        .column("id", DataTypes.BIGINT())
                        .column("i8", DataTypes.TINYINT())
                        .column("i16", DataTypes.SMALLINT())
                        .column("i32", DataTypes.INT())
                        .column("f32", DataTypes.FLOAT())
                        .column("f64", DataTypes.DOUBLE())
                        .column("dec5", DataTypes.DECIMAL(5, 2))
                        .column("dec18", DataTypes.DECIMAL(18, 4))
                        .column("dec38", DataTypes.DECIMAL(38, 10))
                        .column("ch", DataTypes.CHAR(5))
                        .column("vc", DataTypes.VARCHAR(20))
                        .column("s", DataTypes.STRING())
                        .column("bin", DataTypes.BINARY(4))
                        .column("bytes", DataTypes.BYTES())
                        .column("flag", DataTypes.BOOLEAN())
                        .column("day", DataTypes.DATE())
                        .column("tod", DataTypes.TIME())
                        .column("ts3", DataTypes.TIMESTAMP(3))
                        .column("ts6", DataTypes.TIMESTAMP(6))
                        .column("ts9", DataTypes.TIMESTAMP(9))
                        .column("ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
                        .column("ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
                        .column("part", DataTypes.STRING())
                        .partitionKeys("part")
                        .build());
        for (int commit = 0; commit < 2; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                rows.add(row(commit * 9L + i));
            }
            paimon.append(TABLE, rows);
        }
        paimon.updateColumns(
                TABLE,
                List.of("s", "i32"),
                (rowId, row) ->
                        new Object[] {BinaryString.fromString("s-v2-" + rowId), -rowId.intValue()});
        paimon.updateColumns(
                TABLE,
                List.of("dec38", "ts9"),
                (rowId, row) ->
                        rowId % 2 == 0
                                ? new Object[] {null, null}
                                : new Object[] {
                                    Decimal.fromBigDecimal(
                                            new BigDecimal("-1234567890123456789.0123456789"),
                                            38,
                                            10),
                                    Timestamp.fromEpochMillis(-86_400_000L * rowId, 123_456)
                                });
        paimon.updateColumns(
                TABLE,
                List.of("s"),
                (rowId, row) ->
                        new Object[] {rowId % 3 == 0 ? null : BinaryString.fromString("s-v3")});
        dovetail =
                TableStore.open(
                        new Warehouse(new Path(warehouse.toUri()))
                                .table(PaimonWorkbench.DB, TABLE));
    }

    private static GenericRow row(long id) {
        boolean nulls = id % 7 == 6;
        String[] parts = {"p1", "p2", null};
        return GenericRow.of(
                id,
                nulls ? null : (byte) (id - 4),
                nulls ? null : (short) (id * -1000),
                nulls ? null : (int) (id * 100_000),
                nulls ? null : id / 3.0f,
                nulls ? null : id * 1e10,
                nulls ? null : Decimal.fromBigDecimal(new BigDecimal(id + ".25"), 5, 2),
                nulls
                        ? null
                        : Decimal.fromBigDecimal(new BigDecimal("-" + id + "1234.5678"), 18, 4),
                nulls
                        ? null
                        : Decimal.fromBigDecimal(
                                new BigDecimal(id + "9876543210987654321.0123456789"), 38, 10),
                nulls ? null : BinaryString.fromString("c" + id),
                nulls ? null : BinaryString.fromString("varchar-" + id),
                nulls ? null : BinaryString.fromString("string-" + id),
                nulls ? null : new byte[] {1, 2, (byte) id, (byte) 0xff},
                nulls ? null : new byte[] {(byte) id, 0, (byte) 0x80},
                nulls ? null : id % 2 == 0,
                nulls ? null : (int) (19_000 - id * 400),
                nulls ? null : (int) (id * 3_600_123 % 86_400_000),
                nulls ? null : Timestamp.fromEpochMillis(-1_700_000_000_000L + id * 1001),
                // pre-1970 with a fractional second: flink-parquet's own INT64 decoder fails here
                nulls
                        ? null
                        : Timestamp.fromEpochMillis(
                                -1_000_000L * id, (int) (id * 1000 % 1_000_000)),
                nulls ? null : Timestamp.fromEpochMillis(1_600_000_000_000L + id, 999_999),
                nulls ? null : Timestamp.fromEpochMillis(1_700_000_000_000L - id * 60_000),
                nulls ? null : Timestamp.fromEpochMillis(1_700_000_000_000L, (int) (id * 1000)),
                parts[(int) (id % 3)] == null
                        ? null
                        : BinaryString.fromString(parts[(int) (id % 3)]));
    }

    private static String[] allColumns() {
        List<String> names = new ArrayList<>(dovetail.latestSchema().fieldNames());
        names.add("_ROW_ID");
        names.add("_SEQUENCE_NUMBER");
        return names.toArray(String[]::new);
    }

    @Test
    void fullScanEqualsPaimon() throws Exception {
        List<String> expected = TwoSidedReads.paimon(paimon.table(TABLE), allColumns());
        assertThat(expected).hasSize(18);
        assertThat(
                        TwoSidedReads.dovetail(
                                dovetail,
                                ReadRequest.allColumns(dovetail.latestSchema())
                                        .withColumns(allColumns())))
                .containsExactlyElementsOf(expected);
    }

    @Test
    void projectionsEqualPaimon() throws Exception {
        for (String[] columns :
                List.of(
                        new String[] {"s", "_ROW_ID"},
                        new String[] {"ts9", "dec38", "_ROW_ID"},
                        new String[] {"bin", "bytes", "ltz6", "tod"},
                        new String[] {"part", "i8"})) {
            assertThat(
                            TwoSidedReads.dovetail(
                                    dovetail,
                                    ReadRequest.allColumns(dovetail.latestSchema())
                                            .withColumns(columns)))
                    .as(String.join(",", columns))
                    .isEqualTo(TwoSidedReads.paimon(paimon.table(TABLE), columns));
        }
    }

    /**
     * Paimon 1.4.2 reports the sequence number of the newest file it opened for the projection;
     * Dovetail reports the newest normal file of the group whatever the projection (the value of
     * the full scan), as the semantics spec asks.
     */
    @Test
    void sequenceNumberDoesNotDependOnTheProjection() throws Exception {
        List<String> full =
                TwoSidedReads.dovetail(
                        dovetail,
                        ReadRequest.allColumns(dovetail.latestSchema())
                                .withColumns("_ROW_ID", "_SEQUENCE_NUMBER"));
        List<String> projected =
                TwoSidedReads.dovetail(
                        dovetail,
                        ReadRequest.allColumns(dovetail.latestSchema())
                                .withColumns("ts9", "_ROW_ID", "_SEQUENCE_NUMBER"));
        assertThat(projected).hasSameSizeAs(full);
        assertThat(full).allSatisfy(row -> assertThat(row).endsWith("_SEQUENCE_NUMBER=5"));
        assertThat(projected).allSatisfy(row -> assertThat(row).endsWith("_SEQUENCE_NUMBER=5"));
    }

    @Test
    void rowIdRangesSelectExactlyThoseRowsWithTheirRowIds() throws Exception {
        List<RowRange> ranges =
                List.of(new RowRange(2, 4), new RowRange(7, 7), new RowRange(15, 40));
        List<String> expected = new ArrayList<>();
        for (String row : TwoSidedReads.paimon(paimon.table(TABLE), allColumns())) {
            long rowId = rowId(row);
            if (ranges.stream().anyMatch(r -> r.contains(rowId))) {
                expected.add(row);
            }
        }
        assertThat(expected).hasSize(3 + 1 + 3);
        assertThat(
                        TwoSidedReads.dovetail(
                                dovetail,
                                ReadRequest.allColumns(dovetail.latestSchema())
                                        .withColumns(allColumns())
                                        .withRowRanges(ranges)))
                .isEqualTo(expected);
    }

    @Test
    void partitionFilterKeepsRowIds() throws Exception {
        List<String> expected =
                TwoSidedReads.paimon(paimon.table(TABLE), allColumns()).stream()
                        .filter(r -> r.contains("part=p2"))
                        .toList();
        assertThat(expected).hasSize(6);
        assertThat(
                        TwoSidedReads.dovetail(
                                dovetail,
                                ReadRequest.allColumns(dovetail.latestSchema())
                                        .withColumns(allColumns())
                                        .withPartitionFilter(
                                                p ->
                                                        !p.isNullAt(0)
                                                                && p.getString(0)
                                                                        .toString()
                                                                        .equals("p2"))))
                .isEqualTo(expected);
    }

    private static long rowId(String row) {
        Matcher m = ROW_ID.matcher(row);
        assertThat(m.find()).isTrue();
        return Long.parseLong(m.group(1));
    }
}
