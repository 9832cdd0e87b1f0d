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

import io.dovetail.flink.dml.RowLevelSink;
import io.dovetail.flink.sink.DovetailSink;
import io.dovetail.flink.sink.OverwriteScope;
import io.dovetail.flink.sink.PartitionDrop;
import io.dovetail.flink.sink.SinkOptions;
import io.dovetail.table.TableStore;
import io.dovetail.table.error.Errors;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.schema.TableSchema;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.RowLevelModificationScanContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsDeletePushDown;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.connector.sink.abilities.SupportsRowLevelDelete;
import org.apache.flink.table.connector.sink.abilities.SupportsRowLevelUpdate;
import org.apache.flink.table.connector.sink.abilities.SupportsTruncate;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.ResolvedExpression;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The writes of a Dovetail table. {@code INSERT INTO} / {@code INSERT OVERWRITE} send full rows
 * through {@link DovetailSink}'s append writers to its one committer. Batch {@code DELETE FROM}
 * asks the scan for the {@code _ROW_ID} of every matching row of the pinned snapshot and commits
 * them as deletion vectors (the table needs {@code deletion-vectors.enabled}). Batch {@code UPDATE}
 * asks for {@code _ROW_ID} and the new values of the assigned columns only, and writes one
 * partial-column file of those columns per touched row-range group; no other column is read beyond
 * what the expressions and the filter need, none is rewritten.
 */
final class DovetailTableSink
        implements DynamicTableSink,
                SupportsOverwrite,
                SupportsPartitioning,
                SupportsRowLevelDelete,
                SupportsRowLevelUpdate,
                SupportsDeletePushDown,
                SupportsTruncate {

    private enum Mode {
        INSERT,
        DELETE,
        UPDATE
    }

    private final TablePaths table;
    private final TableSchema schema;
    private final ResolvedSchema columns;
    private final Map<String, String> options;
    private final boolean starExcludesMetadataColumns;
    private boolean overwrite;
    private Map<String, String> staticPartition = Map.of();
    private Mode mode = Mode.INSERT;
    @Nullable private Long baseSnapshotId;
    private List<String> updatedColumns = List.of();
    @Nullable private Predicate<RowData> droppedPartitions;

    DovetailTableSink(
            TablePaths table,
            TableSchema schema,
            ResolvedSchema columns,
            Map<String, String> options,
            boolean starExcludesMetadataColumns) {
        this.table = table;
        this.schema = schema;
        this.columns = columns;
        this.options = options;
        this.starExcludesMetadataColumns = starExcludesMetadataColumns;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return mode == Mode.INSERT ? ChangelogMode.insertOnly() : requestedMode;
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        Configuration config = Configuration.fromMap(options);
        Integer parallelism = config.getOptional(SinkOptions.PARALLELISM).orElse(null);
        if (mode == Mode.INSERT || baseSnapshotId == null) { // nothing to change without snapshot
            DovetailSink sink =
                    DovetailSink.forRows(table, schema, options)
                            .maxOpenPartitions(config.get(SinkOptions.MAX_OPEN_PARTITIONS))
                            .overwrite(
                                    overwrite ? OverwriteScope.of(staticPartition, options) : null)
                            .parallelism(parallelism)
                            .boundedInput(context.isBounded());
            return (DataStreamSinkProvider)
                    (providerContext, rows) -> sink.uids(uids(providerContext)).build(rows);
        }
        RowLevelSink sink =
                mode == Mode.DELETE
                        ? RowLevelSink.forDelete(table, baseSnapshotId)
                        : RowLevelSink.forColumnUpdate(table, baseSnapshotId, updatedColumns);
        sink.parallelism(parallelism).boundedInput(context.isBounded());
        return (DataStreamSinkProvider)
                (providerContext, rows) -> sink.uids(uids(providerContext)).build(rows);
    }

    /** Operator uids Flink's planner derives from the statement, by operator role. */
    static Function<String, String> uids(ProviderContext context) {
        return role -> context.generateUid(role).orElse(null);
    }

    @Override
    public void applyOverwrite(boolean overwrite) {
        this.overwrite = overwrite;
    }

    @Override
    public void applyStaticPartition(Map<String, String> partition) {
        for (String key : partition.keySet()) {
            if (!schema.partitionKeys().contains(key)) {
                throw Errors.invalidArgument(
                        "'" + key + "' is not a partition key of " + schema.partitionKeys() + ".");
            }
        }
        this.staticPartition = new LinkedHashMap<>(partition);
    }

    @Override
    public boolean requiresPartitionGrouping(boolean supportsGrouping) {
        return false; // writers keep one file per open partition, bounded in number
    }

    /**
     * A {@code DELETE} whose filter only names partition values ({@code dt = 'x' AND ...}, or no
     * filter) drops those partitions in one commit, without a job and without deletion vectors.
     */
    @Override
    public boolean applyDeleteFilters(List<ResolvedExpression> filters) {
        droppedPartitions = PartitionFilters.of(filters, schema).orElse(null);
        return droppedPartitions != null;
    }

    @Override
    public Optional<Long> executeDeletion() {
        return Optional.of(PartitionDrop.execute(TableStore.open(table), droppedPartitions));
    }

    /** {@code TRUNCATE TABLE}: one commit removing every live file. */
    @Override
    public void executeTruncation() {
        PartitionDrop.execute(TableStore.open(table), partition -> true);
    }

    @Override
    public RowLevelDeleteInfo applyRowLevelDelete(
            @Nullable RowLevelModificationScanContext context) {
        if (!TableOptions.isTrue(schema.options(), TableOptions.DELETION_VECTORS_ENABLED)) {
            throw Errors.unsupported(
                    "DELETE on a data-evolution table without deletion vectors",
                    "Create the table with 'deletion-vectors.enabled' = 'true' (deleted rows"
                            + " become deletion vectors, no file is rewritten); without them, a"
                            + " DELETE whose WHERE names only partition values drops those"
                            + " partitions, and TRUNCATE TABLE empties the table");
        }
        mode = Mode.DELETE;
        baseSnapshotId = pinnedSnapshot(context);
        List<Column> required = List.of(rowIdColumn());
        return new RowLevelDeleteInfo() {
            @Override
            public Optional<List<Column>> requiredColumns() {
                return Optional.of(required);
            }

            @Override
            public RowLevelDeleteMode getRowLevelDeleteMode() {
                return RowLevelDeleteMode.DELETED_ROWS;
            }
        };
    }

    @Override
    public RowLevelUpdateInfo applyRowLevelUpdate(
            List<Column> updated, @Nullable RowLevelModificationScanContext context) {
        if (starExcludesMetadataColumns) {
            // Flink 2.3 counts the table's columns without the excluded virtual metadata columns
            // when it rewrites an UPDATE, and picks the wrong expressions (or fails)
            throw Errors.unsupported(
                    "UPDATE while 'table.column-expansion-strategy' excludes virtual metadata"
                            + " columns (Flink 2.3's UPDATE rewrite miscounts the columns then)",
                    "Run RESET 'table.column-expansion-strategy' before the UPDATE (bin/dovetail-sql"
                            + " does this for UPDATE statements)");
        }
        List<String> names = new ArrayList<>();
        for (Column column : updated) {
            if (schema.partitionKeys().contains(column.getName())) {
                throw Errors.unsupported(
                        "UPDATE of the partition column '" + column.getName() + "'",
                        "Rows cannot move between partitions; delete them and insert them again");
            }
            names.add(column.getName());
        }
        mode = Mode.UPDATE;
        baseSnapshotId = pinnedSnapshot(context);
        updatedColumns = List.copyOf(names);
        List<Column> required = new ArrayList<>();
        required.add(rowIdColumn());
        required.addAll(updated);
        return new RowLevelUpdateInfo() {
            @Override
            public Optional<List<Column>> requiredColumns() {
                return Optional.of(required);
            }

            @Override
            public RowLevelUpdateMode getRowLevelUpdateMode() {
                return RowLevelUpdateMode.UPDATED_ROWS;
            }
        };
    }

    private Column rowIdColumn() {
        return columns.getColumn(SystemFields.ROW_ID.name())
                .orElseThrow(
                        () ->
                                Errors.invalidArgument(
                                        "The table has no "
                                                + SystemFields.ROW_ID.name()
                                                + " column."));
    }

    /** The snapshot the statement's scan read (the latest at planning if no scan said). */
    @Nullable
    private Long pinnedSnapshot(@Nullable RowLevelModificationScanContext context) {
        if (context instanceof PinnedSnapshot pinned) {
            return pinned.snapshotId();
        }
        throw Errors.invalidArgument(
                "A row-level change of a Dovetail table must scan the same table; got the scan"
                        + " context "
                        + context
                        + ".");
    }

    @Override
    public DynamicTableSink copy() {
        DovetailTableSink copy =
                new DovetailTableSink(table, schema, columns, options, starExcludesMetadataColumns);
        copy.overwrite = overwrite;
        copy.staticPartition = staticPartition;
        copy.mode = mode;
        copy.baseSnapshotId = baseSnapshotId;
        copy.updatedColumns = updatedColumns;
        copy.droppedPartitions = droppedPartitions;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "Dovetail";
    }
}
