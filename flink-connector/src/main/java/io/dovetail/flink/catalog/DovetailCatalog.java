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
package io.dovetail.flink.catalog;

import io.dovetail.flink.function.SystemFunctions;
import io.dovetail.flink.system.SystemTableName;
import io.dovetail.flink.system.SystemTables;
import io.dovetail.flink.table.DovetailTableFactory;
import io.dovetail.table.TableStore;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.schema.SchemaManager;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionImpl;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.ProcedureNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.procedures.Procedure;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A Flink catalog over a Dovetail warehouse on any Flink file system: databases are {@code
 * <name>.db} directories, tables are data-evolution tables in the Paimon format (Paimon's
 * filesystem catalog sees the same databases and tables). Tables are created, altered (schema
 * evolution by field id, nested fields included), renamed and dropped here; partitions are those of
 * the latest snapshot. Procedures ({@code CALL <catalog>.sys.<name>(...)}) come from {@link
 * ProcedureProvider}s; its {@code sys} database also serves the BLOB descriptor functions ({@link
 * SystemFunctions}). Functions and statistics are not stored.
 */
public class DovetailCatalog extends AbstractCatalog {

    private final Warehouse warehouse;
    private final CatalogProcedures procedures;

    public DovetailCatalog(String name, String defaultDatabase, Path warehouse) {
        super(name, defaultDatabase);
        this.warehouse = new Warehouse(warehouse);
        this.procedures = new CatalogProcedures(name, this.warehouse);
    }

    @Override
    public void open() {
        FileIO.mkdirs(warehouse.databaseDir(getDefaultDatabase()));
    }

    @Override
    public void close() {}

    // ---------------------------------------------------------------- databases

    @Override
    public List<String> listDatabases() {
        List<String> names = new ArrayList<>();
        for (FileStatus status : FileIO.list(warehouse.root())) {
            String name = status.getPath().getName();
            if (status.isDir() && name.endsWith(Warehouse.DATABASE_DIR_SUFFIX)) {
                names.add(
                        name.substring(0, name.length() - Warehouse.DATABASE_DIR_SUFFIX.length()));
            }
        }
        names.sort(null);
        return names;
    }

    @Override
    public CatalogDatabase getDatabase(String name) throws DatabaseNotExistException {
        requireDatabase(name);
        return new CatalogDatabaseImpl(Map.of(), null);
    }

    @Override
    public boolean databaseExists(String name) {
        return call(() -> FileIO.exists(warehouse.databaseDir(name)));
    }

    @Override
    public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException {
        if (databaseExists(name)) {
            if (ignoreIfExists) {
                return;
            }
            throw new DatabaseAlreadyExistException(getName(), name);
        }
        if (database != null && !database.getProperties().isEmpty()) {
            throw new CatalogException(
                    "Databases of a Dovetail catalog have no properties; got "
                            + database.getProperties().keySet());
        }
        run(() -> FileIO.mkdirs(warehouse.databaseDir(name)));
    }

    @Override
    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException {
        if (!databaseExists(name)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new DatabaseNotExistException(getName(), name);
        }
        if (!cascade && !FileIO.listNames(warehouse.databaseDir(name)).isEmpty()) {
            throw new DatabaseNotEmptyException(getName(), name);
        }
        deleteDirectory(warehouse.databaseDir(name));
    }

    @Override
    public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists) {
        throw new CatalogException(
                "Databases of a Dovetail catalog have no properties or comment to alter.");
    }

    // ---------------------------------------------------------------- tables

    @Override
    public List<String> listTables(String database) throws DatabaseNotExistException {
        requireDatabase(database);
        List<String> tables = new ArrayList<>();
        for (FileStatus status : FileIO.list(warehouse.databaseDir(database))) {
            String name = status.getPath().getName();
            if (status.isDir() && !name.startsWith(".") && tableExists(database, name)) {
                tables.add(name);
            }
        }
        tables.sort(null);
        return tables;
    }

    @Override
    public List<String> listViews(String database) throws DatabaseNotExistException {
        requireDatabase(database);
        return List.of();
    }

    /** Scans of this catalog's tables and of their system tables ({@link SystemTableName}). */
    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new DovetailTableFactory(warehouse));
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath path) throws TableNotExistException {
        SystemTableName name = SystemTableName.parse(path.getObjectName());
        if (!name.isSystemTable()) {
            return TableDefinitions.toFlink(latestSchema(path));
        }
        ObjectPath table = new ObjectPath(path.getDatabaseName(), name.table());
        if (SystemTableName.ROW_TRACKING.equals(name.system())) {
            return TableDefinitions.toFlinkRowTracking(latestSchema(table));
        }
        if (SystemTableName.COLUMN_UPDATES.equals(name.system())) {
            return TableDefinitions.toFlinkColumnUpdates(latestSchema(table));
        }
        latestSchema(table); // the table must exist
        // not TableNotExistException: the planner would hide which names exist
        return SystemTables.catalogTable(
                call(
                        () ->
                                SystemTables.metadata(name.system())
                                        .orElseThrow(() -> SystemTables.unknown(name))));
    }

    @Override
    public boolean tableExists(ObjectPath path) {
        SystemTableName name = SystemTableName.parse(path.getObjectName());
        return (!name.isSystemTable() || SystemTables.exists(name.system()))
                && tableExists(path.getDatabaseName(), name.table());
    }

    private boolean tableExists(String database, String table) {
        return call(() -> new SchemaManager(warehouse.table(database, table)).tableExists());
    }

    @Override
    public void createTable(ObjectPath path, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException {
        requireDatabase(path.getDatabaseName());
        if (tableExists(path)) {
            if (ignoreIfExists) {
                return;
            }
            throw new TableAlreadyExistException(getName(), path);
        }
        if (!(table instanceof ResolvedCatalogTable resolved)) {
            throw new CatalogException(
                    "A Dovetail catalog stores tables only, not " + table.getTableKind() + "s.");
        }
        TableDefinitions.NewTable created = call(() -> TableDefinitions.fromFlink(resolved));
        run(
                () ->
                        new SchemaManager(tablePaths(path))
                                .createTable(
                                        created.fields(),
                                        created.partitionKeys(),
                                        List.of(),
                                        created.options(),
                                        created.comment()));
    }

    @Override
    public void dropTable(ObjectPath path, boolean ignoreIfNotExists)
            throws TableNotExistException {
        if (!tableExists(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(getName(), path);
        }
        deleteDirectory(tablePaths(path).root());
    }

    @Override
    public void renameTable(ObjectPath path, String newName, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException {
        if (!tableExists(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(getName(), path);
        }
        ObjectPath target = new ObjectPath(path.getDatabaseName(), newName);
        if (tableExists(target) || call(() -> FileIO.exists(tablePaths(target).root()))) {
            throw new TableAlreadyExistException(getName(), target);
        }
        Path from = tablePaths(path).root();
        Path to = tablePaths(target).root();
        try {
            if (!FileIO.fileSystem(from).rename(from, to)) {
                throw new CatalogException("Could not rename " + from + " to " + to + ".");
            }
        } catch (IOException e) {
            throw new CatalogException("Could not rename " + from + " to " + to + ".", e);
        }
    }

    @Override
    public void alterTable(ObjectPath path, CatalogBaseTable newTable, boolean ignoreIfNotExists) {
        throw new CatalogException(
                "Alter Dovetail tables with ALTER TABLE statements (column and option changes).");
    }

    @Override
    public void alterTable(
            ObjectPath path,
            CatalogBaseTable newTable,
            List<TableChange> changes,
            boolean ignoreIfNotExists)
            throws TableNotExistException {
        if (!tableExists(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(getName(), path);
        }
        SchemaManager schemas = new SchemaManager(tablePaths(path));
        run(
                () ->
                        schemas.commitChanges(
                                AlterTableChanges.toSchemaChanges(
                                        changes, schemas.latest().orElseThrow().fields())));
    }

    // ---------------------------------------------------------------- partitions

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path)
            throws TableNotExistException, TableNotPartitionedException {
        if (!tableExists(path)) {
            throw new TableNotExistException(getName(), path);
        }
        // a system table has the partitions of its table
        ObjectPath table =
                new ObjectPath(
                        path.getDatabaseName(),
                        SystemTableName.parse(path.getObjectName()).table());
        TableSchema schema = latestSchema(table);
        if (schema.partitionKeys().isEmpty()) {
            throw new TableNotPartitionedException(getName(), path);
        }
        TableStore store = TableStore.open(tablePaths(table));
        Set<Map<String, String>> partitions = new LinkedHashSet<>();
        store.latestSnapshot()
                .ifPresent(snapshot -> partitions.addAll(partitionsOf(store, snapshot)));
        List<CatalogPartitionSpec> specs = new ArrayList<>();
        partitions.forEach(p -> specs.add(new CatalogPartitionSpec(p)));
        return specs;
    }

    private static Set<Map<String, String>> partitionsOf(TableStore store, Snapshot snapshot) {
        TableSchema schema = store.schemas().schema(snapshot.schemaId());
        var types = schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList();
        BinaryRowCodec codec = BinaryRowCodec.of(types);
        PartitionPaths paths =
                PartitionPaths.fromOptions(schema.partitionKeys(), types, schema.options());
        Set<Map<String, String>> out = new LinkedHashSet<>();
        for (ManifestEntry entry : store.files(snapshot).liveFiles()) {
            out.add(paths.values(codec.deserialize(entry.partition())));
        }
        return out;
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path, CatalogPartitionSpec spec)
            throws TableNotExistException, TableNotPartitionedException {
        List<CatalogPartitionSpec> matching = new ArrayList<>();
        for (CatalogPartitionSpec partition : listPartitions(path)) {
            if (partition
                    .getPartitionSpec()
                    .entrySet()
                    .containsAll(spec.getPartitionSpec().entrySet())) {
                matching.add(partition);
            }
        }
        return matching;
    }

    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(
            ObjectPath path, List<Expression> filters) {
        throw new UnsupportedOperationException(
                "Dovetail prunes partitions while planning a read, not in the catalog.");
    }

    @Override
    public CatalogPartition getPartition(ObjectPath path, CatalogPartitionSpec spec)
            throws PartitionNotExistException {
        if (!partitionExists(path, spec)) {
            throw new PartitionNotExistException(getName(), path, spec);
        }
        return new CatalogPartitionImpl(Map.of(), null);
    }

    @Override
    public boolean partitionExists(ObjectPath path, CatalogPartitionSpec spec) {
        try {
            return listPartitions(path).contains(spec);
        } catch (TableNotExistException | TableNotPartitionedException e) {
            return false;
        }
    }

    @Override
    public void createPartition(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogPartition partition,
            boolean ignoreIfExists) {
        throw new UnsupportedOperationException(
                "Partitions of a Dovetail table appear when rows are written to them.");
    }

    @Override
    public void dropPartition(ObjectPath path, CatalogPartitionSpec spec, boolean ignore) {
        throw new UnsupportedOperationException(
                "Dropping partitions is not supported yet; delete their rows instead.");
    }

    @Override
    public void alterPartition(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogPartition partition,
            boolean ignore) {
        throw new UnsupportedOperationException(
                "Partitions of a Dovetail table have no properties.");
    }

    // ---------------------------------------------------------------- procedures

    /** The {@link ProcedureProvider} procedures in {@code sys}; other databases have none. */
    @Override
    public List<String> listProcedures(String database) throws DatabaseNotExistException {
        if (!CatalogProcedures.DATABASE.equals(database)) {
            requireDatabase(database);
        }
        return procedures.names(database);
    }

    @Override
    public Procedure getProcedure(ObjectPath path) throws ProcedureNotExistException {
        return procedures
                .get(path)
                .orElseThrow(() -> new ProcedureNotExistException(getName(), path));
    }

    // ---------------------------------------------------------------- functions and statistics

    @Override
    public List<String> listFunctions(String database) throws DatabaseNotExistException {
        if (CatalogProcedures.DATABASE.equals(database)) {
            return SystemFunctions.names();
        }
        requireDatabase(database);
        return List.of();
    }

    @Override
    public CatalogFunction getFunction(ObjectPath path) throws FunctionNotExistException {
        return systemFunction(path)
                .orElseThrow(() -> new FunctionNotExistException(getName(), path));
    }

    @Override
    public boolean functionExists(ObjectPath path) {
        return systemFunction(path).isPresent();
    }

    private static Optional<CatalogFunction> systemFunction(ObjectPath path) {
        return CatalogProcedures.DATABASE.equals(path.getDatabaseName())
                ? SystemFunctions.get(path.getObjectName())
                : Optional.empty();
    }

    @Override
    public void createFunction(ObjectPath path, CatalogFunction function, boolean ignore) {
        throw new UnsupportedOperationException(
                "A Dovetail catalog stores no functions; register them in another catalog.");
    }

    @Override
    public void alterFunction(ObjectPath path, CatalogFunction function, boolean ignore) {
        throw new UnsupportedOperationException("A Dovetail catalog stores no functions.");
    }

    @Override
    public void dropFunction(ObjectPath path, boolean ignore) {
        throw new UnsupportedOperationException("A Dovetail catalog stores no functions.");
    }

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath path) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath path) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public CatalogTableStatistics getPartitionStatistics(
            ObjectPath path, CatalogPartitionSpec spec) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getPartitionColumnStatistics(
            ObjectPath path, CatalogPartitionSpec spec) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public void alterTableStatistics(
            ObjectPath path, CatalogTableStatistics statistics, boolean ignore) {
        throw new UnsupportedOperationException("A Dovetail catalog stores no statistics.");
    }

    @Override
    public void alterTableColumnStatistics(
            ObjectPath path, CatalogColumnStatistics statistics, boolean ignore) {
        throw new UnsupportedOperationException("A Dovetail catalog stores no statistics.");
    }

    @Override
    public void alterPartitionStatistics(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogTableStatistics statistics,
            boolean ignore) {
        throw new UnsupportedOperationException("A Dovetail catalog stores no statistics.");
    }

    @Override
    public void alterPartitionColumnStatistics(
            ObjectPath path,
            CatalogPartitionSpec spec,
            CatalogColumnStatistics statistics,
            boolean ignore) {
        throw new UnsupportedOperationException("A Dovetail catalog stores no statistics.");
    }

    // ---------------------------------------------------------------- helpers

    private TablePaths tablePaths(ObjectPath path) {
        return call(() -> warehouse.table(path.getDatabaseName(), path.getObjectName()));
    }

    private TableSchema latestSchema(ObjectPath path) throws TableNotExistException {
        return call(() -> new SchemaManager(tablePaths(path)).latest())
                .orElseThrow(() -> new TableNotExistException(getName(), path));
    }

    private void requireDatabase(String name) throws DatabaseNotExistException {
        if (!databaseExists(name)) {
            throw new DatabaseNotExistException(getName(), name);
        }
    }

    private static void deleteDirectory(Path dir) {
        try {
            FileIO.fileSystem(dir).delete(dir, true);
        } catch (IOException e) {
            throw new CatalogException("Could not delete " + dir + ".", e);
        }
    }

    /** Runs a core call, reporting Dovetail's errors (bad names, schemas) as catalog errors. */
    private static <T> T call(java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (DovetailException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    private static void run(Runnable action) {
        call(
                () -> {
                    action.run();
                    return null;
                });
    }
}
