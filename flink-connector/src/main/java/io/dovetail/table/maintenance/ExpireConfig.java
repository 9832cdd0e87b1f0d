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
package io.dovetail.table.maintenance;

import io.dovetail.table.error.Errors;
import io.dovetail.table.schema.TableOptions;

import javax.annotation.Nullable;

import java.time.Duration;
import java.util.Map;

/**
 * How much history {@link SnapshotExpiry} keeps: always the {@code retainMin} newest snapshots,
 * never more than {@code retainMax}, and in between every snapshot younger than {@code
 * timeRetained}; one run expires at most {@code maxExpires} snapshots. Readers whose consumer file
 * was not written for {@code consumerLifetime} are removed first (null: consumers stay).
 */
public record ExpireConfig(
        int retainMin,
        int retainMax,
        Duration timeRetained,
        int maxExpires,
        @Nullable Duration consumerLifetime) {

    public static final int DEFAULT_RETAIN_MIN = 10;
    public static final Duration DEFAULT_TIME_RETAINED = Duration.ofHours(1);
    public static final int DEFAULT_MAX_EXPIRES = 50;

    /** Without an expiration of consumers. */
    public ExpireConfig(int retainMin, int retainMax, Duration timeRetained, int maxExpires) {
        this(retainMin, retainMax, timeRetained, maxExpires, null);
    }

    public ExpireConfig {
        if (retainMin < 1) {
            throw Errors.invalidArgument(
                    "At least one snapshot must be retained (the latest), got retain-min "
                            + retainMin
                            + ".");
        }
        if (retainMax < retainMin) {
            throw Errors.invalidArgument(
                    "retain-max ("
                            + retainMax
                            + ") must be at least retain-min ("
                            + retainMin
                            + ").");
        }
        if (timeRetained.isNegative()) {
            throw Errors.invalidArgument("The retained time cannot be negative: " + timeRetained);
        }
        if (maxExpires < 1) {
            throw Errors.invalidArgument(
                    "The number of snapshots to expire per run must be positive, got "
                            + maxExpires
                            + ".");
        }
    }

    /** The table's {@code snapshot.*} options, Paimon's defaults where absent. */
    public static ExpireConfig fromOptions(Map<String, String> options) {
        return new ExpireConfig(
                TableOptions.intValue(
                        options, TableOptions.SNAPSHOT_NUM_RETAINED_MIN, DEFAULT_RETAIN_MIN, 1),
                TableOptions.intValue(
                        options, TableOptions.SNAPSHOT_NUM_RETAINED_MAX, Integer.MAX_VALUE, 1),
                TableOptions.durationValue(
                        options, TableOptions.SNAPSHOT_TIME_RETAINED, DEFAULT_TIME_RETAINED),
                TableOptions.intValue(
                        options, TableOptions.SNAPSHOT_EXPIRE_LIMIT, DEFAULT_MAX_EXPIRES, 1),
                TableOptions.durationValue(options, TableOptions.CONSUMER_EXPIRATION_TIME, null));
    }

    public ExpireConfig withRetainMin(int value) {
        return new ExpireConfig(value, retainMax, timeRetained, maxExpires, consumerLifetime);
    }

    public ExpireConfig withRetainMax(int value) {
        return new ExpireConfig(retainMin, value, timeRetained, maxExpires, consumerLifetime);
    }

    public ExpireConfig withTimeRetained(Duration value) {
        return new ExpireConfig(retainMin, retainMax, value, maxExpires, consumerLifetime);
    }

    public ExpireConfig withMaxExpires(int value) {
        return new ExpireConfig(retainMin, retainMax, timeRetained, value, consumerLifetime);
    }
}
