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
package io.dovetail.e2e.random;

import org.apache.flink.types.Row;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The maintenance procedures and time travel: {@code compact}, column-selective or full (changes no
 * row), {@code materialize_deletion_vectors} (survivors of groups with deleted rows get new row ids
 * in their old order within each partition), {@code expire_snapshots} (keeps the newest {@code
 * retain_max}), {@code rollback_to} (the rows of that snapshot, row ids never handed out again) and
 * reads of an older snapshot.
 */
final class MaintenanceOps {

    private MaintenanceOps() {}

    static String call(String procedure, String table, String arguments) {
        return "CALL dovetail.sys."
                + procedure
                + "(`table` => "
                + Sql.string("default." + table)
                + (arguments.isEmpty() ? "" : ", " + arguments)
                + ")";
    }

    /**
     * {@code compact}, of every partition or of one, column-selective or full ({@code
     * compact_strategy => 'full'}: every column of bins of adjacent groups rewritten).
     */
    static final class Compact extends Op {
        final String table;
        final String options;
        final String partition;
        final boolean full;

        Compact(String table, String options, String partition, boolean full) {
            this.table = table;
            this.options = options;
            this.partition = partition;
            this.full = full;
        }

        @Override
        String kind() {
            return full ? "compact-full" : "compact";
        }

        @Override
        boolean applicable(ModelTable model) {
            return partition == null || model.schema.partitioned();
        }

        /** Whether its last run rewrote files (it commits nothing when no group qualifies). */
        private boolean rewrote;

        @Override
        List<String> statements(ModelTable model) {
            return List.of(
                    call(
                            "compact",
                            table,
                            "options => "
                                    + Sql.string(options)
                                    + (partition == null
                                            ? ""
                                            : ", partitions => " + Sql.string("p=" + partition))
                                    + (full ? ", compact_strategy => 'full'" : "")));
        }

        @Override
        void finish(ModelTable model, Probe probe) {
            Row result = probe.lastResult().isEmpty() ? null : probe.lastResult().get(0);
            rewrote = result != null && ((Long) result.getField(1)) > 0; // files_rewritten
        }

        @Override
        boolean exercised() {
            return rewrote;
        }
    }

    /** {@code materialize_deletion_vectors(confirm => true)}. */
    static final class Materialize extends Op {
        final String table;
        private final List<long[]> rangesWithDeletes = new ArrayList<>();

        Materialize(String table) {
            this.table = table;
        }

        @Override
        String kind() {
            return "materialize";
        }

        @Override
        List<String> statements(ModelTable model) {
            return List.of(call("materialize_deletion_vectors", table, "confirm => true"));
        }

        @Override
        void prepare(Probe probe) throws Exception {
            rangesWithDeletes.clear();
            for (Row row :
                    probe.query(
                            "SELECT first_row_id, last_row_id FROM "
                                    + Sql.name(probe.table() + "$row_groups")
                                    + " WHERE deleted_rows > 0")) {
                rangesWithDeletes.add(new long[] {(Long) row.getField(0), (Long) row.getField(1)});
            }
        }

        @Override
        boolean exercised() {
            return !rangesWithDeletes.isEmpty();
        }

        @Override
        Effect effect(ModelTable base) {
            Effect effect = new Effect();
            for (long rowId : base.rows.keySet()) {
                for (long[] range : rangesWithDeletes) {
                    if (rowId >= range[0] && rowId <= range[1]) {
                        effect.moves.add(rowId);
                    }
                }
            }
            return effect;
        }
    }

    /** {@code expire_snapshots(retain_max => n, retain_min => 1)}: the newest n stay. */
    static final class Expire extends Op {
        final String table;
        final int retainMax;
        private List<Long> before = List.of();

        Expire(String table, int retainMax) {
            this.table = table;
            this.retainMax = retainMax;
        }

        @Override
        String kind() {
            return "expire";
        }

        @Override
        List<String> statements(ModelTable model) {
            return List.of(
                    call(
                            "expire_snapshots",
                            table,
                            "retain_max => " + retainMax + ", retain_min => 1"));
        }

        @Override
        void prepare(Probe probe) throws Exception {
            before = probe.snapshotIds();
        }

        @Override
        void finish(ModelTable model, Probe probe) throws Exception {
            // at most snapshot.expire.limit (50) a run
            int expired = Math.min(Math.max(0, before.size() - retainMax), 50);
            List<Long> expected = before.subList(expired, before.size());
            List<Long> after = probe.snapshotIds();
            if (!after.equals(expected)) {
                throw new Divergence(
                        "expire_snapshots(retain_max => "
                                + retainMax
                                + ") on snapshots "
                                + before
                                + " left "
                                + after
                                + ", expected "
                                + expected);
            }
        }
    }

    /** {@code rollback_to(snapshot_id => n)}. */
    static final class Rollback extends Op {
        final String table;
        final long snapshotId;

        Rollback(String table, long snapshotId) {
            this.table = table;
            this.snapshotId = snapshotId;
        }

        @Override
        String kind() {
            return "rollback";
        }

        @Override
        boolean applicable(ModelTable model) {
            return model.history.containsKey(snapshotId) && model.history.lastKey() > snapshotId;
        }

        @Override
        List<String> statements(ModelTable model) {
            return List.of(call("rollback_to", table, "snapshot_id => " + snapshotId));
        }

        /**
         * Whether rows were inserted after the snapshot rolled back to (row ids it must not reuse).
         */
        private boolean overNewRows;

        @Override
        void prepare(Probe probe) throws Exception {
            List<Long> nextRowIds = new ArrayList<>();
            for (Row row :
                    probe.query(
                            "SELECT next_row_id FROM "
                                    + Sql.name(probe.table() + "$snapshots")
                                    + " WHERE snapshot_id = "
                                    + snapshotId
                                    + " OR snapshot_id = (SELECT MAX(snapshot_id) FROM "
                                    + Sql.name(probe.table() + "$snapshots")
                                    + ")")) {
                nextRowIds.add((Long) row.getField(0));
            }
            overNewRows = nextRowIds.stream().distinct().count() > 1;
        }

        @Override
        boolean exercised() {
            return overNewRows;
        }

        @Override
        void finish(ModelTable model, Probe probe) throws Exception {
            model.rows = new TreeMap<>(model.history.get(snapshotId));
            Row result = probe.lastResult().get(0);
            Object current = result.getField(1);
            if (!Long.valueOf(snapshotId + 1).equals(current)
                    || !Long.valueOf(model.nextRowId).equals(result.getField(3))) {
                throw new Divergence(
                        "rollback_to("
                                + snapshotId
                                + ") returned "
                                + result
                                + "; expected current_snapshot_id "
                                + (snapshotId + 1)
                                + " and next_row_id "
                                + model.nextRowId);
            }
        }
    }

    /** {@code SELECT _ROW_ID, *} of an older snapshot ({@code scan.snapshot-id}). */
    static final class TimeTravel extends Op {
        final String table;
        final long snapshotId;

        TimeTravel(String table, long snapshotId) {
            this.table = table;
            this.snapshotId = snapshotId;
        }

        @Override
        String kind() {
            return "time-travel";
        }

        @Override
        boolean query() {
            return true;
        }

        @Override
        boolean applicable(ModelTable model) {
            return model.history.containsKey(snapshotId);
        }

        @Override
        List<String> statements(ModelTable model) {
            return List.of(query(table, snapshotId));
        }

        static String query(String table, Long snapshotId) {
            return "SELECT _ROW_ID, * FROM "
                    + Sql.name(table)
                    + (snapshotId == null
                            ? ""
                            : " /*+ OPTIONS('scan.snapshot-id' = '" + snapshotId + "') */");
        }

        @Override
        void finish(ModelTable model, Probe probe) throws Exception {
            Map<Long, Map<Integer, Object>> rows = model.history.get(snapshotId);
            List<String> expected = model.render(rows);
            List<String> actual = FlinkRows.render(probe.lastResult());
            if (!expected.equals(actual)) {
                throw new Divergence(
                        "time travel to snapshot "
                                + snapshotId
                                + " differs from the model:\n"
                                + Diff.of(expected, actual));
            }
        }
    }
}
