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
package io.dovetail.flink.table;

import io.dovetail.flink.source.ChangelogStart;
import io.dovetail.flink.source.DovetailChangelogSource;
import io.dovetail.flink.source.DovetailSource;
import io.dovetail.flink.source.ReadSpec;
import io.dovetail.table.TableStore;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.read.ChangelogScope;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.RowGroups;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.RowLevelModificationScanContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.abilities.SupportsRowLevelModificationScan;
import org.apache.flink.table.connector.source.abilities.SupportsStatisticReport;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.plan.stats.TableStats;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A bounded scan of one snapshot of a Dovetail table, or in streaming mode ({@code changelog} set)
 * an unbounded changelog of it ({@link DovetailChangelogSource}): insert-only ({@code +I} for the
 * rows each snapshot appends) or full ({@code +I} for added rows, {@code -U}/{@code +U} for rows
 * whose values changed, {@code -D} for removed rows), declared to the planner as such. Projection
 * and filters are pushed into planning: filters prune partitions and row-range groups by
 * statistics, and {@code _ROW_ID} filters select row ranges, but rows are not filtered exactly, so
 * every filter also stays with Flink. {@code _ROW_ID} and {@code _SEQUENCE_NUMBER} are readable
 * metadata (BIGINT NOT NULL), placed after the physical columns.
 */
public final class DovetailTableSource
        implements ScanTableSource,
                SupportsProjectionPushDown,
                SupportsFilterPushDown,
                SupportsReadingMetadata,
                SupportsRowLevelModificationScan,
                SupportsStatisticReport {

    private final TablePaths table;
    private final TableSchema schema;
    @Nullable private final Long snapshotId;
    private final long targetSplitSize;
    private final long openFileCost;
    private final boolean blobsAsDescriptors;
    private final boolean globalIndexes;
    @Nullable private final ChangelogStart changelog;

    private List<DataField> physical;
    private List<String> metadataKeys = List.of();
    @Nullable private Predicate filter;
    // shared with copies: the planner may ask a copy for its runtime provider
    private LastLookupPlan lastLookupPlan = new LastLookupPlan();

    /** The lookup plan made last, for one read (columns and filter). */
    private static final class LastLookupPlan {
        @Nullable private List<Object> read;
        private Optional<ReadPlan> plan = Optional.empty();
    }

    DovetailTableSource(
            TablePaths table,
            TableSchema schema,
            @Nullable Long snapshotId,
            long targetSplitSize,
            long openFileCost,
            boolean blobsAsDescriptors,
            boolean globalIndexes,
            @Nullable ChangelogStart changelog) {
        this.table = table;
        this.schema = schema;
        this.snapshotId = snapshotId;
        this.targetSplitSize = targetSplitSize;
        this.openFileCost = openFileCost;
        this.blobsAsDescriptors = blobsAsDescriptors;
        this.globalIndexes = globalIndexes;
        this.changelog = changelog;
        this.physical = schema.fields();
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return changelog == null || changelog.scope() == ChangelogScope.INSERT_ONLY
                ? ChangelogMode.insertOnly()
                : ChangelogMode.all();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        ReadSpec spec = readSpec();
        if (changelog != null) {
            return SourceProvider.of(new DovetailChangelogSource(spec, changelog));
        }
        Optional<ReadPlan> lookup = lookupPlan(spec);
        return lookup.isPresent()
                ? singleReader(
                        DovetailSource.planned(spec, lookup.get()), context, lookup.get().rowType())
                : SourceProvider.of(new DovetailSource(spec));
    }

    private ReadSpec readSpec() {
        List<DataField> fields = new ArrayList<>(physical);
        for (String key : metadataKeys) {
            fields.add(
                    key.equals(SystemFields.ROW_ID.name())
                            ? SystemFields.ROW_ID
                            : SystemFields.SEQUENCE_NUMBER);
        }
        return new ReadSpec(
                table,
                schema,
                snapshotId,
                fields,
                filter,
                targetSplitSize,
                openFileCost,
                blobsAsDescriptors,
                globalIndexes);
    }

    /** {@link ReadSpec#planLookup()}, made once per columns and filter. */
    private Optional<ReadPlan> lookupPlan(ReadSpec spec) {
        if (filter == null || !globalIndexes) {
            return Optional.empty();
        }
        List<Object> read = Arrays.asList(spec.fields(), filter);
        LastLookupPlan last = lastLookupPlan;
        if (!read.equals(last.read)) {
            last.plan = spec.planLookup();
            last.read = read;
        }
        return last.plan;
    }

    /**
     * A read planned into at most one split, by one reader whose parallelism the operators after it
     * inherit: the whole query then runs as one chained task in one slot. (A source provider with a
     * parallelism of its own gets a rebalance to the default parallelism behind it, a second task
     * and a slot per subtask for one row.)
     */
    private static DataStreamScanProvider singleReader(
            DovetailSource source, ScanContext context, RowType rowType) {
        TypeInformation<RowData> type = context.createTypeInformation(rowType);
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext provider, StreamExecutionEnvironment env) {
                DataStreamSource<RowData> rows =
                        env.fromSource(
                                source, WatermarkStrategy.noWatermarks(), "Dovetail lookup", type);
                provider.generateUid("lookup").ifPresent(rows::uid);
                return rows.setParallelism(1);
            }

            @Override
            public boolean isBounded() {
                return true;
            }
        };
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(int[][] projectedFields, DataType producedDataType) {
        List<DataField> projected = new ArrayList<>();
        for (int[] path : projectedFields) {
            projected.add(schema.fields().get(path[0]));
        }
        physical = projected;
    }

    @Override
    public Result applyFilters(List<ResolvedExpression> filters) {
        FilterTranslator translator = new FilterTranslator(schema);
        List<ResolvedExpression> used = new ArrayList<>();
        List<Predicate> conjuncts = new ArrayList<>();
        for (ResolvedExpression expression : filters) {
            List<Predicate> translated = translator.conjuncts(List.of(expression));
            if (!translated.isEmpty()) {
                used.add(expression);
                conjuncts.addAll(translated);
            }
        }
        filter =
                conjuncts.isEmpty()
                        ? null
                        : conjuncts.size() == 1 ? conjuncts.get(0) : new Predicate.And(conjuncts);
        // pruning is by group statistics, rows are not filtered: Flink keeps every filter
        return Result.of(used, filters);
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        Map<String, DataType> metadata = new LinkedHashMap<>();
        metadata.put(SystemFields.ROW_ID.name(), DataTypes.BIGINT().notNull());
        metadata.put(SystemFields.SEQUENCE_NUMBER.name(), DataTypes.BIGINT().notNull());
        return metadata;
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        this.metadataKeys = List.copyOf(metadataKeys);
    }

    /** A DELETE or UPDATE reads the snapshot chosen at planning and pins it for its sink. */
    @Override
    public RowLevelModificationScanContext applyRowLevelModificationScan(
            RowLevelModificationType type, RowLevelModificationScanContext previousContext) {
        return new PinnedSnapshot(snapshotId);
    }

    /**
     * The row count of the snapshot read (rows of its row-range groups, deleted ones included), so
     * the planner can size joins; unknown for a changelog read.
     */
    @Override
    public TableStats reportStatistics() {
        if (changelog != null) {
            return TableStats.UNKNOWN;
        }
        TableStore store = TableStore.open(table);
        Optional<Snapshot> snapshot =
                snapshotId == null
                        ? store.latestSnapshot()
                        : Optional.of(store.snapshots().snapshot(snapshotId));
        return new TableStats(
                snapshot.map(s -> RowGroups.rowCountOfLiveFiles(store.files(s).liveFiles()))
                        .orElse(0L));
    }

    @Override
    public DynamicTableSource copy() {
        DovetailTableSource copy =
                new DovetailTableSource(
                        table,
                        schema,
                        snapshotId,
                        targetSplitSize,
                        openFileCost,
                        blobsAsDescriptors,
                        globalIndexes,
                        changelog);
        copy.physical = physical;
        copy.metadataKeys = metadataKeys;
        copy.filter = filter;
        copy.lastLookupPlan = lastLookupPlan;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "Dovetail";
    }
}
