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
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class QuickstartActionTest {

    private static final Map<String, String> DATA_EVOLUTION =
            Map.of("row-tracking.enabled", "true", "data-evolution.enabled", "true");

    @TempDir Path warehouse;

    @Test
    void createsEvolvesAppendsAndBackfillsOneColumn() {
        ActionRun run = ActionRun.of("quickstart", "--warehouse", warehouse.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        TableStore store = TableStore.open(mediaTable());
        assertThat(store.schemas().listIds()).containsExactly(0L, 1L, 2L);
        assertThat(fields(store.schemas().schema(0)))
                .containsExactly(
                        "0 id BIGINT", "1 caption STRING", "2 score DOUBLE", "3 dt STRING");
        assertThat(fields(store.schemas().schema(1)))
                .containsExactly(
                        "0 id BIGINT",
                        "1 caption STRING",
                        "2 score DOUBLE",
                        "3 dt STRING",
                        "4 embedding_version INT");
        TableSchema latest = store.latestSchema();
        assertThat(fields(latest))
                .containsExactly(
                        "0 id BIGINT",
                        "1 caption STRING",
                        "2 quality DOUBLE",
                        "3 dt STRING",
                        "4 embedding_version INT");
        assertThat(latest.partitionKeys()).containsExactly("dt");
        assertThat(latest.primaryKeys()).isEmpty();
        assertThat(latest.options())
                .containsExactly(
                        entry("row-tracking.enabled", "true"),
                        entry("data-evolution.enabled", "true"),
                        entry("file.format", "parquet"));
        assertThat(store.snapshots().listIds()).containsExactly(1L, 2L);
        Snapshot latestSnapshot = store.latestSnapshot().orElseThrow();
        assertThat(latestSnapshot.nextRowId()).isEqualTo(6);
        List<ManifestEntry> live = store.files(latestSnapshot).liveFiles();
        // one full file per partition, plus one partial file over the second partition's range
        assertThat(live).hasSize(3);
        ManifestEntry partial =
                live.stream().filter(e -> e.file().writeCols() != null).findFirst().orElseThrow();
        assertThat(partial.file().writeCols()).containsExactly("embedding_version");
        assertThat(partial.file().firstRowId()).isEqualTo(3);
        assertThat(partial.file().rowCount()).isEqualTo(3);
        assertThat(partial.file().maxSequenceNumber()).isEqualTo(2);
        store.files(latestSnapshot).verifyLiveFiles();

        assertThat(run.out())
                .contains("Schemas (3)", "Snapshots (2)", "quality")
                .contains("backfilled embedding_version")
                .contains("Verify: all 3 live files present");
    }

    @Test
    void rerunReplacesOnlyTheQuickstartTable() throws Exception {
        assertThat(ActionRun.of("quickstart", "--warehouse", warehouse.toString()).exitCode())
                .isZero();
        Path neighbour = Files.createDirectories(warehouse.resolve("quickstart.db/other"));
        Path stray = Files.writeString(mediaDir().resolve("stray-file"), "x");

        ActionRun again = ActionRun.of("quickstart", "--warehouse", warehouse.toString());

        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).contains("Deleted the previous quickstart table");
        assertThat(stray).doesNotExist();
        assertThat(neighbour).isDirectory();
        assertThat(TableStore.open(mediaTable()).schemas().listIds()).containsExactly(0L, 1L, 2L);
    }

    @Test
    void refusesToDeleteADirectoryThatHoldsNoTable() throws Exception {
        Path data = Files.writeString(Files.createDirectories(mediaDir()).resolve("keep"), "x");

        ActionRun run = ActionRun.of("quickstart", "--warehouse", warehouse.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("exists but holds no table");
        assertThat(data).exists();
    }

    @Test
    void refusesToReplaceATableItDidNotCreateAndNeverTouchesDefaultMedia() throws Exception {
        TableStore.at(table("default", "media"))
                .schemas()
                .createTable(
                        List.of(new DataField(0, "id", DataTypes.BIGINT())),
                        List.of(),
                        List.of(),
                        DATA_EVOLUTION,
                        null);
        TableStore.at(mediaTable())
                .schemas()
                .createTable(
                        List.of(new DataField(0, "mine", DataTypes.STRING())),
                        List.of(),
                        List.of(),
                        DATA_EVOLUTION,
                        "a user's table");
        List<String> before = filesUnder(warehouse);

        ActionRun run = ActionRun.of("quickstart", "--warehouse", warehouse.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err())
                .contains("quickstart.media")
                .contains("was not created by the quickstart, so it is left as it is");
        assertThat(filesUnder(warehouse)).isEqualTo(before);
        assertThat(fields(TableStore.open(table("default", "media")).latestSchema()))
                .containsExactly("0 id BIGINT");

        try (Stream<Path> quickstartFiles = Files.walk(warehouse.resolve("quickstart.db"))) {
            quickstartFiles.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        assertThat(ActionRun.of("quickstart", "--warehouse", warehouse.toString()).exitCode())
                .isZero();
        assertThat(ActionRun.of("quickstart", "--warehouse", warehouse.toString()).exitCode())
                .isZero();
        assertThat(fields(TableStore.open(table("default", "media")).latestSchema()))
                .as("a user's default.media survives two quickstart runs")
                .containsExactly("0 id BIGINT");
    }

    private static List<String> filesUnder(Path root) throws Exception {
        try (Stream<Path> files = Files.walk(root)) {
            return files.map(p -> root.relativize(p) + " " + p.toFile().length()).sorted().toList();
        }
    }

    private TablePaths mediaTable() {
        return table("quickstart", "media");
    }

    private TablePaths table(String database, String name) {
        return new Warehouse(new org.apache.flink.core.fs.Path(warehouse.toUri()))
                .table(database, name);
    }

    private Path mediaDir() {
        return warehouse.resolve("quickstart.db").resolve("media");
    }

    private static List<String> fields(TableSchema schema) {
        return schema.fields().stream()
                .map(f -> f.id() + " " + f.name() + " " + f.type().asSqlString())
                .toList();
    }
}
