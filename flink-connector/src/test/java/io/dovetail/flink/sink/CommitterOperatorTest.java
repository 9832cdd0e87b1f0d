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
package io.dovetail.flink.sink;

import io.dovetail.table.TableStore;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Consumers;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.snapshot.SnapshotPins;
import io.dovetail.table.testing.DataEvolutionTables;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The committer of a batch row-level write releases the job's pin of its base snapshot when the
 * table refuses the commit (found by the random surface test: an UPDATE refused with a conflict
 * left its pin, and expiry kept every snapshot from its base on for the pin's lease, a day).
 */
class CommitterOperatorTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void aCommitRefusedWithAConflictReleasesTheJobsPin() throws Exception {
        TableStore store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        TableSchema schema =
                DataEvolutionTables.create(
                        store,
                        new DataField(0, "id", DataTypes.BIGINT()),
                        new DataField(1, "name", DataTypes.STRING()));
        List<RowData> rows = new ArrayList<>();
        for (long id = 0; id < 10; id++) {
            rows.add(GenericRowData.of(id, StringData.fromString("n" + id)));
        }
        DataEvolutionTables.append(store, schema, 1, rows);
        Snapshot base = store.latestSnapshot().orElseThrow();
        String pin = new SnapshotPins(store.paths()).pin(base.id(), Duration.ofDays(1)).id();
        List<ManifestEntry> files =
                ColumnUpdater.on(store, base, List.of("name")).write(rename(3).iterator());
        // another update of the same column of the same group commits first
        ColumnUpdater.on(store, base, List.of("name"))
                .commit("other", 1, rename(4).iterator())
                .orElseThrow();

        try (OneInputStreamOperatorTestHarness<Committable, Void> committer =
                new OneInputStreamOperatorTestHarness<>(
                        new CommitterOperator(store.paths(), "job", null, true, pin))) {
            committer.open();
            committer.processElement(new Committable.ColumnFiles(base.id(), files), 0);
            assertThatThrownBy(committer::endInput).hasMessageContaining("onflict");
        }

        assertThat(store.latestSnapshot().orElseThrow().id()).isEqualTo(base.id() + 1);
        File consumers = new File(store.paths().consumerDir().toUri());
        assertThat(consumers.list() == null ? new String[0] : consumers.list())
                .as("no consumer entry left: the pin " + pin + " is released")
                .doesNotContain(Consumers.FILE_PREFIX + pin);
    }

    private static List<RowUpdate> rename(long rowId) {
        return List.of(new RowUpdate(rowId, GenericRowData.of(StringData.fromString("x"))));
    }
}
