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
import io.dovetail.table.json.Json;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.core.fs.Path;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.OptionalLong;

/**
 * The streaming consumers of a table, in Paimon's layout: one {@code consumer/consumer-<id>} file
 * per consumer holding {@code {"nextSnapshot": N}}; snapshot expiry keeps snapshot N and everything
 * newer for it.
 */
public final class Consumers {

    public static final String FILE_PREFIX = "consumer-";

    private final TablePaths paths;

    public Consumers(TablePaths paths) {
        this.paths = paths;
    }

    /** The position of consumer {@code id}, or empty if it has none. */
    public OptionalLong position(String id) {
        Path file = file(id);
        return FileIO.exists(file) ? OptionalLong.of(read(file)) : OptionalLong.empty();
    }

    /** Records that consumer {@code id} still needs snapshot {@code nextSnapshot} and later. */
    public void record(String id, long nextSnapshot) {
        ObjectNode json = Json.newObject();
        json.put("nextSnapshot", nextSnapshot);
        FileIO.overwriteHint(file(id), Json.toBytes(json));
    }

    /**
     * The smallest position of any consumer (a job's pin whose lease ended is none: {@link
     * SnapshotPins}), or {@link Long#MAX_VALUE} without consumers.
     */
    public long oldestPosition() {
        long oldest = Long.MAX_VALUE;
        Path dir = paths.consumerDir();
        if (!FileIO.exists(dir)) {
            return oldest;
        }
        for (String name : FileIO.listNames(dir)) {
            if (name.startsWith(FILE_PREFIX)
                    && !SnapshotPins.isExpired(
                            name.substring(FILE_PREFIX.length()), System.currentTimeMillis())) {
                oldest = Math.min(oldest, read(new Path(dir, name)));
            }
        }
        return oldest;
    }

    private Path file(String id) {
        if (id.isEmpty() || id.contains("/")) {
            throw Errors.invalidArgument(
                    "Consumer id '" + id + "' must be non-empty and must not contain '/'.");
        }
        return new Path(paths.consumerDir(), FILE_PREFIX + id);
    }

    private static long read(Path file) {
        byte[] bytes = FileIO.readFully(file, "the consumer list");
        try {
            JsonNode next = Json.parse(bytes).get("nextSnapshot");
            if (next == null || !next.canConvertToLong()) {
                throw Errors.corruptFile(file, "it has no numeric 'nextSnapshot'");
            }
            return next.asLong();
        } catch (JsonProcessingException e) {
            throw Errors.corruptFile(file, "it is not JSON (" + e.getOriginalMessage() + ")");
        }
    }
}
