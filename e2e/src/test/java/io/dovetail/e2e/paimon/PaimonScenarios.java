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
package io.dovetail.e2e.paimon;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.types.DataTypes;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Tables written by real Paimon 1.4.2 for interop tests: appends over partitions of every
 * partitionable primitive type (NULLs included), partial-column updates on different and on the
 * same columns (explicit NULLs included), and every schema-evolution operation in between.
 */
public final class PaimonScenarios {

    /** Partition keys and their types, in partition order. */
    public static final List<String> PARTITION_KEYS =
            List.of("p_int", "p_big", "p_str", "p_date", "p_dec", "p_bool", "p_ts");

    private PaimonScenarios() {}

    /**
     * Builds table {@code name}: 3 appends (12 rows, 5 partitions incl. all-NULL and an escaped
     * string), 3 partial updates, then ADD / RENAME / DROP / reorder / type change, another append
     * and 2 more partial updates (one on a renamed column, one on the added column).
     */
    public static void evolvedPartitionedTable(PaimonWorkbench paimon, String name)
            throws Exception {
        evolvedPartitionedTable(paimon, name, "parquet");
    }

    /**
     * {@link #evolvedPartitionedTable(PaimonWorkbench, String)} with data files of {@code format}.
     */
    public static void evolvedPartitionedTable(PaimonWorkbench paimon, String name, String format)
            throws Exception {
        paimon.createTable(
                name,
                PaimonWorkbench.dataEvolutionSchema()
                        .option("file.format", format)
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("name", DataTypes.STRING())
                        .column("score", DataTypes.DOUBLE())
                        .column("small", DataTypes.INT())
                        .column("amount", DataTypes.DECIMAL(12, 3))
                        .column(
                                "nested",
                                DataTypes.ROW(
                                        DataTypes.FIELD(0, "x", DataTypes.INT()),
                                        DataTypes.FIELD(1, "y", DataTypes.STRING())))
                        .column("tags", DataTypes.ARRAY(DataTypes.STRING()))
                        .column("attrs", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
                        .column("p_int", DataTypes.INT())
                        .column("p_big", DataTypes.BIGINT())
                        .column("p_str", DataTypes.STRING())
                        .column("p_date", DataTypes.DATE())
                        .column("p_dec", DataTypes.DECIMAL(10, 2))
                        .column("p_bool", DataTypes.BOOLEAN())
                        .column("p_ts", DataTypes.TIMESTAMP(3))
                        .partitionKeys(PARTITION_KEYS)
                        .comment("interop table")
                        .build());
        long id = 0;
        for (int commit = 0; commit < 3; commit++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int i = 0; i < 4; i++, id++) {
                rows.add(baseRow(id, (int) (id % 5)));
            }
            paimon.append(name, rows);
        }
        paimon.updateColumns(
                name, List.of("name"), (rowId, row) -> new Object[] {str("name-v2-" + rowId)});
        paimon.updateColumns(
                name,
                List.of("score", "small"),
                (rowId, row) -> new Object[] {rowId * 1.5, (int) (rowId * 100)});
        paimon.updateColumns(
                name,
                List.of("name"),
                (rowId, row) -> new Object[] {rowId % 3 == 0 ? null : str("name-v3-" + rowId)});

        paimon.alter(name, SchemaChange.addColumn("extra", DataTypes.STRING()));
        paimon.alter(name, SchemaChange.renameColumn("name", "title"));
        paimon.alter(name, SchemaChange.dropColumn("amount"));
        paimon.alter(name, SchemaChange.updateColumnPosition(SchemaChange.Move.first("score")));
        paimon.alter(name, SchemaChange.updateColumnType("small", DataTypes.BIGINT()));
        paimon.alter(name, SchemaChange.setOption("snapshot.num-retained.min", "20"));

        List<GenericRow> more = new ArrayList<>();
        for (int i = 0; i < 3; i++, id++) {
            more.add(evolvedRow(id, (int) (id % 5)));
        }
        paimon.append(name, more);
        paimon.updateColumns(
                name, List.of("title"), (rowId, row) -> new Object[] {str("title-" + rowId)});
        paimon.updateColumns(
                name, List.of("extra"), (rowId, row) -> new Object[] {str("extra-" + rowId)});
    }

    private static GenericRow baseRow(long id, int partition) {
        Object[] p = partitionValues(partition);
        return GenericRow.of(
                id,
                str("name-" + id),
                id * 0.5,
                (int) id,
                Decimal.fromBigDecimal(new BigDecimal(id + ".125"), 12, 3),
                GenericRow.of((int) id, str("y" + id)),
                new GenericArray(new Object[] {str("t" + id), null}),
                new GenericMap(Map.of(str("k" + id), (int) id)),
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                p[5],
                p[6]);
    }

    /**
     * A row of the evolved schema: score, id, title, small (BIGINT), nested, tags, attrs,
     * partitions, extra.
     */
    private static GenericRow evolvedRow(long id, int partition) {
        Object[] p = partitionValues(partition);
        return GenericRow.of(
                id * 0.5,
                id,
                str("title-new-" + id),
                id * 1000L,
                GenericRow.of((int) id, str("y" + id)),
                new GenericArray(new Object[] {str("t" + id)}),
                new GenericMap(Map.of(str("k" + id), (int) id)),
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                p[5],
                p[6],
                str("extra-new-" + id));
    }

    /**
     * Five partitions: plain values, negative values, an escaped string, empty string, all NULL.
     */
    private static Object[] partitionValues(int k) {
        switch (k) {
            case 0:
                return new Object[] {
                    1, 10L, str("a"), date(2024, 1, 31), dec("12.34"), true, ts(1_700_000_000_000L)
                };
            case 1:
                return new Object[] {
                    -7,
                    -10_000_000_000L,
                    str("a/b=c"),
                    date(1969, 12, 31),
                    dec("-0.50"),
                    false,
                    ts(1_700_000_000_005L)
                };
            case 2:
                return new Object[] {
                    2, 20L, str("ünï cödé #%?"), date(2000, 2, 29), dec("0.00"), true, ts(0L)
                };
            case 3:
                return new Object[] {
                    3, 30L, str(""), date(2024, 6, 1), dec("99.99"), false, ts(-1L)
                };
            default:
                return new Object[] {null, null, null, null, null, null, null};
        }
    }

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    private static int date(int y, int m, int d) {
        return (int) LocalDate.of(y, m, d).toEpochDay();
    }

    private static Decimal dec(String v) {
        return Decimal.fromBigDecimal(new BigDecimal(v), 10, 2);
    }

    private static Timestamp ts(long millis) {
        return Timestamp.fromEpochMillis(millis);
    }
}
