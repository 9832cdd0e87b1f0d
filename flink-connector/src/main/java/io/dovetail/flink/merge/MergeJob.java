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
package io.dovetail.flink.merge;

import io.dovetail.flink.catalog.CatalogTables;
import io.dovetail.flink.options.DovetailOptions;
import io.dovetail.flink.sql.SqlFragments;
import io.dovetail.flink.sql.TableName;
import io.dovetail.table.TableStore;
import io.dovetail.table.read.RowGroups;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.snapshot.SnapshotPins;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.config.OptimizerConfigOptions;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Runs one merge ({@link MergeSpec}) as a batch Flink job: the base snapshot is pinned when the job
 * is planned, the clauses are checked ({@link MergeClauses}), the strategy chosen ({@link
 * MergeStrategy}), the source is joined with the target's rows of that snapshot by the merge's SQL
 * ({@link MergeSql}), and {@link MergeSink} writes and commits the outcome as one snapshot:
 *
 * <pre>
 *   source ─┐                             ┌─ updates, deletes ─by group─▶ [sort by _ROW_ID] ─▶ [merge writer × p] ─┐
 *           ├─ [join on merge_condition] ─▶ [router]                                                             ├─▶ [committer × 1]
 *   target ─┘   (none for a self-merge    └─ inserts ─rebalance─▶ [append writer × p] ───────────────────────────┘
 *   @ base       on _ROW_ID)
 * </pre>
 *
 * A merge that only updates or deletes matched rows on equal key columns, from a source table small
 * enough ({@link DovetailOptions#MERGE_BROADCAST_JOIN_MAX_SOURCE_SIZE}), runs the join in the
 * writers instead ({@link MergeSink#buildBroadcastKeyJoin}); the target is read by the writers, in
 * their own groups, and never shuffled:
 *
 * <pre>
 *   source (keys, action, values) ─▶ [number] ─broadcast─▶ [key join writer × p: reads its groups' keys @ base] ─▶ [committer × 1]
 * </pre>
 *
 * A writer whose copy of the source outgrows its budget fails that job before anything is written,
 * and the merge reruns as the SQL join. The result row ({@link MergeContract#RESULT_TYPE}) counts
 * what the job did.
 */
public final class MergeJob {

    private static final Logger LOG = LoggerFactory.getLogger(MergeJob.class);

    /** The merge's planned join, as a temporary view of the merge's own session. */
    private static final String RAW_CHANGES = "__dovetail_merge_raw_changes";

    private final CatalogTables tables;

    public MergeJob(CatalogTables tables) {
        this.tables = tables;
    }

    public Row run(StreamExecutionEnvironment env, MergeSpec spec) throws Exception {
        TableName target = TableName.parseDatabaseAndTable(spec.target());
        TableStore store = tables.open(target);
        TableSchema schema = store.latestSchema();
        if (!TableOptions.isTrue(schema.options(), TableOptions.DATA_EVOLUTION_ENABLED)) {
            throw new ValidationException(
                    "Table '"
                            + spec.target()
                            + "' is not a data-evolution table ('"
                            + TableOptions.DATA_EVOLUTION_ENABLED
                            + "' is not true); merges update columns of data-evolution tables.");
        }
        if (spec.deletes()
                && !TableOptions.isTrue(schema.options(), TableOptions.DELETION_VECTORS_ENABLED)) {
            throw new ValidationException(
                    "The merge deletes rows, but table '"
                            + spec.target()
                            + "' has no deletion vectors; create it with"
                            + " 'deletion-vectors.enabled' = 'true'.");
        }
        Optional<Snapshot> base = store.latestSnapshot();
        // the base and what follows it cannot expire while the job runs, however long it takes
        try (SnapshotPins.Pin pin =
                base.isEmpty()
                        ? null
                        : new SnapshotPins(store.paths())
                                .pinBase(
                                        base.get().id(),
                                        schema.options(),
                                        "the merge into " + spec.target())) {
            return run(env, spec, target, store, schema, base);
        }
    }

    private Row run(
            StreamExecutionEnvironment env,
            MergeSpec spec,
            TableName target,
            TableStore store,
            TableSchema schema,
            Optional<Snapshot> base)
            throws Exception {
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        if (spec.parallelism() != null) { // the whole job runs at it, not only the writers
            env.setParallelism(spec.parallelism());
            env.configure(
                    new Configuration()
                            .set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false));
        }
        StreamTableEnvironment sql = StreamTableEnvironment.create(env);
        plannerDefaults(env.getConfiguration(), sql.getConfig());
        sql.registerCatalog(tables.catalogName(), tables.newCatalog(target.database()));
        sql.useCatalog(tables.catalogName());
        sql.useDatabase(target.database());
        for (String statement : spec.sourceSqls()) {
            sql.executeSql(statement);
        }
        String sourceReference =
                SqlFragments.isQuery(spec.source())
                        ? "(" + spec.source() + ")"
                        : TableName.parse("source", spec.source()).quoted();
        Table source = planned(sql, "SELECT * FROM " + sourceReference, "the merge's source");
        String targetReference =
                target.quoted()
                        + base.map(b -> " /*+ OPTIONS('scan.snapshot-id'='" + b.id() + "') */")
                                .orElse("");
        MergeClauses clauses =
                MergeClauses.of(spec, schema, source.getResolvedSchema().getColumnNames());
        MergeSql query = new MergeSql(spec, schema, clauses, sourceReference, targetReference);
        Table raw = planned(sql, query.rawQuery(), "the merge");
        sql.createTemporaryView(RAW_CHANGES, raw);
        Table changes =
                planned(sql, query.query(RAW_CHANGES, raw.getResolvedSchema()), "the merge");
        MemorySize broadcastLimit =
                env.getConfiguration().get(DovetailOptions.MERGE_BROADCAST_JOIN_MAX_SOURCE_SIZE);
        MergeStrategy strategy =
                MergeStrategy.choose(
                        spec,
                        schema,
                        clauses,
                        source.getResolvedSchema(),
                        base.isPresent(),
                        sourceRowCount(spec, target.database(), broadcastLimit.getBytes()),
                        broadcastLimit.getBytes());
        String commitUser = "dovetail-merge-" + UUID.randomUUID();
        MergeSink sink =
                new MergeSink(
                                store.paths(),
                                schema,
                                base.map(Snapshot::id).orElse(-1L),
                                clauses.updatedColumns(),
                                clauses.inserts() != null,
                                commitUser)
                        .onStaleRowIds(spec.onStaleRowIds())
                        .deletes(spec.deletes())
                        .parallelism(spec.parallelism());
        String jobName = "Dovetail merge into " + spec.target();
        if (strategy.kind() == MergeStrategy.Kind.BROADCAST_KEY_JOIN) {
            Table keyed =
                    planned(
                            sql,
                            query.keyJoinQuery(strategy.keys(), raw.getResolvedSchema()),
                            "the merge");
            sink.buildBroadcastKeyJoin(
                    rows(sql, keyed),
                    strategy.keys().stream().map(MergeStrategy.KeyPair::targetColumn).toList(),
                    broadcastLimit);
            try {
                return MergeContract.resultRow(store, base, commitUser, env.execute(jobName));
            } catch (Exception e) {
                if (!MergeStrategy.outgrewBroadcast(e)) {
                    throw e;
                }
                LOG.info(
                        "The merge source outgrew the broadcast key join; rerunning as a SQL join");
                env.getConfig().disableObjectReuse();
            }
        }
        sink.build(rows(sql, changes));
        return MergeContract.resultRow(store, base, commitUser, env.execute(jobName));
    }

    /**
     * Planner settings of the merge's query where the session sets none. The adaptive join rewrites
     * (broadcast, skew) are off: the merge's result does not depend on the join strategy, and
     * deciding it at run time generates and compiles the join in the JobManager between the stages
     * (about 250 ms per merge, measured). A runtime filter is on: when the source is small (at most
     * 8 MB estimated) against a large target (at least 16 MB), a Bloom filter of the source's join
     * keys drops the target rows that cannot match before they are shuffled.
     */
    private static void plannerDefaults(ReadableConfig session, TableConfig merge) {
        defaultTo(
                session,
                merge,
                OptimizerConfigOptions.TABLE_OPTIMIZER_ADAPTIVE_BROADCAST_JOIN_STRATEGY,
                OptimizerConfigOptions.AdaptiveBroadcastJoinStrategy.NONE);
        defaultTo(
                session,
                merge,
                OptimizerConfigOptions.TABLE_OPTIMIZER_ADAPTIVE_SKEWED_JOIN_OPTIMIZATION_STRATEGY,
                OptimizerConfigOptions.AdaptiveSkewedJoinOptimizationStrategy.NONE);
        defaultTo(
                session,
                merge,
                OptimizerConfigOptions.TABLE_OPTIMIZER_RUNTIME_FILTER_ENABLED,
                true);
        defaultTo(
                session,
                merge,
                OptimizerConfigOptions.TABLE_OPTIMIZER_RUNTIME_FILTER_MAX_BUILD_DATA_SIZE,
                MemorySize.ofMebiBytes(8));
        defaultTo(
                session,
                merge,
                OptimizerConfigOptions.TABLE_OPTIMIZER_RUNTIME_FILTER_MIN_PROBE_DATA_SIZE,
                MemorySize.ofMebiBytes(16));
    }

    private static <T> void defaultTo(
            ReadableConfig session, TableConfig merge, ConfigOption<T> option, T value) {
        if (session.getOptional(option).isEmpty()) {
            merge.set(option, value);
        }
    }

    private static DataStream<RowData> rows(StreamTableEnvironment sql, Table table) {
        try {
            return sql.toDataStream(
                    table,
                    table.getResolvedSchema().toPhysicalRowDataType().bridgedTo(RowData.class));
        } catch (RuntimeException e) {
            throw new ValidationException("Cannot plan the merge: " + e.getMessage(), e);
        }
    }

    /**
     * The live row count of the merge's source, when it is a table of this catalog (not a query, a
     * view, or another catalog's table) and a broadcast key join may run at all ({@code limit >
     * 0}); else empty.
     */
    private OptionalLong sourceRowCount(MergeSpec spec, String database, long limit) {
        if (limit <= 0 || SqlFragments.isQuery(spec.source()) || !spec.sourceSqls().isEmpty()) {
            return OptionalLong.empty();
        }
        TableName name =
                TableName.parse("source", spec.source()).orIn(tables.catalogName(), database);
        if (!name.catalog().equals(tables.catalogName())) {
            return OptionalLong.empty();
        }
        TableStore source;
        try {
            source = tables.open(name);
        } catch (ValidationException e) {
            return OptionalLong.empty(); // a view, or another catalog's table
        }
        return OptionalLong.of(
                source.latestSnapshot()
                        .map(s -> RowGroups.rowCountOfLiveFiles(source.files(s).liveFiles()))
                        .orElse(0L));
    }

    private static Table planned(StreamTableEnvironment sql, String query, String what) {
        try {
            return sql.sqlQuery(query);
        } catch (RuntimeException e) {
            throw new ValidationException("Cannot plan " + what + ": " + e.getMessage(), e);
        }
    }
}
