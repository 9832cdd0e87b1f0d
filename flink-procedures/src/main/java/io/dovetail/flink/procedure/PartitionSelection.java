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
package io.dovetail.flink.procedure;

import io.dovetail.table.TableStore;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The partitions a maintenance procedure works on, chosen like Paimon's: {@code partitions} (specs
 * {@code 'dt=a,hh=01;dt=b'}) or {@code where} (a Flink SQL predicate over the partition columns,
 * e.g. {@code "dt >= '2024-01-01'"}), never both; neither selects every partition. A {@code where}
 * is evaluated by Flink SQL over the partitions of the latest snapshot, one row per partition with
 * the partition columns' types, so any SQL the planner accepts works and other columns are an
 * error.
 */
final class PartitionSelection {

    private PartitionSelection() {}

    static Predicate<RowData> of(
            StreamExecutionEnvironment env, TableStore store, String partitions, String where) {
        boolean byWhere = where != null && !where.isBlank();
        if (byWhere && partitions != null && !partitions.isBlank()) {
            throw new ValidationException(
                    "partitions and where both select partitions; give only one of them.");
        }
        PartitionPaths paths = store.latestSchema().partitionPaths();
        try {
            if (!byWhere) {
                return paths.matchingAny(ProcedureArguments.partitions(partitions));
            }
        } catch (DovetailException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        if (paths.keys().isEmpty()) {
            throw new ValidationException(
                    "where selects partitions, but table "
                            + store.paths().root().getName()
                            + " is not partitioned.");
        }
        List<Map<String, String>> matching = matching(env, store, paths, where);
        if (matching.isEmpty()) {
            return partition -> false;
        }
        return paths.matchingAny(matching);
    }

    /** The partitions of the latest snapshot, as path values, that pass {@code where}. */
    private static List<Map<String, String>> matching(
            StreamExecutionEnvironment env, TableStore store, PartitionPaths paths, String where) {
        List<Map<String, String>> partitions = partitionsOfLatest(store, paths);
        if (partitions.isEmpty()) {
            return List.of();
        }
        TableSchema schema = store.latestSchema();
        List<LogicalType> types =
                schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList();
        List<String> rows = new ArrayList<>();
        for (int p = 0; p < partitions.size(); p++) {
            StringBuilder row = new StringBuilder("(").append(p);
            int k = 0;
            for (String value : partitions.get(p).values()) {
                row.append(", CAST(")
                        .append(
                                value.equals(PartitionPaths.DEFAULT_NAME)
                                        ? "NULL"
                                        : "'" + value.replace("'", "''") + "'")
                        .append(" AS ")
                        .append(types.get(k++).asSerializableString())
                        .append(')');
            }
            rows.add(row.append(')').toString());
        }
        StringBuilder columns = new StringBuilder("`__partition`");
        paths.keys()
                .forEach(key -> columns.append(", `").append(key.replace("`", "``")).append('`'));
        String query =
                "SELECT `__partition` FROM (VALUES "
                        + String.join(", ", rows)
                        + ") AS p("
                        + columns
                        + ") WHERE "
                        + where;
        StreamTableEnvironment sql =
                StreamTableEnvironment.create(env, EnvironmentSettings.inBatchMode());
        List<Map<String, String>> matching = new ArrayList<>();
        try (CloseableIterator<Row> selected = sql.executeSql(query).collect()) {
            selected.forEachRemaining(
                    row -> matching.add(partitions.get((Integer) row.getField(0))));
        } catch (ValidationException e) {
            throw new ValidationException(
                    "where must be a SQL predicate over the partition columns "
                            + paths.keys()
                            + ", got '"
                            + where
                            + "': "
                            + e.getMessage(),
                    e);
        } catch (Exception e) {
            throw new IllegalStateException("Could not evaluate where '" + where + "'", e);
        }
        return matching;
    }

    private static List<Map<String, String>> partitionsOfLatest(
            TableStore store, PartitionPaths paths) {
        Optional<Snapshot> latest = store.latestSnapshot();
        if (latest.isEmpty()) {
            return List.of();
        }
        BinaryRowCodec codec =
                BinaryRowCodec.of(
                        store.latestSchema().partitionTypes().stream()
                                .map(FlinkTypes::toFlink)
                                .toList());
        Set<ByteBuffer> seen = new LinkedHashSet<>();
        List<Map<String, String>> partitions = new ArrayList<>();
        for (ManifestEntry entry : store.files(latest.get()).liveFiles()) {
            if (seen.add(ByteBuffer.wrap(entry.partition()))) {
                LinkedHashMap<String, String> values =
                        paths.values(codec.deserialize(entry.partition()));
                partitions.add(values);
            }
        }
        return partitions;
    }
}
