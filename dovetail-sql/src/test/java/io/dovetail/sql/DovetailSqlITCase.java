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
package io.dovetail.sql;

import org.apache.flink.runtime.minicluster.MiniCluster;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Drives {@link DovetailSql#run} in-process: every run's jobs go to the one embedded cluster. */
class DovetailSqlITCase {

    private static final String ROWS =
            "SELECT * FROM (VALUES (1, 'plain', 1.5), (2, 'a,b \"q\"', CAST(NULL AS DOUBLE)),"
                    + " (CAST(NULL AS INT), '\\N', 3.0)) AS t(id, s, d) ORDER BY s";

    @TempDir Path warehouse;

    @AfterAll
    static void stopCluster() throws Exception {
        EmbeddedCluster.shutdown();
    }

    @Test
    void runsSeveralStatementsOverTheWarehouseCatalog() throws Exception {
        Run run =
                run(
                        "-e",
                        "CREATE TABLE t (id INT, s STRING) WITH ('row-tracking.enabled' = 'true',"
                                + " 'data-evolution.enabled' = 'true'); SHOW TABLES;"
                                + " SELECT * FROM t; SELECT * FROM `t$row_tracking`;"
                                + " CALL dovetail.sys.expire_snapshots(`table` => 'default.t');"
                                + " SHOW CURRENT CATALOG");

        assertThat(run.exitCode).as(run.err).isZero();
        assertThat(run.out)
                .contains("OK  CREATE TABLE t (id INT, s STRING)")
                .contains("| table name |", "|          t |")
                .contains("Empty set")
                .contains("expired_snapshots")
                .contains("|             dovetail |");
        assertThat(warehouse.resolve("default.db").resolve("t")).isDirectory();
    }

    @Test
    void runsAScriptWithCommentsAndMultiLineStatements() throws Exception {
        Path script = warehouse.resolve("script.sql");
        Files.writeString(
                script,
                String.join(
                        "\n",
                        "-- greeting; with a semicolon",
                        "SELECT 'hello;world' AS greeting,",
                        "       /* the answer */ 42 AS answer;",
                        "SELECT 2 AS two"));

        Run run = run("-f", script.toString(), "--format", "csv");

        assertThat(run.exitCode).as(run.err).isZero();
        assertThat(run.out).isEqualTo("greeting,answer\n\"hello;world\",42\ntwo\n2\n");
    }

    @Test
    void printsCsvWithNullsAndQuotes() throws Exception {
        Run run = run("--format", "csv", "-e", ROWS);

        assertThat(run.exitCode).as(run.err).isZero();
        assertThat(run.out)
                .isEqualTo("id,s,d\n\\N,\"\\N\",3.0\n2,\"a,b \"\"q\"\"\",\\N\n1,\"plain\",1.5\n");
    }

    @Test
    void printsJsonLines() throws Exception {
        Run run = run("--format", "json", "-e", ROWS);

        assertThat(run.exitCode).as(run.err).isZero();
        assertThat(run.out)
                .isEqualTo(
                        "{\"id\":null,\"s\":\"\\\\N\",\"d\":3.0}\n"
                                + "{\"id\":2,\"s\":\"a,b \\\"q\\\"\",\"d\":null}\n"
                                + "{\"id\":1,\"s\":\"plain\",\"d\":1.5}\n");
    }

    @Test
    void setAndResetChangeTheRuntimeMode() throws Exception {
        Run run =
                run(
                        "--format",
                        "csv",
                        "-e",
                        "SET 'execution.runtime-mode' = 'streaming'; SELECT 1 AS x;"
                                + " RESET 'execution.runtime-mode'; SELECT 2 AS x");

        assertThat(run.exitCode).as(run.err).isZero();
        assertThat(run.out).isEqualTo("op,x\n+I,1\nx\n2\n");
        assertThat(run.err)
                .contains("OK  SET 'execution.runtime-mode' = 'streaming'")
                .contains("OK  RESET 'execution.runtime-mode'");
    }

    @Test
    void streamingModeFromTheCommandLine() throws Exception {
        Run run = run("--mode", "streaming", "--format", "csv", "-e", "SELECT 1 AS x");

        assertThat(run.exitCode).as(run.err).isZero();
        assertThat(run.out).isEqualTo("op,x\n+I,1\n");
    }

    @Test
    void aFailingStatementStopsTheRunWithItsMessage() throws Exception {
        Run run = run("-e", "SELECT 1 AS x;\nSELECT * FROM missing;\nSELECT 3");

        assertThat(run.exitCode).isEqualTo(1);
        assertThat(run.out).contains("| x |").doesNotContain("3");
        assertThat(run.err)
                .endsWith(
                        "Error in the statement at line 2 (SELECT * FROM missing):\n"
                                + "SQL validation failed. From line 1, column 15 to line 1,"
                                + " column 21: Object 'missing' not found\n");
    }

    @Test
    void theQuickstartRunsTwiceAndItsTableReadsBackAsCsvWhileAUsersMediaTableIsUntouched()
            throws Exception {
        Run mine =
                run(
                        "-e",
                        "CREATE TABLE media (id BIGINT, note STRING);"
                                + " INSERT INTO media VALUES (7, 'my own row')");
        assertThat(mine.exitCode).as(mine.err).isZero();
        List<String> before = filesUnder(warehouse.resolve("default.db"));
        Path quickstart = Path.of("..", "examples", "quickstart.sql");

        for (int attempt = 1; attempt <= 2; attempt++) {
            Run script = run("-f", quickstart.toString());
            assertThat(script.exitCode).as("run %d: %s", attempt, script.err).isZero();
            assertThat(script.out)
                    .contains("OK  UPDATE media SET caption_len = CHAR_LENGTH(caption)")
                    .contains("OK  DELETE FROM media WHERE id = 2")
                    .contains("| first_row_id |");
        }

        Run csv =
                run(
                        "--format",
                        "csv",
                        "-e",
                        "SELECT count(DISTINCT _ROW_ID), max(_ROW_ID) <= 3 FROM quickstart.media;"
                                + " SELECT * FROM quickstart.media ORDER BY id;"
                                + " SELECT * FROM `default`.media");
        assertThat(csv.exitCode).as(csv.err).isZero();
        assertThat(csv.out)
                .as("three rows of the four inserted are left, with row ids in 0..3")
                .isEqualTo(
                        "EXPR$0,EXPR$1\n3,TRUE\n"
                                + "id,url,caption,dt,caption_len\n"
                                + "1,\"https://example.com/1.jpg\",\"a red bicycle\","
                                + "\"2026-12-01\",13\n"
                                + "3,\"https://example.com/3.jpg\",\\N,\"2026-12-02\",\\N\n"
                                + "4,\"https://example.com/4.jpg\",\"a lighthouse at dusk\","
                                + "\"2026-12-02\",20\n"
                                + "id,note\n7,\"my own row\"\n");
        assertThat(filesUnder(warehouse.resolve("default.db")))
                .as("the user's default.media: not a byte changed")
                .isEqualTo(before);
    }

    @Test
    void theEmbeddingPipelineExampleFillsEveryRowWithoutRewritingTheImages() throws Exception {
        Run script = run("-f", Path.of("..", "examples", "embed-stream.sql").toString());
        assertThat(script.exitCode).as(script.err).isZero();

        Run csv =
                run(
                        "--format",
                        "csv",
                        "-e",
                        "SELECT COUNT(*), COUNT(DISTINCT id), COUNT(DISTINCT _ROW_ID),"
                                + " COUNT(embedding), MIN(CARDINALITY(embedding)) FROM"
                                + " quickstart.docs;"
                                + " SELECT embedding FROM quickstart.docs WHERE id = 7;"
                                + " SELECT SUM(record_count) FROM quickstart.`docs$files` WHERE"
                                + " write_cols IS NULL OR ARRAY_CONTAINS(write_cols, 'image')");
        assertThat(csv.exitCode).as(csv.err).isZero();
        assertThat(csv.out)
                .as("1,000 rows, each with its 4-float embedding; each image written once")
                .isEqualTo(
                        "EXPR$0,EXPR$1,EXPR$2,EXPR$3,EXPR$4\n1000,1000,1000,1000,4\n"
                                + "embedding\n\"[0.625, 0.0, 0.6363636, 0.53846157]\"\n"
                                + "EXPR$0\n1000\n");
    }

    @Test
    void anUpdateAtTheSqlClientPromptRunsWithTheExpansionStrategyReset() throws Exception {
        Path script = warehouse.resolve("prompt.sql");
        Files.writeString(
                script,
                String.join(
                        "\n",
                        "CREATE TABLE p (id INT, s STRING);",
                        "INSERT INTO p VALUES (1, 'a'), (2, 'b');",
                        "UPDATE p SET s = 'updated' WHERE id = 2;",
                        ""));

        InteractiveClient.run(
                LauncherOptions.parse(new String[] {"-w", warehouse.toString()}),
                List.of("-f", script.toString()));

        Run read = run("--format", "csv", "-e", "SELECT _ROW_ID, * FROM p ORDER BY id");
        assertThat(read.exitCode).as(read.err).isZero();
        assertThat(read.out).isEqualTo("_ROW_ID,id,s\n0,1,\"a\"\n1,2,\"updated\"\n");
    }

    @Test
    void aWarehouseUriUsesTheFileSystemOfItsSchemeAndCreatesNoLocalDirectory() throws Exception {
        Run run =
                DovetailSqlITCase.runIn(
                        "-w", "s3://dovetail-no-such-bucket/wh", "-e", "SHOW TABLES");

        assertThat(run.exitCode).isNotZero();
        assertThat(run.err).contains("s3");
        assertThat(Path.of("s3:")).doesNotExist();
    }

    @Test
    void aBadCommandLineIsAUsageError() throws Exception {
        Run run = run("-p", "zero", "-e", "SELECT 1");

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).startsWith("Error: -p must be a positive integer, got 'zero'.");
    }

    @Test
    void everyQueryRunsOnTheOneEmbeddedCluster() throws Exception {
        assertThat(run("-e", "SELECT 1").exitCode).isZero();
        MiniCluster cluster = EmbeddedCluster.running().orElseThrow();
        int jobsBefore = cluster.listJobs().get().size();

        Run run = run("-e", "SELECT 1; SELECT 2; SELECT 3");

        assertThat(run.exitCode).as(run.err).isZero();
        assertThat(EmbeddedCluster.running()).containsSame(cluster);
        assertThat(cluster.listJobs().get()).hasSize(jobsBefore + 3);
    }

    private static List<String> filesUnder(Path root) throws Exception {
        try (Stream<Path> files = Files.walk(root)) {
            return files.map(p -> root.relativize(p) + " " + p.toFile().length()).sorted().toList();
        }
    }

    private Run run(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("-w", warehouse.toString()));
        all.addAll(List.of(args));
        return runIn(all.toArray(String[]::new));
    }

    private static Run runIn(String... all) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode =
                DovetailSql.run(
                        all,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(
                exitCode,
                out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8));
    }

    private record Run(int exitCode, String out, String err) {}
}
