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
package io.dovetail.flink.procedure;

import io.dovetail.table.maintenance.DataEvolutionCompaction;

import org.apache.flink.types.Row;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code CALL dt.sys.expire_snapshots(...)} through Flink SQL, checked through the core. */
class ExpireSnapshotsProcedureITCase {

    @TempDir java.nio.file.Path warehouse;

    @Test
    void expiresDownToRetainMaxAndDeletesTheFilesOnlyExpiredSnapshotsReferenced() {
        ProcedureSession session =
                new ProcedureSession(warehouse, Map.of("snapshot.num-retained.min", "1"));
        for (int i = 0; i < 5; i++) {
            session.table.append("a", i * 10L, 10); // snapshots 1..5
        }
        TreeSet<String> appended = session.table.filesIn("dt=a/bucket-0");
        new DataEvolutionCompaction(session.table.store).compact("compactor", 1); // 6
        session.table.append("a", 50, 10); // 7
        List<String> compactedRows = session.read(session.table.store.snapshots().snapshot(6));
        List<String> latestRows = session.read(session.table.latest());

        List<Row> result =
                session.call("CALL dt.sys.expire_snapshots(`table` => 'db.t', retain_max => 2)");

        assertThat(result).hasSize(1);
        Row row = result.get(0);
        assertThat(row.getField("expired_snapshots")).isEqualTo(5L);
        assertThat(row.getField("earliest_snapshot")).isEqualTo(6L);
        assertThat(row.getField("deleted_data_files")).isEqualTo(5L);
        assertThat((Long) row.getField("deleted_metadata_files")).isPositive();
        assertThat(session.table.store.snapshots().earliestId()).hasValue(6);
        assertThat(session.table.filesIn("snapshot")).doesNotContain("snapshot-1", "snapshot-5");
        assertThat(session.table.filesIn("dt=a/bucket-0"))
                .hasSize(2)
                .doesNotContainAnyElementsOf(appended);
        assertThat(session.read(session.table.store.snapshots().snapshot(6)))
                .hasSize(50)
                .isEqualTo(compactedRows);
        assertThat(session.read(session.table.latest())).hasSize(60).isEqualTo(latestRows);
        session.table.store.files(session.table.latest()).verifyLiveFiles();
    }

    @Test
    void olderThanReplacesTheRetainedTimeAndMaxDeletesCapsARun() {
        ProcedureSession session =
                new ProcedureSession(warehouse, Map.of("snapshot.num-retained.min", "1"));
        for (int i = 0; i < 4; i++) {
            session.table.append("a", i * 10L, 10); // snapshots 1..4
        }
        List<String> rows = session.read(session.table.latest());

        // the table keeps an hour of history by default: nothing is old enough yet
        Row none = session.call("CALL dt.sys.expire_snapshots(`table` => 'db.t')").get(0);
        assertThat(none)
                .isEqualTo(
                        named(
                                "expired_snapshots", 0L,
                                "earliest_snapshot", 1L,
                                "deleted_data_files", 0L,
                                "deleted_metadata_files", 0L));
        assertThat(expired(session, "older_than => '2000-01-01 00:00:00'"))
                .isEqualTo(List.of(0L, 1L));
        assertThat(
                        expired(
                                session,
                                "older_than => '2999-12-31 23:59:59', max_deletes => 2,"
                                        + " retain_min => 1"))
                .isEqualTo(List.of(2L, 3L));
        assertThat(expired(session, "older_than => '2999-12-31'")).isEqualTo(List.of(1L, 4L));
        assertThat(session.table.store.snapshots().earliestId()).hasValue(4);
        assertThat(session.read(session.table.latest())).isEqualTo(rows);
    }

    @Test
    void optionsOverrideTheTableDefaults() {
        ProcedureSession session = new ProcedureSession(warehouse, Map.of());
        for (int i = 0; i < 3; i++) {
            session.table.append("a", i * 10L, 10);
        }
        assertThat(
                        expired(
                                session,
                                "options => 'snapshot.num-retained.min=1,snapshot.time-retained=0"
                                        + " s'"))
                .isEqualTo(List.of(2L, 3L));
    }

    @Test
    void theCatalogListsTheProceduresOfThisModuleInSys() {
        ProcedureSession session = new ProcedureSession(warehouse, Map.of());
        assertThat(session.call("SHOW PROCEDURES FROM dt.sys"))
                .extracting(r -> r.getField("procedure name"))
                .containsExactly(
                        "clear_consumers",
                        "compact",
                        "create_global_index",
                        "data_evolution_merge",
                        "data_evolution_merge_into",
                        "drop_global_index",
                        "expire_snapshots",
                        "materialize_deletion_vectors",
                        "remove_orphan_files",
                        "reset_consumer",
                        "rollback_to");
    }

    @Test
    void badArgumentsFailWithTheirNames() {
        ProcedureSession session = new ProcedureSession(warehouse, Map.of());
        session.table.append("a", 0, 10);
        assertThatThrownBy(() -> session.call("CALL dt.sys.expire_snapshots(`table` => 't')"))
                .hasStackTraceContaining("A table argument must be 'database.table', got 't'.");
        assertThatThrownBy(() -> session.call("CALL dt.sys.expire_snapshots(`table` => 'db.nope')"))
                .hasStackTraceContaining("Table 'db.nope' does not exist in catalog 'dt'.");
        assertThatThrownBy(
                        () ->
                                session.call(
                                        "CALL dt.sys.expire_snapshots(`table` => 'db.t$row_tracking')"))
                .hasStackTraceContaining("not on the system table 'db.t$row_tracking'");
        assertThatThrownBy(() -> expired(session, "retain_min => 0"))
                .hasStackTraceContaining("retain_min must be at least 1, got 0.");
        assertThatThrownBy(() -> expired(session, "retain_max => 3"))
                .hasStackTraceContaining(
                        "retain_max (3) must be at least retain_min (10, the table's"
                                + " snapshot.num-retained.min).");
        assertThatThrownBy(() -> expired(session, "max_deletes => -1"))
                .hasStackTraceContaining("max_deletes must be at least 1, got -1.");
        assertThatThrownBy(() -> expired(session, "older_than => 'yesterday'"))
                .hasStackTraceContaining(
                        "older_than must be a timestamp 'yyyy-MM-dd HH:mm:ss[.fff]', got"
                                + " 'yesterday'.");
        assertThatThrownBy(() -> expired(session, "options => 'snapshot.num-retained.min'"))
                .hasStackTraceContaining("options must be 'key=value' pairs");
        assertThatThrownBy(() -> session.call("CALL dt.sys.expire_snapshot(`table` => 'db.t')"))
                .hasStackTraceContaining("expire_snapshot");
        assertThat(session.table.store.snapshots().earliestId()).hasValue(1);
    }

    /** {@code expired_snapshots} and {@code earliest_snapshot} of a call on {@code db.t}. */
    private static List<Long> expired(ProcedureSession session, String arguments) {
        Row row =
                session.call("CALL dt.sys.expire_snapshots(`table` => 'db.t', " + arguments + ")")
                        .get(0);
        return List.of(
                (Long) row.getField("expired_snapshots"), (Long) row.getField("earliest_snapshot"));
    }

    private static Row named(Object... namesAndValues) {
        Row row = Row.withNames();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            row.setField((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return row;
    }
}
