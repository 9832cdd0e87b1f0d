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

import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.snapshot.SnapshotJson;

import org.apache.flink.types.Row;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code CALL dt.sys.rollback_to(...)}: old content back, {@code nextRowId} never back. */
class RollbackToProcedureITCase {

    @TempDir java.nio.file.Path warehouse;

    private ProcedureSession session;
    private List<String> atTwo;
    private List<String> atOne;

    /** Snapshots 1-2 append to a (tagged v1, v2), 3-6 append to b, update, delete, append. */
    @BeforeEach
    void writeHistory() throws IOException {
        session = new ProcedureSession(warehouse, Map.of());
        tag("v1", session.table.append("a", 0, 10));
        atOne = session.read(session.table.latest());
        tag("v2", session.table.append("a", 10, 10));
        atTwo = session.read(session.table.latest());
        session.table.append("b", 20, 10);
        session.table.update("name", Map.of(3L, "three", 25L, "twenty-five"));
        session.table.delete(4, 26);
        session.table.append("b", 30, 10);
        assertThat(session.table.latest().nextRowId()).isEqualTo(40L);
    }

    @Test
    void rollsBackContentButNeverRowIds() {
        Row result = rollback("snapshot_id => 2");

        assertThat(result.getField("previous_snapshot_id")).isEqualTo(6L);
        assertThat(result.getField("rolled_back_to")).isEqualTo(2L);
        assertThat(result.getField("current_snapshot_id")).isEqualTo(3L);
        assertThat(result.getField("next_row_id")).isEqualTo(40L);
        assertThat(result.getField("deleted_snapshots")).isEqualTo(4L);
        assertThat(result.getField("deleted_tags")).isEqualTo(0L);
        assertThat((Long) result.getField("deleted_data_files")).isEqualTo(4L); // b x2, update x2
        Snapshot latest = session.table.latest();
        assertThat(latest.id()).isEqualTo(3L);
        assertThat(latest.nextRowId()).isEqualTo(40L);
        assertThat(session.read(latest)).isEqualTo(atTwo);
        assertThat(session.table.vectors()).isEmpty();
        assertThat(session.table.filesIn("dt=b/bucket-0")).isEmpty();
        assertThat(session.table.filesIn("dt=a/bucket-0")).hasSize(2);
        session.table.store.files(latest).verifyLiveFiles();

        session.table.append("b", 100, 5); // the next commit gets row ids above every old one

        assertThat(session.table.liveAt(40)).hasSize(1);
        assertThat(session.table.latest().nextRowId()).isEqualTo(45L);
        assertThat(session.read(session.table.latest()))
                .hasSize(25)
                .containsAll(atTwo)
                .contains("id=100, name=name-100, score=1000, dt=b, _ROW_ID=40");
    }

    @Test
    void rollsBackToATagAndDropsNewerTags() {
        rollback("snapshot_id => 3");
        Row result = rollback("tag => 'v1'");

        assertThat(result.getField("rolled_back_to")).isEqualTo(1L);
        assertThat(result.getField("current_snapshot_id")).isEqualTo(2L);
        assertThat(result.getField("next_row_id")).isEqualTo(40L);
        assertThat(result.getField("deleted_tags")).isEqualTo(1L);
        assertThat(session.read(session.table.latest())).isEqualTo(atOne);
        assertThat(session.table.filesIn("tag")).containsExactly("tag-v1");
        assertThat(session.table.filesIn("dt=a/bucket-0")).hasSize(1);

        Row again = rollback("tag => 'v1'"); // already there: nothing changes
        assertThat(again.getField("current_snapshot_id")).isEqualTo(2L);
        assertThat(again.getField("deleted_snapshots")).isEqualTo(0L);
    }

    @Test
    void unknownSnapshotsAndTagsFailClearlyAndChangeNothing() {
        assertThatThrownBy(() -> rollback("snapshot_id => 9"))
                .hasStackTraceContaining(
                        "Cannot roll back to snapshot 9: it does not exist; the table's snapshots"
                                + " are 1..6.");
        assertThatThrownBy(() -> rollback("tag => 'nope'"))
                .hasStackTraceContaining(
                        "Cannot roll back to tag 'nope': the table has no such tag; its tags are"
                                + " [v1, v2].");
        assertThatThrownBy(() -> rollback("tag => 'v1', snapshot_id => 1"))
                .hasStackTraceContaining("rollback_to needs exactly one of snapshot_id and tag");
        assertThatThrownBy(() -> session.call("CALL dt.sys.rollback_to(`table` => 'db.t')"))
                .hasStackTraceContaining("got neither");
        assertThat(session.table.latest().id()).isEqualTo(6L);
        assertThat(session.table.latest().nextRowId()).isEqualTo(40L);
    }

    private Row rollback(String arguments) {
        List<Row> rows =
                session.call("CALL dt.sys.rollback_to(`table` => 'db.t', " + arguments + ")");
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    private void tag(String name, Snapshot snapshot) throws IOException {
        java.nio.file.Path dir = warehouse.resolve("db.db/t/tag");
        Files.createDirectories(dir);
        Files.write(dir.resolve("tag-" + name), SnapshotJson.toBytes(snapshot));
    }
}
