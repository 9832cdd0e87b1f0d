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
package io.dovetail.e2e.random;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Appends and overwrites: rows of keys {@code kStart .. kStart + n - 1} from a sequence table (a
 * bounded datagen table of Flink's default catalog), their values {@link Generated} from the key.
 */
final class InsertOps {

    private InsertOps() {}

    /** The temporary sequence table of keys, throttled to {@code rowsPerSecond} if positive. */
    static String sequence(long kStart, int n, int rowsPerSecond) {
        return "default_catalog.default_database."
                + (rowsPerSecond > 0 ? "slow_keys_" : "keys_")
                + kStart
                + "_"
                + n;
    }

    static String createSequence(long kStart, int n, int rowsPerSecond) {
        return "CREATE TEMPORARY TABLE IF NOT EXISTS "
                + sequence(kStart, n, rowsPerSecond)
                + " (k BIGINT) WITH ('connector' = 'datagen', 'fields.k.kind' = 'sequence',"
                + " 'fields.k.start' = '"
                + kStart
                + "', 'fields.k.end' = '"
                + (kStart + n - 1)
                + "', 'number-of-rows' = '"
                + n
                + "'"
                + (rowsPerSecond > 0 ? ", 'rows-per-second' = '" + rowsPerSecond + "'" : "")
                + ")";
    }

    /** {@code INSERT INTO t SELECT ...}: n new rows, batch or streaming. */
    static final class Insert extends Op {
        final String table;
        final long kStart;
        final int n;
        final Generated values;
        final int rowsPerSecond;

        Insert(String table, long kStart, int n, Generated values, int rowsPerSecond) {
            this.table = table;
            this.kStart = kStart;
            this.n = n;
            this.values = values;
            this.rowsPerSecond = rowsPerSecond;
        }

        @Override
        String kind() {
            return rowsPerSecond > 0 ? "streaming-insert" : "insert";
        }

        @Override
        boolean streaming() {
            return rowsPerSecond > 0;
        }

        @Override
        List<String> statements(ModelTable model) {
            return List.of(
                    createSequence(kStart, n, rowsPerSecond),
                    "INSERT INTO "
                            + Sql.name(table)
                            + " SELECT "
                            + values.selectList(model.schema, model.schema.columns())
                            + " FROM "
                            + sequence(kStart, n, rowsPerSecond));
        }

        @Override
        Effect effect(ModelTable base) {
            Effect effect = new Effect();
            for (long k = kStart; k < kStart + n; k++) {
                effect.inserts.add(new Effect.NewRow(k, values.row(base.schema, k)));
            }
            return effect;
        }
    }

    /**
     * {@code INSERT OVERWRITE}: of one partition ({@code PARTITION (p = 'x')}, emptied when no row
     * comes), of the partitions written (dynamic) or of the whole unpartitioned table.
     */
    static final class Overwrite extends Op {
        final String table;
        final long kStart;
        final int n;
        final Generated values;

        /** The static partition's value, or null for a dynamic (or unpartitioned) overwrite. */
        final String partition;

        final boolean empty;

        Overwrite(
                String table,
                long kStart,
                int n,
                Generated values,
                String partition,
                boolean empty) {
            this.table = table;
            this.kStart = kStart;
            this.n = n;
            this.values = values;
            this.partition = partition;
            this.empty = empty;
        }

        @Override
        String kind() {
            return partition != null ? "overwrite-partition" : "overwrite";
        }

        @Override
        boolean applicable(ModelTable model) {
            return partition == null || model.schema.partitioned();
        }

        @Override
        List<String> statements(ModelTable model) {
            ModelSchema schema = model.schema;
            List<Field> columns = new ArrayList<>(schema.columns());
            String target = Sql.name(table);
            if (partition != null) {
                columns.remove(schema.partition());
                target +=
                        " PARTITION ("
                                + Sql.name(ModelSchema.PARTITION)
                                + " = "
                                + Sql.string(partition)
                                + ")";
            }
            return List.of(
                    createSequence(kStart, n, 0),
                    "INSERT OVERWRITE "
                            + target
                            + " SELECT "
                            + values.selectList(schema, columns)
                            + " FROM "
                            + sequence(kStart, n, 0)
                            + (empty ? " WHERE k < 0" : ""));
        }

        @Override
        Effect effect(ModelTable base) {
            Effect effect = new Effect();
            Field p = base.schema.partition();
            Set<String> replaced = new LinkedHashSet<>();
            if (partition != null) {
                replaced.add(partition);
            }
            for (long k = kStart; k < kStart + n && !empty; k++) {
                Map<Integer, Object> row = new HashMap<>(values.row(base.schema, k));
                if (partition != null) {
                    row.put(p.id(), partition);
                } else if (p != null) {
                    replaced.add((String) row.get(p.id()));
                }
                effect.inserts.add(new Effect.NewRow(k, row));
            }
            base.rows.forEach(
                    (rowId, row) -> {
                        if (p == null || replaced.contains((String) row.get(p.id()))) {
                            effect.deletes.add(rowId);
                        }
                    });
            return effect;
        }
    }
}
