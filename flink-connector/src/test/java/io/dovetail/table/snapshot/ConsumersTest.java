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

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

/**
 * Consumers in Paimon's meaning ({@code nextSnapshot}: the next snapshot read): what expiry keeps
 * for them, resetting and clearing them, and {@code consumer.expiration-time}.
 */
class ConsumersTest {

    private static final ExpireConfig KEEP_ONE =
            new ExpireConfig(1, 1, Duration.ZERO, ExpireConfig.DEFAULT_MAX_EXPIRES);

    @TempDir Path dir;

    @Test
    void expiryKeepsAReadersNextSnapshotAndTheOneBeforeIt() {
        EvolvingTable table = threeSnapshots(Map.of());
        Consumers consumers = new Consumers(table.store.paths());
        consumers.record("reader", 3);

        new SnapshotExpiry(table.store).expire(KEEP_ONE, System.currentTimeMillis());

        assertThat(table.store.snapshots().listIds()).containsExactly(2, 3);
        assertThat(consumers.oldestNeeded()).isEqualTo(2);
    }

    @Test
    void resetMovesAReaderToASnapshotItCanRead() {
        EvolvingTable table = threeSnapshots(Map.of());
        Consumers consumers = new Consumers(table.store.paths());
        SnapshotManager snapshots = table.store.snapshots();

        assertThat(consumers.reset("reader", 1, snapshots)).isEmpty();
        assertThat(consumers.reset("reader", 4, snapshots)).hasValue(1); // the next commit
        assertThat(consumers.position("reader")).hasValue(4);
        for (long bad : new long[] {0, 5}) {
            assertThatThrownBy(() -> consumers.reset("reader", bad, snapshots))
                    .isInstanceOf(DovetailException.class)
                    .hasMessageContaining("Cannot set consumer 'reader' to read snapshot " + bad)
                    .hasMessageContaining("holds snapshots 1..3");
        }
        new SnapshotExpiry(table.store)
                .expire(new ExpireConfig(1, 2, Duration.ZERO, 50), System.currentTimeMillis());
        consumers.remove("reader");
        new SnapshotExpiry(table.store).expire(KEEP_ONE, System.currentTimeMillis());
        assertThat(snapshots.listIds()).containsExactly(3);
        assertThatThrownBy(() -> consumers.reset("reader", 3, snapshots))
                .as("3's changes compare with 2, which is gone")
                .hasMessageContaining("needs N and N - 1");
        assertThat(consumers.position("reader")).isEmpty();
    }

    @Test
    void clearRemovesMatchingReadersButNoPin() {
        EvolvingTable table = threeSnapshots(Map.of());
        Consumers consumers = new Consumers(table.store.paths());
        consumers.record("embedder-1", 2);
        consumers.record("embedder-2", 3);
        consumers.record("audit", 1);
        SnapshotPins.Pin pin = new SnapshotPins(table.store.paths()).pin(1, Duration.ofMinutes(5));

        assertThat(consumers.clear(Pattern.compile("embedder-.*"), Pattern.compile(".*-2")))
                .containsExactly(entry("embedder-1", 2L));
        assertThat(consumers.clear(null, null))
                .containsExactly(entry("audit", 1L), entry("embedder-2", 3L));
        assertThat(consumers.all()).containsOnlyKeys(pin.id());
    }

    @Test
    void expiryRemovesReadersNotWrittenForTheExpirationTimeButKeepsPins() {
        EvolvingTable table = threeSnapshots(Map.of("consumer.expiration-time", "1 h"));
        Consumers consumers = new Consumers(table.store.paths());
        consumers.record("stopped", 1);
        consumers.record("running", 2);
        SnapshotPins.Pin pin = new SnapshotPins(table.store.paths()).pin(1, Duration.ofDays(1));
        long twoHoursAgo = System.currentTimeMillis() - Duration.ofHours(2).toMillis();
        for (String id : new String[] {"stopped", pin.id()}) {
            File file = new File(dir.resolve("t").toFile(), "consumer/consumer-" + id);
            assertThat(file.setLastModified(twoHoursAgo)).isTrue();
        }
        ExpireConfig keepOne =
                ExpireConfig.fromOptions(table.store.latestSchema().options())
                        .withRetainMin(1)
                        .withRetainMax(1)
                        .withTimeRetained(Duration.ZERO);

        new SnapshotExpiry(table.store).expire(keepOne, System.currentTimeMillis());

        assertThat(consumers.all()).containsOnlyKeys("running", pin.id());
        assertThat(table.store.snapshots().listIds())
                .as("the pin holds 1")
                .containsExactly(1, 2, 3);
        pin.close();
        new SnapshotExpiry(table.store).expire(keepOne, System.currentTimeMillis());
        assertThat(table.store.snapshots().listIds())
                .as("'running' reads 2")
                .containsExactly(1, 2, 3);
    }

    private EvolvingTable threeSnapshots(Map<String, String> options) {
        EvolvingTable table = new EvolvingTable(dir.resolve("t"), false, options);
        table.append("a", 0, 3);
        table.append("a", 3, 3);
        table.append("a", 6, 3);
        return table;
    }
}
