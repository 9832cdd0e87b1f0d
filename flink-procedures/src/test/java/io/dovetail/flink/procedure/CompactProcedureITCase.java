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

import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.snapshot.CommitKind;

import org.apache.flink.types.Row;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code CALL dt.sys.compact(...)} through Flink SQL, checked through the core. */
class CompactProcedureITCase {

    @TempDir java.nio.file.Path warehouse;

    private ProcedureSession session;

    /** Partitions a and b, five files each, plus a column update and a delete in a. */
    @BeforeEach
    void writeTable() {
        session = new ProcedureSession(warehouse, Map.of());
        for (int i = 0; i < 5; i++) {
            session.table.append("a", i * 10L, 10);
        }
        for (int i = 5; i < 10; i++) {
            session.table.append("b", i * 10L, 10);
        }
        session.table.update("name", Map.of(3L, "three", 41L, "forty-one"));
        session.table.delete(7, 55);
    }

    @Test
    void compactsTheSelectedPartitionsAndReadsAreUnchanged() {
        List<String> before = session.read(session.table.latest());
        long snapshots = session.table.latest().id();

        Row onlyA = compact("partitions => 'dt=a'");

        assertThat(onlyA.getField("files_written")).isEqualTo(1L);
        assertThat(onlyA.getField("files_rewritten")).isEqualTo(7L); // 5 appends + 2 partial
        assertThat((Long) onlyA.getField("bytes_written")).isPositive();
        assertThat(onlyA.getField("snapshot_id")).isEqualTo(snapshots + 1);
        assertThat(onlyA.getField("rewrite_subtasks")).isEqualTo(1L);
        assertThat(session.table.latest().commitKind()).isEqualTo(CommitKind.COMPACT);
        assertThat(liveFiles("a")).containsExactly("0+50");
        assertThat(liveFiles("b")).hasSize(5);
        assertThat(session.read(session.table.latest())).hasSize(98).isEqualTo(before);

        Row rest = compact("partitions => 'dt=c;dt=b'");

        assertThat(rest.getField("files_rewritten")).isEqualTo(5L);
        assertThat(rest.getField("snapshot_id")).isEqualTo(snapshots + 2);
        assertThat(liveFiles("b")).containsExactly("50+50");
        assertThat(session.read(session.table.latest())).isEqualTo(before);
        session.table.store.files(session.table.latest()).verifyLiveFiles();
        assertThat(vectorPositionsByRange()).containsExactly(Map.entry(0L, 7L), Map.entry(50L, 5L));

        Row nothing = call("");
        assertThat(nothing.getField("files_written")).isEqualTo(0L);
        assertThat(nothing.getField("snapshot_id")).isNull();
        assertThat(session.table.latest().id()).isEqualTo(snapshots + 2);
    }

    /**
     * By default only the versions of {@code name} are folded: the base file of [0, 9] (every other
     * column) stays, and the bytes rewritten are those of the replaced partial files.
     */
    @Test
    void byDefaultRewritesOnlyTheColumnsSeveralFilesOfAGroupHold() {
        for (int version = 1; version <= 4; version++) {
            session.table.update("name", Map.of(3L, "three-v" + version, 9L, "nine"));
        }
        List<ManifestEntry> group = session.table.liveAt(0);
        assertThat(group).hasSize(6);
        List<ManifestEntry> versions = group.subList(1, 6);
        List<String> before = session.read(session.table.latest());
        assertThat(
                        call(", compact_strategy => 'minor', options =>"
                                        + " 'compaction.min.file-num=7'")
                                .getField("snapshot_id"))
                .isNull();

        Row folded = call("");

        assertThat(folded.getField("files_written")).isEqualTo(1L);
        assertThat(folded.getField("files_rewritten")).isEqualTo(5L);
        assertThat(folded.getField("bytes_rewritten"))
                .isEqualTo(versions.stream().mapToLong(v -> v.file().fileSize()).sum());
        List<ManifestEntry> after = session.table.liveAt(0);
        assertThat(after).hasSize(2).startsWith(group.get(0));
        assertThat(after.get(1).file().writeCols()).containsExactly("name");
        assertThat(folded.getField("bytes_written")).isEqualTo(after.get(1).file().fileSize());
        assertThat(liveFiles("a")).hasSize(7); // [10, 49] untouched
        assertThat(session.read(session.table.latest())).isEqualTo(before);
        assertThat(vectorPositionsByRange()).containsExactly(Map.entry(0L, 7L), Map.entry(50L, 5L));
        assertThatThrownBy(() -> call(", compact_strategy => 'major'"))
                .hasStackTraceContaining(
                        "compact_strategy must be 'minor' (rewrite only the columns several files"
                                + " of a row-range group hold, the default) or 'full'");
    }

    @Test
    void optionsOverrideTheTableOptions() {
        long snapshots = session.table.latest().id();

        Row none = compact("options => 'compaction.min.file-num=8'");

        assertThat(none.getField("files_written")).isEqualTo(0L);
        assertThat(none.getField("files_rewritten")).isEqualTo(0L);
        assertThat(session.table.latest().id()).isEqualTo(snapshots);

        List<String> before = session.read(session.table.latest());
        Row both = compact("options => 'compaction.min.file-num=5', parallelism => 2");

        assertThat(both.getField("files_written")).isEqualTo(2L);
        assertThat(both.getField("files_rewritten")).isEqualTo(12L);
        assertThat(both.getField("rewrite_subtasks")).isEqualTo(2L); // one bin per subtask
        assertThat(session.read(session.table.latest())).hasSize(98).isEqualTo(before);
        assertThat(vectorPositionsByRange()).containsExactly(Map.entry(0L, 7L), Map.entry(50L, 5L));
        assertThat(liveFiles("a")).containsExactly("0+50");
        assertThat(liveFiles("b")).containsExactly("50+50");
    }

    @Test
    void whereSelectsPartitionsBySqlPredicate() {
        long snapshots = session.table.latest().id();

        Row none = compact("`where` => 'dt > ''x'''");
        assertThat(none.getField("files_written")).isEqualTo(0L);

        Row onlyB = compact("`where` => 'dt >= ''b'' AND dt IS NOT NULL'");
        assertThat(onlyB.getField("files_rewritten")).isEqualTo(5L);
        assertThat(liveFiles("b")).containsExactly("50+50");
        assertThat(liveFiles("a")).hasSize(7);
        assertThat(session.table.latest().id()).isEqualTo(snapshots + 1);
    }

    @Test
    void badArgumentsFailClearlyAndChangeNothing() {
        long snapshots = session.table.latest().id();
        assertThatThrownBy(() -> compact("partitions => 'dt'"))
                .hasStackTraceContaining("partitions must be 'key=value' pairs");
        assertThatThrownBy(() -> compact("partitions => 'dt=a;'"))
                .hasStackTraceContaining(
                        "partitions must be specs like 'dt=a,hh=01' separated by ';', got"
                                + " 'dt=a;'.");
        assertThatThrownBy(() -> compact("partitions => 'day=a'"))
                .hasStackTraceContaining(
                        "The partition spec {day=a} names columns that are not partition keys;"
                                + " the table's partition keys are [dt].");
        assertThatThrownBy(() -> compact("options => 'compaction.min.file-num=0'"))
                .hasStackTraceContaining("compaction.min.file-num");
        assertThatThrownBy(() -> compact("`where` => 'score > 1'"))
                .hasStackTraceContaining(
                        "where must be a SQL predicate over the partition columns [dt], got"
                                + " 'score > 1'");
        assertThatThrownBy(() -> compact("partitions => 'dt=a', `where` => 'dt = ''a'''"))
                .hasStackTraceContaining("partitions and where both select partitions");
        assertThatThrownBy(() -> compact("parallelism => 0"))
                .hasStackTraceContaining("parallelism must be at least 1, got 0.");
        assertThatThrownBy(() -> session.call("CALL dt.sys.compact(`table` => 'db.other')"))
                .hasStackTraceContaining("Table 'db.other' does not exist in catalog 'dt'.");
        assertThat(session.table.latest().id()).isEqualTo(snapshots);
    }

    /** A full compaction ({@code compact_strategy => 'full'}) with {@code arguments}. */
    private Row compact(String arguments) {
        return call(", compact_strategy => 'full', " + arguments);
    }

    private Row call(String arguments) {
        List<Row> rows = session.call("CALL dt.sys.compact(`table` => 'db.t'" + arguments + ")");
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    /** {@code firstRowId+rowCount} of the live files of partition {@code dt}. */
    private List<String> liveFiles(String dt) {
        return session.table.live().stream()
                .filter(e -> partition(e).equals(dt))
                .map(e -> e.file().firstRowId() + "+" + e.file().rowCount())
                .toList();
    }

    /** Each live deletion vector as the first row id of its file's range and its one position. */
    private List<Map.Entry<Long, Long>> vectorPositionsByRange() {
        Map<String, Long> firstRowIds = new HashMap<>();
        session.table
                .live()
                .forEach(e -> firstRowIds.put(e.file().fileName(), e.file().firstRowId()));
        return session.table.vectors().entrySet().stream()
                .map(
                        v -> {
                            assertThat(v.getValue().cardinality()).isEqualTo(1);
                            long position =
                                    LongStream.range(0, 50)
                                            .filter(v.getValue()::contains)
                                            .findFirst()
                                            .orElseThrow();
                            return Map.entry(firstRowIds.get(v.getKey()), position);
                        })
                .sorted(Map.Entry.comparingByKey())
                .toList();
    }

    /** Partition a holds ids (and row ids) 0..49, b 50..99. */
    private static String partition(ManifestEntry entry) {
        return entry.file().firstRowId() < 50 ? "a" : "b";
    }
}
