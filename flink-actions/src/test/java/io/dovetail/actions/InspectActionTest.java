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
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Inspects a table committed in the test: snapshot 1 appends three files over two partitions,
 * snapshot 2 adds a partial-column file over the first file's row range after a schema change.
 */
class InspectActionTest {

    private static final String DAY1 = "dt=2024-01-01";
    private static final String DAY2 = "dt=2024-01-02";

    @TempDir Path warehouse;

    private TableStore store;
    private String tablePath;

    @BeforeEach
    void createTableWithTwoSnapshots() throws Exception {
        TablePaths paths =
                new Warehouse(new org.apache.flink.core.fs.Path(warehouse.toUri()))
                        .table("default", "clips");
        store = TableStore.at(paths);
        tablePath = warehouse.resolve("default.db").resolve("clips").toString();
        store.schemas()
                .createTable(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT()),
                                new DataField(1, "caption", DataTypes.STRING()),
                                new DataField(2, "dt", DataTypes.STRING())),
                        List.of("dt"),
                        List.of(),
                        Map.of("row-tracking.enabled", "true", "data-evolution.enabled", "true"),
                        null);
        commit(
                1,
                file("2024-01-01", "data-a1.parquet", 3, 10, b -> b),
                file("2024-01-02", "data-b1.parquet", 4, 12, b -> b),
                file("2024-01-01", "data-a2.parquet", 2, 11, b -> b));
        store.schemas().commitChanges(SchemaChange.addColumn("embedding", DataTypes.BYTES()));
        new TableCommit(store)
                .commit(
                        CommitRequest.columnUpdate(
                                "inspect-test",
                                2,
                                1,
                                List.of(
                                        file(
                                                "2024-01-01",
                                                "data-e1.parquet",
                                                3,
                                                16,
                                                b ->
                                                        b.schemaId(1)
                                                                .firstRowId(0L)
                                                                .writeCols(
                                                                        List.of("embedding"))))));
    }

    @Test
    void printsSchemasSnapshotsFilesAndRowRangeGroupsOfTheLatestSnapshot() {
        ActionRun run = ActionRun.of("inspect", "--table-path", tablePath);

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        String out = run.out();
        assertThat(out)
                .contains("Schemas (2)", "    3   embedding  BYTES", "    options: unchanged")
                .contains("Snapshots (2)");
        assertThat(cells(out, "  1   0       APPEND"))
                .containsSubsequence("APPEND", "inspect-test", "1", "9", "9", "9");
        assertThat(cells(out, "  2   1       APPEND"))
                .containsSubsequence("APPEND", "inspect-test", "2", "12", "3", "9");
        assertThat(out)
                .contains("Snapshot 2: 4 live data files in 2 bucket directories")
                .containsSubsequence(DAY1 + "/bucket-0", "data-a1", "data-a2", DAY2 + "/bucket-0");
        assertThat(cells(out, "    data-a1.parquet"))
                .containsExactly("data-a1.parquet", "3", "[0, 3)", "all", "0", "1", "10");
        assertThat(cells(out, "    data-e1.parquet"))
                .containsExactly("data-e1.parquet", "3", "[0, 3)", "embedding", "1", "2", "16");
        assertThat(cells(out, "    data-a2.parquet"))
                .containsExactly("data-a2.parquet", "2", "[3, 5)", "all", "0", "1", "11");
        assertThat(cells(out, "    data-b1.parquet"))
                .containsExactly("data-b1.parquet", "4", "[5, 9)", "all", "0", "1", "12");
        assertThat(out).contains("Row-range groups: 3, logical rows: 9");
        assertThat(cells(out, "  [0, 3)"))
                .containsExactly("[0, 3)", "3", "data-a1.parquet, data-e1.parquet");
        assertThat(cells(out, "  [3, 5)")).containsExactly("[3, 5)", "2", "data-a2.parquet");
        assertThat(cells(out, "  [5, 9)")).containsExactly("[5, 9)", "4", "data-b1.parquet");
        assertThat(out)
                .contains("Index files: none")
                .endsWith("Verify: all 4 live files present" + System.lineSeparator());
    }

    @Test
    void blobFilesBelongToTheGroupOfTheirNormalFile() throws Exception {
        commit(
                3,
                file("2024-01-02", "data-c1.parquet", 4, 20, b -> b),
                file("2024-01-02", "data-c1-0.blob", 2, 30, b -> b.writeCols(List.of("embedding"))),
                file(
                        "2024-01-02",
                        "data-c1-1.blob",
                        2,
                        31,
                        b -> b.writeCols(List.of("embedding"))));

        ActionRun run = ActionRun.of("inspect", "--table-path", tablePath);

        assertThat(run.exitCode()).isZero();
        assertThat(cells(run.out(), "    data-c1-1.blob"))
                .containsExactly("data-c1-1.blob", "2", "[11, 13)", "embedding", "0", "3", "31");
        assertThat(run.out()).contains("Row-range groups: 4, logical rows: 13");
        assertThat(cells(run.out(), "  [9, 13)"))
                .containsExactly("[9, 13)", "4", "data-c1.parquet, data-c1-0.blob, data-c1-1.blob");
    }

    @Test
    void filesBreakingTheLayoutAreNamedAndFailTheReport() throws Exception {
        // a faulty writer's file over part of the range [0, 3) of data-a1
        List<ManifestEntry> live =
                new ArrayList<>(store.files(store.latestSnapshot().get()).liveFiles());
        live.add(
                file(
                        "2024-01-01",
                        "data-x1.parquet",
                        3,
                        8,
                        b -> b.firstRowId(1L).writeCols(List.of("caption"))));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        boolean grouped =
                new TableReport(store, new PrintStream(printed, true, StandardCharsets.UTF_8))
                        .printRowRangeGroups(live);

        assertThat(grouped).isFalse();
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("Row-range groups: FAILED: ")
                .contains("data-a1.parquet [0, 2]")
                .contains("data-x1.parquet [1, 3]")
                .contains("overlap without covering the same row ids");
    }

    @Test
    void snapshotOptionTimeTravels() {
        ActionRun run = ActionRun.of("inspect", "--table-path", tablePath, "--snapshot", "1");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("Snapshot 1: 3 live data files in 2 bucket directories")
                .contains("Row-range groups: 3, logical rows: 9")
                .contains("Verify: all 3 live files present")
                .doesNotContain("data-e1.parquet");
    }

    @Test
    void warehouseDatabaseAndTableNameTheSameTable() {
        ActionRun byName =
                ActionRun.of(
                        "inspect",
                        "--warehouse",
                        warehouse.toString(),
                        "--database",
                        "default",
                        "--table",
                        "clips");

        assertThat(byName.exitCode()).isZero();
        assertThat(byName.out())
                .isEqualTo(ActionRun.of("inspect", "--table-path", tablePath).out());
    }

    @Test
    void missingOrTruncatedLiveFileFailsVerificationWithExitCode1() throws Exception {
        Files.delete(dataFile(DAY2, "data-b1.parquet"));
        Files.write(dataFile(DAY1, "data-a2.parquet"), new byte[3]);

        ActionRun run = ActionRun.of("inspect", "--table-path", tablePath);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("Verify: FAILED: ").contains("data-");
        ActionRun old = ActionRun.of("inspect", "--table-path", tablePath, "--snapshot", "1");
        assertThat(old.exitCode()).isEqualTo(1);
    }

    @Test
    void unknownSnapshotIsAnErrorNamingTheAvailableRange() {
        ActionRun run = ActionRun.of("inspect", "--table-path", tablePath, "--snapshot", "7");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("Snapshot 7 does not exist").contains("1..2");
    }

    /** The cells of the one output line starting with {@code prefix}, split at column gaps. */
    private static List<String> cells(String out, String prefix) {
        List<String> lines = out.lines().filter(l -> l.startsWith(prefix)).toList();
        assertThat(lines).as("lines starting with '%s'", prefix).hasSize(1);
        return Arrays.asList(lines.get(0).trim().split(" {2,}"));
    }

    private void commit(long identifier, ManifestEntry... files) {
        new TableCommit(store)
                .commit(CommitRequest.append("inspect-test", identifier, List.of(files)));
    }

    /** Writes {@code size} bytes at the file's place and returns its ADD entry. */
    private ManifestEntry file(
            String day,
            String name,
            long rows,
            int size,
            UnaryOperator<DataFileMeta.Builder> customize)
            throws Exception {
        Path path = Files.createDirectories(dataFile("dt=" + day, name).getParent());
        Files.write(path.resolve(name), new byte[size]);
        byte[] partition =
                BinaryRowCodec.of(FlinkTypes.toFlink(DataTypes.STRING()))
                        .serialize(GenericRowData.of(StringData.fromString(day)));
        DataFileMeta meta =
                customize.apply(DataFileMeta.builder(name).fileSize(size).rowCount(rows)).build();
        return new ManifestEntry(FileKind.ADD, partition, 0, -1, meta);
    }

    private Path dataFile(String partitionPath, String name) {
        return Path.of(store.paths().dataFile(partitionPath, 0, name).toUri());
    }
}
