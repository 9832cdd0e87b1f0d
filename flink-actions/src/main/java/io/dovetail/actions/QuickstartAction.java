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
package io.dovetail.actions;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.schema.SchemaManager;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code quickstart}: creates the data-evolution table {@code quickstart.media} in a filesystem
 * warehouse, evolves its schema twice, appends rows to two partitions as Parquet files, backfills
 * one column of one partition with a partial-column file, and prints the table like {@code
 * inspect}. It keeps to a database of its own and replaces only a table it made itself (marked by
 * its comment), so a user's tables are never touched.
 */
final class QuickstartAction {

    static final String NAME = "quickstart";
    static final String USAGE = "quickstart [--warehouse DIR]";
    static final String DEFAULT_WAREHOUSE = "target/dovetail-quickstart-warehouse";
    static final String DATABASE = "quickstart";
    static final String TABLE = "media";
    static final String COMMIT_USER = "dovetail-quickstart";

    /** The comment that marks a table as the quickstart's own: only such a table is replaced. */
    static final String COMMENT =
            "Created by the Dovetail quickstart action; rerunning it replaces it";

    static final List<String> DAYS = List.of("2026-11-30", "2026-12-01");
    static final int ROWS_PER_DAY = 3;

    private QuickstartAction() {}

    static int run(List<String> args, PrintStream out) {
        ActionOptions options = ActionOptions.parse(NAME, args, Set.of("warehouse"));
        Warehouse warehouse =
                new Warehouse(
                        Locations.toPath(options.optional("warehouse").orElse(DEFAULT_WAREHOUSE)));
        TablePaths paths = warehouse.table(DATABASE, TABLE);
        deletePreviousQuickstartTable(paths, out);

        SchemaManager schemas = TableStore.at(paths).schemas();
        schemas.createTable(
                List.of(
                        new DataField(0, "id", DataTypes.BIGINT()),
                        new DataField(1, "caption", DataTypes.STRING()),
                        new DataField(2, "score", DataTypes.DOUBLE()),
                        new DataField(3, "dt", DataTypes.STRING())),
                List.of("dt"),
                List.of(),
                tableOptions(),
                COMMENT);
        out.println("Created data-evolution table " + DATABASE + "." + TABLE + " at " + paths);
        schemas.commitChanges(SchemaChange.addColumn("embedding_version", DataTypes.INT()));
        out.println("Schema 1: added column embedding_version INT");
        schemas.commitChanges(SchemaChange.renameColumn("score", "quality"));
        out.println("Schema 2: renamed column score to quality (its field id 2 is kept)");
        TableStore store = TableStore.open(paths);
        Snapshot appended = appendRows(store);
        out.println(
                "Snapshot "
                        + appended.id()
                        + ": appended "
                        + ROWS_PER_DAY * DAYS.size()
                        + " rows in "
                        + DAYS.size()
                        + " partitions (row ids 0.."
                        + (appended.nextRowId() - 1)
                        + ")");
        Snapshot backfilled = backfillEmbeddingVersion(store, DAYS.get(1));
        out.println(
                "Snapshot "
                        + backfilled.id()
                        + ": backfilled embedding_version for dt="
                        + DAYS.get(1)
                        + " with one partial-column file (no other column rewritten)");
        out.println();
        return new TableReport(TableStore.open(paths), out).print(OptionalLong.empty()) ? 0 : 1;
    }

    /** One append commit: {@link #ROWS_PER_DAY} rows in each partition of {@link #DAYS}. */
    private static Snapshot appendRows(TableStore store) {
        TableSchema schema = store.latestSchema();
        List<ManifestEntry> files = new ArrayList<>();
        long id = 0;
        for (String day : DAYS) {
            try (DataFileWriter writer =
                    DataFileWriter.forAppend(store.paths(), schema, partition(day))) {
                for (int i = 0; i < ROWS_PER_DAY; i++, id++) {
                    // columns of schema 2: id, caption, quality, dt, embedding_version
                    writer.write(
                            GenericRowData.of(
                                    id,
                                    StringData.fromString("image " + id),
                                    0.5 + id / 10.0,
                                    StringData.fromString(day),
                                    null));
                }
                files.addAll(writer.finish());
            }
        }
        return new TableCommit(store).commit(CommitRequest.append(COMMIT_USER, 1, files));
    }

    /**
     * Writes {@code embedding_version} for every row-id range of partition {@code day}: one file
     * per range holding only that column, aligned with the range's rows.
     */
    private static Snapshot backfillEmbeddingVersion(TableStore store, String day) {
        TableSchema schema = store.latestSchema();
        byte[] partitionBytes =
                BinaryRowCodec.of(
                                schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList())
                        .serialize(partition(day));
        List<ManifestEntry> updates = new ArrayList<>();
        Snapshot base = store.latestSnapshot().orElseThrow();
        for (ManifestEntry range : store.files(base).liveFiles()) {
            if (!Arrays.equals(range.partition(), partitionBytes)) {
                continue;
            }
            try (DataFileWriter writer =
                    DataFileWriter.forPartialColumns(
                            store.paths(), schema, List.of("embedding_version"), partition(day))) {
                for (long row = 0; row < range.file().rowCount(); row++) {
                    writer.write(GenericRowData.of(2));
                }
                for (ManifestEntry file : writer.finish()) {
                    updates.add(withFirstRowId(file, range.file().firstRowId()));
                }
            }
        }
        return new TableCommit(store)
                .commit(CommitRequest.columnUpdate(COMMIT_USER, 2, base.id(), updates));
    }

    private static ManifestEntry withFirstRowId(ManifestEntry file, long firstRowId) {
        return new ManifestEntry(
                file.kind(),
                file.partition(),
                file.bucket(),
                file.totalBuckets(),
                file.file().toBuilder().firstRowId(firstRowId).build());
    }

    private static GenericRowData partition(String day) {
        return GenericRowData.of(StringData.fromString(day));
    }

    private static Map<String, String> tableOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put(TableOptions.ROW_TRACKING_ENABLED, "true");
        options.put(TableOptions.DATA_EVOLUTION_ENABLED, "true");
        options.put(TableOptions.FILE_FORMAT, "parquet");
        return options;
    }

    /**
     * Deletes the table directory of an earlier quickstart; refuses to delete a directory that
     * holds no table, or a table the quickstart did not create.
     */
    private static void deletePreviousQuickstartTable(TablePaths paths, PrintStream out) {
        Path root = paths.root();
        if (!FileIO.exists(root)) {
            return;
        }
        SchemaManager schemas = TableStore.at(paths).schemas();
        if (!schemas.tableExists()) {
            throw Errors.invalidArgument(
                    "Cannot recreate the quickstart table: "
                            + root
                            + " exists but holds no table (no schema files). Remove it or choose"
                            + " another --warehouse.");
        }
        if (!COMMENT.equals(schemas.latest().orElseThrow().comment())) {
            throw Errors.invalidArgument(
                    "Cannot recreate the quickstart table: "
                            + DATABASE
                            + "."
                            + TABLE
                            + " at "
                            + root
                            + " was not created by the quickstart, so it is left as it is. Drop it"
                            + " yourself or choose another --warehouse.");
        }
        try {
            FileIO.fileSystem(root).delete(root, true);
        } catch (IOException e) {
            throw Errors.io("delete the previous quickstart table", root, e);
        }
        out.println("Deleted the previous quickstart table at " + root);
    }
}
