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

import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableOptions;

import org.apache.flink.core.fs.Path;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * Pins that keep a running job's base snapshot, and every snapshot after it, from expiring, so a
 * job longer than the table's snapshot retention still commits. A pin is a consumer entry in
 * Paimon's layout ({@link Consumers}), so Paimon's expiry honours it too; its id, {@code
 * dovetail-pin-<lease end in epoch ms>-<uuid>}, carries the end of its lease: Dovetail's expiry
 * removes pins past their lease, so a job that crashed cannot hold snapshots forever. A job
 * releases its pin when it has committed (or failed, where it can tell).
 */
public final class SnapshotPins {

    static final String PREFIX = "dovetail-pin-";

    /** How long a pin holds at most, unless the table sets {@code snapshot.pin.lease}. */
    public static final Duration DEFAULT_LEASE = Duration.ofDays(1);

    private final TablePaths paths;
    private final Consumers consumers;

    public SnapshotPins(TablePaths paths) {
        this.paths = paths;
        this.consumers = new Consumers(paths);
    }

    /** The lease of the pins of a table with {@code options}. */
    public static Duration lease(Map<String, String> options) {
        return TableOptions.durationValue(options, TableOptions.SNAPSHOT_PIN_LEASE, DEFAULT_LEASE);
    }

    /** Pins snapshot {@code snapshotId} and the snapshots after it for at most {@code lease}. */
    public Pin pin(long snapshotId, Duration lease) {
        String id =
                PREFIX + (System.currentTimeMillis() + lease.toMillis()) + "-" + UUID.randomUUID();
        consumers.record(id, snapshotId);
        return new Pin(id);
    }

    /**
     * Pins snapshot {@code snapshotId} for the lease of a table with {@code options}, as the base
     * of {@code what}; if an expiry removed it before the pin was in place, releases the pin and
     * fails with a conflict (the table is unchanged; run the job again).
     */
    public Pin pinBase(long snapshotId, Map<String, String> options, String what) {
        Pin pin = pin(snapshotId, lease(options));
        if (!new SnapshotManager(paths).exists(snapshotId)) {
            pin.close();
            throw Errors.baseSnapshotExpired(snapshotId, what);
        }
        return pin;
    }

    /** Removes the pins whose lease ended before {@code nowMillis}; returns how many. */
    public int removeExpired(long nowMillis) {
        Path dir = paths.consumerDir();
        if (!FileIO.exists(dir)) {
            return 0;
        }
        int removed = 0;
        for (String name : FileIO.listNames(dir)) {
            if (name.startsWith(Consumers.FILE_PREFIX)
                    && isExpired(name.substring(Consumers.FILE_PREFIX.length()), nowMillis)) {
                FileIO.deleteQuietly(new Path(dir, name));
                removed++;
            }
        }
        return removed;
    }

    /** Whether consumer {@code id} is a job's pin. */
    static boolean isPin(String id) {
        return id.startsWith(PREFIX);
    }

    /** Whether consumer {@code id} is a pin whose lease ended before {@code nowMillis}. */
    static boolean isExpired(String id, long nowMillis) {
        if (!isPin(id)) {
            return false;
        }
        int end = id.indexOf('-', PREFIX.length());
        try {
            return end > 0 && Long.parseLong(id.substring(PREFIX.length(), end)) < nowMillis;
        } catch (NumberFormatException e) {
            return false; // not one of ours: kept, as any consumer
        }
    }

    /** One pin; {@link #close} releases it. */
    public final class Pin implements AutoCloseable {

        private final String id;

        private Pin(String id) {
            this.id = id;
        }

        /** The consumer id of the pin. */
        public String id() {
            return id;
        }

        @Override
        public void close() {
            release(id);
        }
    }

    /** Releases the pin with consumer id {@code id} (nothing if it is gone). */
    public void release(String id) {
        FileIO.deleteQuietly(new Path(paths.consumerDir(), Consumers.FILE_PREFIX + id));
    }
}
