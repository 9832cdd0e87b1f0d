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
package io.dovetail.table.snapshot;

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.maintenance.ExpireConfig;
import io.dovetail.table.maintenance.SnapshotExpiry;
import io.dovetail.table.testing.EvolvingTable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotPinsTest {

    private static final ExpireConfig KEEP_ONE =
            new ExpireConfig(1, 1, Duration.ZERO, ExpireConfig.DEFAULT_MAX_EXPIRES);

    @TempDir Path dir;

    @Test
    void aPinKeepsItsSnapshotAndTheLaterOnesUntilReleased() {
        EvolvingTable table = new EvolvingTable(dir.resolve("t"), false, Map.of());
        table.append("a", 0, 3);
        table.append("a", 3, 3); // 2
        SnapshotPins pins = new SnapshotPins(table.store.paths());
        long now = System.currentTimeMillis();

        try (SnapshotPins.Pin pin = pins.pinBase(2, Map.of(), "a test job")) {
            assertThat(pin.id()).startsWith("dovetail-pin-");
            table.append("a", 6, 3);
            table.append("a", 9, 3); // 4
            new SnapshotExpiry(table.store).expire(KEEP_ONE, now);
            assertThat(table.store.snapshots().listIds()).containsExactly(2, 3, 4);
        }
        new SnapshotExpiry(table.store).expire(KEEP_ONE, now);
        assertThat(table.store.snapshots().listIds()).containsExactly(4);
    }

    @Test
    void aPinWhoseLeaseEndedNoLongerHoldsAndExpiryRemovesIt() {
        EvolvingTable table = new EvolvingTable(dir.resolve("t"), false, Map.of());
        table.append("a", 0, 3);
        table.append("a", 3, 3);
        SnapshotPins pins = new SnapshotPins(table.store.paths());
        SnapshotPins.Pin crashed = pins.pin(1, Duration.ofMinutes(5)); // never released
        new Consumers(table.store.paths()).record("reader", 2); // reads 2 next: keeps 1 too

        new SnapshotExpiry(table.store).expire(KEEP_ONE, System.currentTimeMillis());
        assertThat(table.store.snapshots().listIds()).containsExactly(1, 2);

        new Consumers(table.store.paths()).record("reader", 3); // read everything
        long afterLease = System.currentTimeMillis() + Duration.ofMinutes(6).toMillis();
        new SnapshotExpiry(table.store).expire(KEEP_ONE, afterLease);
        assertThat(table.store.snapshots().listIds()).containsExactly(2);
        assertThat(new Consumers(table.store.paths()).position(crashed.id())).isEmpty();
        assertThat(new Consumers(table.store.paths()).position("reader")).hasValue(3);
    }

    @Test
    void pinningASnapshotThatAlreadyExpiredFailsAndLeavesNoPin() {
        EvolvingTable table = new EvolvingTable(dir.resolve("t"), false, Map.of());
        table.append("a", 0, 3);
        table.append("a", 3, 3);
        new SnapshotExpiry(table.store).expire(KEEP_ONE, System.currentTimeMillis());

        assertThatThrownBy(
                        () ->
                                new SnapshotPins(table.store.paths())
                                        .pinBase(1, Map.of(), "the merge into db.t"))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("Base snapshot 1 of the merge into db.t expired")
                .extracting(e -> ((DovetailException) e).kind())
                .as("a conflict: running the job again reads a newer base")
                .isEqualTo(DovetailException.Kind.CONFLICT);
        assertThat(new Consumers(table.store.paths()).oldestNeeded()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theLeaseIsATableOption() {
        assertThat(SnapshotPins.lease(Map.of())).isEqualTo(Duration.ofDays(1));
        assertThat(SnapshotPins.lease(Map.of("snapshot.pin.lease", "3 h")))
                .isEqualTo(Duration.ofHours(3));
        assertThat(SnapshotPins.isExpired("dovetail-pin-100-x", 101)).isTrue();
        assertThat(SnapshotPins.isExpired("dovetail-pin-100-x", 99)).isFalse();
        assertThat(SnapshotPins.isExpired("dovetail-pin-soon", Long.MAX_VALUE)).isFalse();
        assertThat(SnapshotPins.isExpired("paimon-reader", Long.MAX_VALUE)).isFalse();
    }
}
