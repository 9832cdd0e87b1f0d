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

import io.dovetail.table.testing.EvolvingTable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The maintenance actions run their procedures and statements on an embedded MiniCluster, one after
 * another on one table written through the core: delete, compact, rollback, expire, merge.
 */
class MaintenanceActionsITCase {

    @TempDir Path warehouse;

    @Test
    void everyActionDocumentsItsOptions() {
        for (String action :
                List.of("compact", "expire_snapshots", "rollback_to", "delete", "merge")) {
            ActionRun run = ActionRun.of(action, "--help");
            assertThat(run.exitCode()).isZero();
            assertThat(run.out())
                    .startsWith("Usage: " + action + " --warehouse W --database D --table T")
                    .contains("--warehouse W", "--database D", "--table T");
        }
        assertThat(ActionRun.of("compact", "--help").out())
                .contains("--partitions V", "--where V", "--options V", "--parallelism V");
        assertThat(ActionRun.of("rollback_to", "--help").out())
                .contains("--snapshot_id V", "--tag V");
        assertThat(ActionRun.of("expire_snapshots", "--help").out())
                .contains("--retain_max V", "--retain_min V", "--older_than V", "--max_deletes V");
        assertThat(ActionRun.of("delete", "--help").out()).contains("--where P");
        assertThat(ActionRun.of("merge", "--help").out())
                .contains(
                        "--source V",
                        "--merge_condition V",
                        "--matched_update_set V",
                        "--not_matched_insert_values V",
                        "--on_stale_row_id V");
        assertThat(ActionRun.of("materialize_deletion_vectors", "--help").out())
                .contains("--confirm V", "--partitions V", "--where V", "NEW row ids");
        assertThat(ActionRun.of("quickstart", "--help").out())
                .startsWith("Usage: quickstart [--warehouse DIR]");
        assertThat(ActionRun.of("inspect", "--help").exitCode()).isZero();
        assertThat(ActionRun.of("inspect", "--help").out()).contains("--table-path DIR");
        assertThat(ActionRun.of("help").out())
                .contains(
                        "compact --warehouse W",
                        "rollback_to --warehouse W",
                        "delete --warehouse W");
    }

    @Test
    void deleteCompactRollBackAndExpireATable() {
        EvolvingTable table = new EvolvingTable(warehouse.resolve("db.db/t"), true, Map.of());
        for (int i = 0; i < 10; i++) {
            table.append(i < 5 ? "a" : "b", i * 10L, 10);
        }
        List<String> before = table.read("id", "_ROW_ID");

        ActionRun deleted = action("delete", "--where", "id = 7 OR id = 55");
        assertThat(deleted.out()).contains("snapshot_id: 11");
        assertThat(table.read("id", "_ROW_ID"))
                .hasSize(98)
                .doesNotContain("id=7, _ROW_ID=7", "id=55, _ROW_ID=55");
        assertThat(table.vectors()).hasSize(2);

        ActionRun compacted = action("compact", "--parallelism", "2", "--compact_strategy", "full");
        assertThat(compacted.out())
                .contains("files_written: 2", "files_rewritten: 10", "snapshot_id: 12")
                .contains("rewrite_subtasks: 2");
        assertThat(table.live()).hasSize(2);
        assertThat(table.read("id", "_ROW_ID")).hasSize(98).isSubsetOf(before);

        ActionRun unconfirmed = ActionRun.of(withTable("materialize_deletion_vectors"));
        assertThat(unconfirmed.exitCode()).isEqualTo(1);
        assertThat(unconfirmed.err()).contains("pass confirm => true to run it");
        ActionRun materialized =
                action("materialize_deletion_vectors", "--confirm", "true", "--where", "dt = 'b'");
        assertThat(materialized.out())
                .contains("groups_rewritten: 1", "rows_kept: 49", "rows_removed: 1")
                .contains("snapshot_id: 13");
        assertThat(table.vectors()).hasSize(1);
        assertThat(table.read("id", "_ROW_ID")).hasSize(98).contains("id=56, _ROW_ID=105");

        ActionRun rolledBack = action("rollback_to", "--snapshot_id", "10");
        assertThat(rolledBack.out())
                .contains("rolled_back_to: 10", "current_snapshot_id: 11", "next_row_id: 149");
        assertThat(table.read("id", "_ROW_ID")).isEqualTo(before);

        ActionRun expired = action("expire_snapshots", "--retain_max", "1", "--retain_min", "1");
        assertThat(expired.out()).contains("expired_snapshots: 10", "earliest_snapshot: 11");

        ActionRun merged =
                action(
                        "merge",
                        "--source",
                        "SELECT _ROW_ID, id * 2 AS id FROM t WHERE id < 3",
                        "--merge_condition",
                        "t._ROW_ID = s._ROW_ID",
                        "--matched_update_set",
                        "id = s.id",
                        "--parallelism",
                        "2");
        assertThat(merged.out()).contains("updated: 3", "snapshot_id: 12");
        assertThat(table.read("id", "_ROW_ID"))
                .contains("id=0, _ROW_ID=0", "id=2, _ROW_ID=1", "id=4, _ROW_ID=2")
                .hasSize(100);

        ActionRun unknown = ActionRun.of(withTable("rollback_to", "--snapshot_id", "99"));
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.err()).contains("Cannot roll back to snapshot 99: it does not exist");
        ActionRun badWhere = ActionRun.of(withTable("delete", "--where", "nope = 1"));
        assertThat(badWhere.exitCode()).isEqualTo(1);
        assertThat(badWhere.err()).contains("nope");
        assertThat(table.latest().id()).isEqualTo(12);
    }

    private ActionRun action(String... args) {
        ActionRun run = ActionRun.of(withTable(args));
        assertThat(run.exitCode()).as(run.err()).isZero();
        return run;
    }

    private String[] withTable(String... args) {
        String[] all = new String[args.length + 6];
        all[0] = args[0];
        all[1] = "--warehouse";
        all[2] = warehouse.toString();
        all[3] = "--database";
        all[4] = "db";
        all[5] = "--table";
        all[6] = "t";
        System.arraycopy(args, 1, all, 7, args.length - 1);
        return all;
    }
}
