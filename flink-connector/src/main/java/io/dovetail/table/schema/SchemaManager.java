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
package io.dovetail.table.schema;

import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * The schema versions of one table: files {@code <table>/schema/schema-<N>}, never rewritten. The
 * latest schema is the highest N in the directory listing. A change is committed by publishing
 * {@code schema-<latest+1>} with an atomic create-if-absent; when another writer published that
 * number first, the changes are re-applied to the new latest schema and retried (bounded).
 */
public final class SchemaManager {

    static final int MAX_COMMIT_ATTEMPTS = 64;
    private static final long MAX_BACKOFF_MILLIS = 20;

    private final TablePaths paths;
    private final Path tableDir;
    private final LongSupplier clock;

    public SchemaManager(TablePaths paths) {
        this(paths, System::currentTimeMillis);
    }

    SchemaManager(TablePaths paths, LongSupplier clock) {
        this.paths = paths;
        this.tableDir = paths.root();
        this.clock = clock;
    }

    /**
     * The ids of all schema files, ascending. Names starting with '.' (temporary files) and names
     * without the {@code schema-} prefix are ignored; a {@code schema-} name without a decimal id
     * is an error.
     */
    public List<Long> listIds() {
        List<Long> ids = new ArrayList<>();
        for (FileStatus status : FileIO.list(paths.schemaDir())) {
            String name = status.getPath().getName();
            if (name.startsWith(".") || !name.startsWith(TablePaths.SCHEMA_FILE_PREFIX)) {
                continue;
            }
            ids.add(
                    parseId(
                            status.getPath(),
                            name.substring(TablePaths.SCHEMA_FILE_PREFIX.length())));
        }
        Collections.sort(ids);
        return ids;
    }

    private static long parseId(Path file, String suffix) {
        if (!suffix.isEmpty()
                && suffix.length() <= 18
                && suffix.chars().allMatch(Character::isDigit)) {
            return Long.parseLong(suffix);
        }
        throw Errors.corruptFile(
                file,
                "a file in the schema directory named 'schema-"
                        + suffix
                        + "' does not end in a decimal schema id. Move the stray file out of the"
                        + " schema directory");
    }

    public boolean tableExists() {
        return !listIds().isEmpty();
    }

    /** The schema with the highest id, or empty when the table has no schema (does not exist). */
    public Optional<TableSchema> latest() {
        List<Long> ids = listIds();
        return ids.isEmpty() ? Optional.empty() : Optional.of(schema(ids.get(ids.size() - 1)));
    }

    /** Reads schema {@code id}; a missing or undecodable file is a clear error naming it. */
    public TableSchema schema(long id) {
        Path path = paths.schemaFile(id);
        byte[] bytes = FileIO.readFully(path, "schema id " + id + " of table " + tableDir);
        TableSchema schema = TableSchemaJson.fromBytes(bytes, path);
        if (schema.id() != id) {
            throw Errors.corruptFile(
                    path, "the file holds schema id " + schema.id() + " but is named for id " + id);
        }
        return schema;
    }

    /**
     * Creates the table by writing {@code schema-0}. The fields must carry their ids (see {@link
     * io.dovetail.table.types.FlinkTypes#toFields}); the schema must pass {@link
     * DataEvolutionTableValidator}.
     */
    public TableSchema createTable(
            List<DataField> fields,
            List<String> partitionKeys,
            List<String> primaryKeys,
            Map<String, String> options,
            String comment) {
        TableSchema schema =
                TableSchema.initial(
                        fields, partitionKeys, primaryKeys, options, comment, clock.getAsLong());
        DataEvolutionTableValidator.validate(schema);
        if (tableExists()
                || !FileIO.publishIfAbsent(
                        paths.schemaFile(0),
                        TableSchemaJson.toBytes(schema),
                        TableOptions.writers(options))) {
            throw Errors.invalidArgument(
                    "Cannot create table at "
                            + tableDir
                            + ": it already exists (its schema directory holds schema files).");
        }
        return schema;
    }

    public TableSchema commitChanges(SchemaChange... changes) {
        return commitChanges(List.of(changes));
    }

    /**
     * Applies the changes to the latest schema and publishes the result as the next schema version,
     * retrying against the new latest schema when a concurrent change took the number.
     *
     * @return the committed schema
     */
    public TableSchema commitChanges(List<SchemaChange> changes) {
        for (int attempt = 0; attempt < MAX_COMMIT_ATTEMPTS; attempt++) {
            TableSchema base =
                    latest().orElseThrow(
                                    () ->
                                            Errors.invalidArgument(
                                                    "Cannot alter table at "
                                                            + tableDir
                                                            + ": it does not exist (no schema"
                                                            + " files)."));
            TableSchema next = SchemaEvolution.apply(base, changes, clock.getAsLong());
            if (FileIO.publishIfAbsent(
                    paths.schemaFile(next.id()),
                    TableSchemaJson.toBytes(next),
                    TableOptions.writers(base.options()))) {
                return next;
            }
            backOff();
        }
        throw Errors.conflict(
                "Could not commit the schema change to "
                        + tableDir
                        + " after "
                        + MAX_COMMIT_ATTEMPTS
                        + " attempts: other writers kept changing the schema at the same time."
                        + " Retry the ALTER TABLE.");
    }

    private static void backOff() {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, MAX_BACKOFF_MILLIS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Errors.conflict("Interrupted while retrying a schema change.");
        }
    }
}
