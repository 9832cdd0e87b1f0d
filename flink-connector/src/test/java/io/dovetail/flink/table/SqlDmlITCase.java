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

import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.config.TableConfigOptions;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.dovetail.flink.table.SqlTesting.execute;
import static io.dovetail.flink.table.SqlTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Batch {@code UPDATE} and {@code DELETE FROM} through Flink SQL on one MiniCluster at parallelism
 * 2: the rows read back, and the files and snapshots the statements committed (updates write
 * partial-column files of the assigned columns only, per touched group; deletes write deletion
 * vectors and no data file).
 */
class SqlDmlITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir static java.nio.file.Path warehouse;

    private TableEnvironment sql;
    private SqlTesting tables;

    @BeforeEach
    void connect() {
        tables = new SqlTesting(warehouse);
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().set("parallelism.default", "2");
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        sql.executeSql("USE CATALOG dt");
    }

    /**
     * Rows 0..19 in partitions a (even) and b (odd), written by two inserts of one writer each:
     * four groups of five rows.
     */
    private void media(String name, String options) {
        sql.executeSql(
                "CREATE TABLE "
                        + name
                        + " (id INT, url STRING, caption STRING, score DOUBLE, dt STRING)"
                        + " PARTITIONED BY (dt) WITH ('sink.parallelism' = '1', "
                        + options
                        + ")");
        execute(sql, "INSERT INTO " + name + " " + values(0, 10));
        execute(sql, "INSERT INTO " + name + " " + values(10, 20));
    }

    private static String values(int from, int to) {
        return "VALUES "
                + IntStream.range(from, to)
                        .mapToObj(
                                i ->
                                        "("
                                                + i
                                                + ", 'u"
                                                + i
                                                + "', CAST(NULL AS STRING), "
                                                + i
                                                + ".5, '"
                                                + (i % 2 == 0 ? "a" : "b")
                                                + "')")
                        .collect(Collectors.joining(", "));
    }

    @Test
    void updateWritesOnlyTheAssignedColumnsOfTouchedGroups() {
        media("upd", "'deletion-vectors.enabled' = 'false'");
        List<ManifestEntry> before = tables.liveFiles("upd");
        List<String> rowIds = rows(sql, "SELECT _ROW_ID, id FROM upd");

        String plan = sql.explainSql("UPDATE upd SET caption = CONCAT('cap-', url) WHERE id = 2");
        assertThat(plan.substring(plan.indexOf("== Optimized Execution Plan ==")))
                .as("the scan reads the filter's and the expression's columns and _ROW_ID only")
                .contains("project=[id, url], metadata=[_ROW_ID]]]")
                .doesNotContain("score");
        execute(sql, "UPDATE upd SET caption = CONCAT('cap-', url) WHERE id IN (2, 4, 13)");

        assertThat(rows(sql, "SELECT id, caption FROM upd WHERE caption IS NOT NULL"))
                .containsExactlyInAnyOrder("+I[2, cap-u2]", "+I[4, cap-u4]", "+I[13, cap-u13]");
        assertThat(rows(sql, "SELECT count(*), count(caption), sum(score) FROM upd"))
                .containsExactly("+I[20, 3, 200.0]");
        Snapshot update = tables.latest("upd");
        assertThat(update.commitKind()).isEqualTo(CommitKind.APPEND);
        List<ManifestEntry> added = added("upd", before);
        assertThat(added)
                .as("one partial-column file per touched group: ids 2 and 4 share one")
                .hasSize(2)
                .allSatisfy(
                        e -> {
                            assertThat(e.file().writeCols()).containsExactly("caption");
                            assertThat(e.file().firstRowId()).isNotNull();
                            assertThat(e.file().rowCount()).isEqualTo(5);
                        });
        assertThat(rows(sql, "SELECT _ROW_ID, id FROM upd"))
                .as("row ids are kept")
                .containsExactlyInAnyOrderElementsOf(rowIds);

        execute(sql, "UPDATE upd SET score = score * 2, caption = 'all' WHERE dt = 'b'");
        assertThat(rows(sql, "SELECT id, caption, score FROM upd WHERE id IN (1, 2, 13)"))
                .containsExactlyInAnyOrder(
                        "+I[1, all, 3.0]", "+I[2, cap-u2, 2.5]", "+I[13, all, 27.0]");

        execute(sql, "UPDATE upd SET caption = NULL");
        assertThat(rows(sql, "SELECT count(caption), count(*) FROM upd"))
                .containsExactly("+I[0, 20]");
    }

    @Test
    void deleteWritesDeletionVectorsAndNoDataFile() {
        media("del", "'deletion-vectors.enabled' = 'true'");
        List<ManifestEntry> before = tables.liveFiles("del");

        execute(sql, "DELETE FROM del WHERE id IN (3, 4, 17) OR url = 'u8'");

        assertThat(rows(sql, "SELECT id FROM del"))
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, 20)
                                .filter(i -> i != 3 && i != 4 && i != 17 && i != 8)
                                .mapToObj(i -> "+I[" + i + "]")
                                .toList());
        Snapshot delete = tables.latest("del");
        assertThat(delete.commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(tables.liveFiles("del")).isEqualTo(before);
        assertThat(tables.store("del").files(delete).indexFiles()).isNotEmpty();

        execute(sql, "UPDATE del SET caption = 'kept' WHERE id < 6");
        assertThat(rows(sql, "SELECT id, caption FROM del WHERE id < 6"))
                .as("an update after a delete keeps deleted rows deleted")
                .containsExactlyInAnyOrder(
                        "+I[0, kept]", "+I[1, kept]", "+I[2, kept]", "+I[5, kept]");

        execute(sql, "DELETE FROM del WHERE dt = 'b'");
        assertThat(rows(sql, "SELECT count(*) FROM del")).containsExactly("+I[8]");
        execute(sql, "DELETE FROM del");
        assertThat(rows(sql, "SELECT count(*) FROM del")).containsExactly("+I[0]");
        execute(sql, "INSERT INTO del " + values(20, 22));
        assertThat(rows(sql, "SELECT _ROW_ID FROM del"))
                .as("new rows get new row ids after deleted ones")
                .containsExactlyInAnyOrder("+I[20]", "+I[21]");
    }

    @Test
    void deletesOfWholePartitionsDropThemWithoutDeletionVectors() {
        media("dropped", "'deletion-vectors.enabled' = 'false'");
        execute(sql, "DELETE FROM dropped WHERE dt = 'a'");
        assertThat(rows(sql, "SELECT count(*), min(MOD(id, 2)) FROM dropped"))
                .containsExactly("+I[10, 1]");
        assertThat(tables.latest("dropped").commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(tables.liveFiles("dropped"))
                .as("only partition b's files are left")
                .hasSize(2)
                .allSatisfy(e -> assertThat(e.file().rowCount()).isEqualTo(5));
        execute(sql, "DELETE FROM dropped WHERE dt = 'none'");
        assertThat(rows(sql, "SELECT count(*) FROM dropped")).containsExactly("+I[10]");
        assertThatThrownBy(() -> sql.executeSql("DELETE FROM dropped"))
                .as("without a WHERE clause Flink plans a row-level delete")
                .hasStackTraceContaining("TRUNCATE TABLE empties the table");
        execute(sql, "TRUNCATE TABLE dropped");
        assertThat(rows(sql, "SELECT count(*) FROM dropped")).containsExactly("+I[0]");
        assertThat(tables.liveFiles("dropped")).isEmpty();
        execute(sql, "INSERT INTO dropped " + values(0, 2));
        assertThat(rows(sql, "SELECT min(_ROW_ID) FROM dropped"))
                .as("row ids are never reused")
                .containsExactly("+I[20]");
    }

    @Test
    void dmlOnAnEmptyTableChangesNothing() {
        sql.executeSql(
                "CREATE TABLE nothing (id INT, v STRING) WITH ('deletion-vectors.enabled' = 'true')");
        execute(sql, "UPDATE nothing SET v = 'x'");
        execute(sql, "DELETE FROM nothing WHERE id = 1");
        assertThat(tables.store("nothing").latestSnapshot()).isEmpty();
    }

    @Test
    void badRowLevelChangesFailClearlyAndChangeNothing() {
        media("bad", "'deletion-vectors.enabled' = 'false'");
        long snapshots = tables.latest("bad").id();
        assertThatThrownBy(() -> sql.executeSql("DELETE FROM bad WHERE id = 1"))
                .hasStackTraceContaining("without deletion vectors")
                .hasStackTraceContaining("'deletion-vectors.enabled' = 'true'");
        assertThatThrownBy(() -> sql.executeSql("UPDATE bad SET dt = 'c' WHERE id = 1"))
                .hasStackTraceContaining("UPDATE of the partition column 'dt'");

        sql.getConfig()
                .set("table.column-expansion-strategy", "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS");
        assertThatThrownBy(() -> sql.executeSql("UPDATE bad SET url = 'x'"))
                .hasStackTraceContaining("RESET 'table.column-expansion-strategy'");
        sql.getConfig()
                .getConfiguration()
                .removeConfig(TableConfigOptions.TABLE_COLUMN_EXPANSION_STRATEGY);

        TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        streaming.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        assertThatThrownBy(() -> streaming.executeSql("UPDATE dt.`default`.bad SET url = 'x'"))
                .hasStackTraceContaining("UPDATE statement is not supported for streaming mode");
        assertThat(tables.latest("bad").id()).isEqualTo(snapshots);
        assertThat(rows(sql, "SELECT count(*), count(caption) FROM bad"))
                .containsExactly("+I[20, 0]");
    }

    /**
     * A streaming INSERT into {@code t$column_updates} with a column list updates exactly the
     * listed columns of the rows it names, one column update per checkpoint; of two updates of one
     * row the later wins. Without a column list, or with _ROW_ID alone in it, it fails clearly.
     */
    @Test
    void streamingInsertIntoColumnUpdatesUpdatesTheListedColumns() {
        media("cu", "'deletion-vectors.enabled' = 'false'");
        Map<String, String> rowIds = new HashMap<>();
        for (String row : rows(sql, "SELECT id, _ROW_ID FROM cu")) {
            String[] parts = row.substring(3, row.length() - 1).split(", ");
            rowIds.put(parts[0], parts[1]);
        }
        TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("execution.checkpointing.interval", "100ms");
        // one path from VALUES to the writer, so the two updates of row 3 arrive in order
        streaming.getConfig().set("parallelism.default", "1");
        streaming.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        streaming.executeSql("USE CATALOG dt");
        execute(
                streaming,
                "INSERT INTO cu$column_updates (_ROW_ID, caption) VALUES ("
                        + rowIds.get("3")
                        + ", 'first'), ("
                        + rowIds.get("12")
                        + ", 'c12'), ("
                        + rowIds.get("3")
                        + ", 'c3')");

        assertThat(rows(sql, "SELECT id, caption, url FROM cu WHERE caption IS NOT NULL"))
                .as(
                        "snapshots %s",
                        rows(
                                sql,
                                "SELECT snapshot_id, commit_identifier, commit_kind FROM"
                                        + " `cu$snapshots`"))
                .containsExactlyInAnyOrder("+I[3, c3, u3]", "+I[12, c12, u12]");
        assertThat(rows(sql, "SELECT count(*), count(url) FROM cu")).containsExactly("+I[20, 20]");
        assertThat(tables.latest("cu").commitUser()).startsWith("dovetail-");

        assertThatThrownBy(
                        () ->
                                streaming.executeSql(
                                        "INSERT INTO cu$column_updates VALUES (0, 1, 'u', 'c',"
                                                + " 1.5, 'a')"))
                .hasStackTraceContaining("needs a column list naming _ROW_ID");
        assertThatThrownBy(
                        () ->
                                streaming.executeSql(
                                        "INSERT INTO cu$column_updates (_ROW_ID) VALUES (0)"))
                .hasStackTraceContaining("must name _ROW_ID and at least one column");
    }

    /**
     * A batch INSERT into {@code t$column_updates} sorts the updates by row id and then by arrival:
     * of two updates of one row the later wins, in one snapshot on the latest snapshot when the job
     * started; a row id the table does not hold fails it and changes nothing.
     */
    @Test
    void batchInsertIntoColumnUpdatesKeepsTheLastUpdateOfARow() {
        media("bcu", "'deletion-vectors.enabled' = 'false'");
        Map<String, String> rowIds = new HashMap<>();
        for (String row : rows(sql, "SELECT id, _ROW_ID FROM bcu")) {
            String[] parts = row.substring(3, row.length() - 1).split(", ");
            rowIds.put(parts[0], parts[1]);
        }
        long before = tables.latest("bcu").id();
        execute(
                sql,
                "INSERT INTO bcu$column_updates (_ROW_ID, caption) VALUES ("
                        + rowIds.get("3")
                        + ", 'first'), ("
                        + rowIds.get("12")
                        + ", 'c12'), ("
                        + rowIds.get("3")
                        + ", 'c3')");

        assertThat(rows(sql, "SELECT id, caption, url FROM bcu WHERE caption IS NOT NULL"))
                .containsExactlyInAnyOrder("+I[3, c3, u3]", "+I[12, c12, u12]");
        assertThat(tables.latest("bcu").id()).isEqualTo(before + 1);
        assertThatThrownBy(
                        () ->
                                execute(
                                        sql,
                                        "INSERT INTO bcu$column_updates (_ROW_ID, caption) VALUES"
                                                + " (1000, 'stale')"))
                .hasStackTraceContaining("Stale row id 1000");
        assertThat(tables.latest("bcu").id()).isEqualTo(before + 1);
    }

    /**
     * Thousands of updates of two rows from one source subtask: each row keeps its last one. The
     * sort orders equal row ids by arrival too (a sort by row id alone leaves equal keys in any
     * order once there are more than a handful).
     */
    @Test
    void batchInsertIntoColumnUpdatesKeepsTheLastOfManyUpdatesOfARow() {
        media("bcm", "'deletion-vectors.enabled' = 'false'");
        long first = Long.parseLong(value(rows(sql, "SELECT MIN(_ROW_ID) FROM bcm").get(0)));
        sql.executeSql(
                "CREATE TEMPORARY TABLE bcm_updates (n BIGINT) WITH ('connector' = 'datagen',"
                        + " 'fields.n.kind' = 'sequence', 'fields.n.start' = '0',"
                        + " 'fields.n.end' = '19999', 'number-of-rows' = '20000',"
                        + " 'scan.parallelism' = '1')");
        execute(
                sql,
                "INSERT INTO bcm$column_updates (_ROW_ID, caption) SELECT "
                        + first
                        + " + MOD(n, 2), CAST(n AS STRING) FROM bcm_updates");

        assertThat(rows(sql, "SELECT _ROW_ID, caption FROM bcm WHERE caption IS NOT NULL"))
                .containsExactlyInAnyOrder(
                        "+I[" + first + ", 19998]", "+I[" + (first + 1) + ", 19999]");
    }

    private static String value(String row) {
        return row.substring(3, row.length() - 1);
    }

    // ---------------------------------------------------------------- helpers

    private List<ManifestEntry> added(String table, List<ManifestEntry> before) {
        List<ManifestEntry> added = new ArrayList<>(tables.liveFiles(table));
        added.removeAll(before);
        return added;
    }
}
