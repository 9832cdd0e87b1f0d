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

import io.dovetail.flink.sink.SinkOptions;
import io.dovetail.flink.source.ChangelogStart;
import io.dovetail.flink.system.SystemTable;
import io.dovetail.flink.system.SystemTableName;
import io.dovetail.flink.system.SystemTableSource;
import io.dovetail.flink.system.SystemTables;
import io.dovetail.table.TableStore;
import io.dovetail.table.error.Errors;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.read.ChangePlanner;
import io.dovetail.table.read.ChangelogScope;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.schema.TableSchema;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.api.config.TableConfigOptions;
import org.apache.flink.table.api.config.TableConfigOptions.ColumnExpansionStrategy;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * Creates the scans and sinks of a Dovetail catalog's tables (handed out by the catalog, not
 * discovered by a {@code connector} option). A scan reads the latest snapshot as of planning, or
 * {@code scan.snapshot-id}, with the table's latest schema: columns added after that snapshot read
 * as NULL. Options come from the table or from an {@code OPTIONS} hint. In streaming mode the scan
 * is an unbounded changelog that starts per {@code scan.mode} (see {@link ChangelogStart}), unless
 * {@code scan.bounded} makes it the bounded scan.
 */
public final class DovetailTableFactory
        implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    public static final String IDENTIFIER = "dovetail";

    public static final ConfigOption<Long> SNAPSHOT_ID =
            ConfigOptions.key("scan.snapshot-id")
                    .longType()
                    .noDefaultValue()
                    .withDescription("Read this snapshot instead of the latest (time travel).");

    public static final ConfigOption<MemorySize> SPLIT_TARGET_SIZE =
            ConfigOptions.key("source.split.target-size")
                    .memoryType()
                    .defaultValue(new MemorySize(ReadRequest.DEFAULT_TARGET_SPLIT_SIZE))
                    .withDescription(
                            "Row-range groups of a partition are packed into splits of about"
                                    + " this many bytes.");

    public static final ConfigOption<MemorySize> SPLIT_OPEN_FILE_COST =
            ConfigOptions.key("source.split.open-file-cost")
                    .memoryType()
                    .defaultValue(new MemorySize(ReadRequest.DEFAULT_OPEN_FILE_COST))
                    .withDescription("The least weight of a group when packing splits.");

    /** Where a streaming read starts. */
    public enum ScanMode {
        /**
         * The snapshot (latest or {@code scan.snapshot-id}) in full as inserts, then its changes.
         */
        FULL,
        /** Only the changes committed after the latest snapshot at start. */
        LATEST,
        /** The changes of the snapshots from {@code scan.snapshot-id} on, no full read. */
        FROM_SNAPSHOT;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    public static final ConfigOption<ScanMode> SCAN_MODE =
            ConfigOptions.key("scan.mode")
                    .enumType(ScanMode.class)
                    .defaultValue(ScanMode.FULL)
                    .withDescription(
                            "Where a streaming read starts: 'full', 'latest' or 'from-snapshot'.");

    public static final ConfigOption<ChangelogScope> CHANGELOG_MODE =
            ConfigOptions.key("scan.changelog-mode")
                    .enumType(ChangelogScope.class)
                    .defaultValue(ChangelogScope.INSERT_ONLY)
                    .withDescription(
                            "What a streaming read emits: 'insert-only' (the rows each snapshot"
                                    + " appends, as +I, like Apache Paimon's read of an append"
                                    + " table; an insert-only sink can take it) or 'full' (whole"
                                    + " rows: -U/+U for updated rows, -D for deleted ones, -D/+I"
                                    + " for rows an overwrite or a materialization replaced).");

    public static final ConfigOption<Boolean> READ_OVERWRITES =
            ConfigOptions.key("streaming-read-append-overwrite")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether an insert-only streaming read emits the rows an INSERT"
                                    + " OVERWRITE added (Paimon's key); a full read always"
                                    + " emits overwrites.");

    public static final ConfigOption<Boolean> SCAN_BOUNDED =
            ConfigOptions.key("scan.bounded")
                    .booleanType()
                    .noDefaultValue()
                    .withDescription(
                            "Whether a scan ends (Paimon's key). By default a batch job's scan"
                                    + " reads one snapshot and ends and a streaming job's follows"
                                    + " the table; 'true' makes a streaming job's scan read one"
                                    + " snapshot (the latest or 'scan.snapshot-id') and end, so a"
                                    + " checkpointed streaming job can process a table's current"
                                    + " rows and finish.");

    public static final ConfigOption<Duration> DISCOVERY_INTERVAL =
            ConfigOptions.key("continuous.discovery-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription("How often a streaming read looks for new snapshots.");

    public static final ConfigOption<String> CONSUMER_ID =
            ConfigOptions.key("consumer-id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Records a streaming read's position in consumer/consumer-<id> on"
                                    + " every completed checkpoint, so snapshot expiry keeps what"
                                    + " it has not read; a read started without state resumes"
                                    + " there.");

    private final Warehouse warehouse;

    public DovetailTableFactory(Warehouse warehouse) {
        this.warehouse = warehouse;
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    /** The scan and write options (also documented in docs/configuration.md). */
    public static final Set<ConfigOption<?>> OPTIONS =
            Set.of(
                    SNAPSHOT_ID,
                    SPLIT_TARGET_SIZE,
                    SPLIT_OPEN_FILE_COST,
                    SinkOptions.PARALLELISM,
                    SinkOptions.MAX_OPEN_PARTITIONS,
                    SinkOptions.COLUMN_UPDATES_BUFFER_SIZE,
                    SCAN_MODE,
                    SCAN_BOUNDED,
                    CHANGELOG_MODE,
                    READ_OVERWRITES,
                    DISCOVERY_INTERVAL,
                    CONSUMER_ID);

    /** Name spaces of the options above: a hinted key in them that is not one of them is a typo. */
    private static final List<String> OPTION_PREFIXES =
            List.of("scan.", "source.", "sink.", "continuous.");

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return OPTIONS;
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        SystemTableName name = SystemTableName.parse(context.getObjectIdentifier().getObjectName());
        TablePaths paths = tablePaths(context, name);
        TableStore store = TableStore.open(paths);
        Configuration options = Configuration.fromMap(context.getCatalogTable().getOptions());
        if (SystemTableName.COLUMN_UPDATES.equals(name.system())) {
            throw Errors.unsupported(
                    "reading " + name.table() + "$column_updates",
                    name.table()
                            + "$column_updates is a sink for column updates by _ROW_ID; read "
                            + name.table()
                            + " itself");
        }
        if (name.isSystemTable() && !SystemTableName.ROW_TRACKING.equals(name.system())) {
            return metadataSource(paths, store, name, options);
        }
        TableSchema schema = checkedSchema(context, store);
        boolean streaming =
                context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
                        == RuntimeExecutionMode.STREAMING;
        boolean unbounded = options.getOptional(SCAN_BOUNDED).map(b -> !b).orElse(streaming);
        if (unbounded && !streaming) {
            throw Errors.invalidArgument(
                    "'scan.bounded' = 'false' needs a streaming job: a batch job reads one"
                            + " snapshot; SET 'execution.runtime-mode' = 'streaming' to follow"
                            + " the table.");
        }
        ChangelogStart changelog = unbounded ? changelogStart(options, store) : null;
        return new DovetailTableSource(
                paths,
                schema,
                snapshotId(options, store),
                options.get(SPLIT_TARGET_SIZE).getBytes(),
                options.get(SPLIT_OPEN_FILE_COST).getBytes(),
                TableOptions.isTrue(
                        context.getCatalogTable().getOptions(), TableOptions.BLOB_AS_DESCRIPTOR),
                !"false"
                        .equalsIgnoreCase(
                                context.getCatalogTable()
                                        .getOptions()
                                        .get(TableOptions.GLOBAL_INDEX_ENABLED)),
                changelog);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        ObjectIdentifier id = context.getObjectIdentifier();
        SystemTableName name = SystemTableName.parse(id.getObjectName());
        if (SystemTableName.COLUMN_UPDATES.equals(name.system())) {
            TablePaths paths = tablePaths(context, name);
            return new ColumnUpdatesTableSink(
                    paths,
                    (RowType) context.getPhysicalRowDataType().getLogicalType(),
                    context.getCatalogTable().getOptions());
        }
        if (name.isSystemTable()) {
            throw Errors.unsupported(
                    "writing to the system table " + id.asSummaryString(),
                    "Write to the table " + name.table() + " itself");
        }
        TablePaths paths = tablePaths(context, name);
        TableSchema schema = checkedSchema(context, TableStore.open(paths));
        return new DovetailTableSink(
                paths,
                schema,
                context.getCatalogTable().getResolvedSchema(),
                context.getCatalogTable().getOptions(),
                context.getConfiguration()
                        .get(TableConfigOptions.TABLE_COLUMN_EXPANSION_STRATEGY)
                        .contains(
                                ColumnExpansionStrategy.EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS));
    }

    /**
     * Refuses an {@code OPTIONS} hint key in the scan and sink name spaces that no scan or write
     * reads (stored table options are left alone: Paimon may have written any).
     */
    private static void checkHintedOptions(Context context, TableSchema schema) {
        Set<String> known = new TreeSet<>();
        OPTIONS.forEach(o -> known.add(o.key()));
        for (String key : context.getCatalogTable().getOptions().keySet()) {
            if (!schema.options().containsKey(key)
                    && !known.contains(key)
                    && OPTION_PREFIXES.stream().anyMatch(key::startsWith)) {
                throw Errors.invalidArgument(
                        "Unknown option '"
                                + key
                                + "' for "
                                + context.getObjectIdentifier().asSummaryString()
                                + "; Dovetail scans and writes take "
                                + known
                                + " and the table options (e.g. 'target-file-size').");
            }
        }
    }

    private TablePaths tablePaths(Context context, SystemTableName name) {
        return warehouse.table(context.getObjectIdentifier().getDatabaseName(), name.table());
    }

    /** The table's latest schema, checked to have the columns the statement was planned with. */
    private static TableSchema checkedSchema(Context context, TableStore store) {
        TableSchema schema = store.latestSchema();
        List<String> declared =
                context.getCatalogTable().getResolvedSchema().getColumns().stream()
                        .filter(Column::isPhysical)
                        .map(Column::getName)
                        .toList();
        checkHintedOptions(context, schema);
        if (!declared.equals(schema.fieldNames())) {
            throw Errors.invalidArgument(
                    "Table "
                            + context.getObjectIdentifier().asSummaryString()
                            + " changed while the statement was planned (columns "
                            + declared
                            + ", now "
                            + schema.fieldNames()
                            + "); run it again.");
        }
        return schema;
    }

    /** A metadata system table's scan ({@link SystemTables}); its snapshot is checked to exist. */
    private static DynamicTableSource metadataSource(
            TablePaths paths, TableStore store, SystemTableName name, Configuration options) {
        SystemTable table =
                SystemTables.metadata(name.system()).orElseThrow(() -> SystemTables.unknown(name));
        Long snapshotId =
                options.getOptional(SNAPSHOT_ID)
                        .map(id -> store.snapshots().snapshot(id).id())
                        .orElse(null);
        return new SystemTableSource(paths, table, snapshotId);
    }

    /** Where a streaming read starts, per {@code scan.mode}. */
    private static ChangelogStart changelogStart(Configuration options, TableStore store) {
        ScanMode mode = options.get(SCAN_MODE);
        Optional<Long> snapshot = options.getOptional(SNAPSHOT_ID);
        long latest = store.snapshots().latestId().orElse(0);
        Long full = null;
        long first;
        switch (mode) {
            case FULL:
                full = snapshotId(options, store);
                first = (full == null ? 0 : full) + 1;
                break;
            case LATEST:
                if (snapshot.isPresent()) {
                    throw Errors.invalidArgument(
                            "'scan.snapshot-id' does not apply to 'scan.mode' = 'latest'; use"
                                    + " 'from-snapshot' or 'full' to start at a snapshot.");
                }
                first = latest + 1;
                break;
            default:
                first =
                        snapshot.orElseThrow(
                                () ->
                                        Errors.invalidArgument(
                                                "'scan.mode' = 'from-snapshot' needs"
                                                        + " 'scan.snapshot-id', the first snapshot"
                                                        + " whose changes to read."));
                if (first < 1) {
                    throw Errors.invalidArgument(
                            "'scan.snapshot-id' must be positive, got " + first + ".");
                }
                new ChangePlanner(store).requireKept(first);
        }
        return new ChangelogStart(
                full,
                first,
                options.get(DISCOVERY_INTERVAL),
                options.getOptional(CONSUMER_ID).orElse(null),
                options.get(CHANGELOG_MODE),
                options.get(READ_OVERWRITES));
    }

    /** The snapshot to read, checked to exist; null when the table has none yet. */
    @Nullable
    private static Long snapshotId(Configuration options, TableStore store) {
        if (options.getOptional(SNAPSHOT_ID).isPresent()) {
            return store.snapshots().snapshot(options.get(SNAPSHOT_ID)).id();
        }
        OptionalLong latest = store.snapshots().latestId();
        return latest.isPresent() ? latest.getAsLong() : null;
    }
}
