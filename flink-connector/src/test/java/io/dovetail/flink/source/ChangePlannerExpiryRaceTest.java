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
package io.dovetail.flink.source;

import io.dovetail.flink.sink.FaultyFileSystem;
import io.dovetail.table.TableStore;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.maintenance.ExpireConfig;
import io.dovetail.table.maintenance.SnapshotExpiry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.ChangePlanner;
import io.dovetail.table.read.ChangelogScope;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.testing.DataEvolutionTables;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Planning the changes of a snapshot while a writer's snapshot expiry deletes their base: the
 * expiry runs exactly when the planner opens the base's manifest list (after it found the base
 * snapshot), through {@code faulty://}. The missing file of a vanished snapshot is the clear
 * expired-snapshot error; the same missing file of a snapshot still there is damage.
 */
class ChangePlannerExpiryRaceTest {

    @TempDir java.nio.file.Path dir;

    private TableStore store;
    private ReadRequest request;

    /** Snapshots 1..3 each append one row. */
    @BeforeEach
    void threeAppends() {
        store = TableStore.at(new TablePaths(new Path(FaultyFileSystem.SCHEME + "://" + dir)));
        TableSchema schema =
                DataEvolutionTables.create(store, new DataField(0, "id", DataTypes.BIGINT()));
        for (long snapshot = 1; snapshot <= 3; snapshot++) {
            DataEvolutionTables.append(
                    store, schema, snapshot, List.of(GenericRowData.of(snapshot)));
        }
        request = ReadRequest.allColumns(schema).withRowTracking();
    }

    @Test
    void aBaseExpiredDuringPlanningIsTheExpiredSnapshotError() {
        String baseList = store.snapshots().snapshot(2).baseManifestList();
        FaultyFileSystem.beforeOpening(baseList, () -> expireAllBut(1));

        assertThatThrownBy(
                        () ->
                                new ChangePlanner(store)
                                        .planChanges(3, request, ChangelogScope.FULL, false, 1))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("snapshot 2 was expired before this streaming read got to it")
                .hasMessageContaining("Set the 'consumer-id' option")
                .satisfies(
                        e ->
                                assertThat(((DovetailException) e).kind())
                                        .isEqualTo(DovetailException.Kind.EXPIRED_SNAPSHOT))
                .satisfies(
                        e ->
                                assertThat(e.getSuppressed())
                                        .singleElement(InstanceOfAssertFactories.THROWABLE)
                                        .hasMessageContaining("Missing file")
                                        .hasMessageContaining(baseList));
        assertThat(store.snapshots().listIds()).as("the expiry did run").containsExactly(3);
    }

    @Test
    void aMissingFileOfASnapshotStillThereStaysAMissingFile() {
        String baseList = store.snapshots().snapshot(2).baseManifestList();
        assertThat(new File(dir.toFile(), "manifest/" + baseList).delete()).isTrue();

        assertThatThrownBy(
                        () ->
                                new ChangePlanner(store)
                                        .planChanges(3, request, ChangelogScope.FULL, false, 1))
                .isInstanceOf(DovetailException.class)
                .satisfies(
                        e ->
                                assertThat(((DovetailException) e).kind())
                                        .isEqualTo(DovetailException.Kind.MISSING_FILE))
                .hasMessageContaining("Missing file")
                .hasMessageContaining(baseList);
    }

    @Test
    void aFullSnapshotExpiredDuringPlanningIsTheExpiredSnapshotError() {
        FaultyFileSystem.beforeOpening(
                store.snapshots().snapshot(2).baseManifestList(), () -> expireAllBut(1));

        assertThatThrownBy(() -> new ChangePlanner(store).planFull(2, request, 1))
                .hasMessageContaining(
                        "snapshot 2 was expired before this streaming read got to it");
    }

    @Test
    void aStartAtAnExpiredSnapshotOrBaseIsTheExpiredSnapshotError() {
        expireAllBut(2);
        ChangePlanner planner = new ChangePlanner(store);

        planner.requireKept(3);
        planner.requireKept(4); // not committed yet: the read waits for it
        assertThatThrownBy(() -> planner.requireKept(2))
                .hasMessageContaining("snapshot 1 was expired before this streaming read got to it")
                .hasMessageContaining("'consumer-id'");
        assertThatThrownBy(() -> planner.requireKept(1))
                .hasMessageContaining("snapshot 1 was expired");
    }

    /** What a writer's expiry keeping the latest {@code retained} snapshots does. */
    private void expireAllBut(int retained) {
        new SnapshotExpiry(store)
                .expire(new ExpireConfig(retained, retained, Duration.ZERO, 50), Long.MAX_VALUE);
    }
}
