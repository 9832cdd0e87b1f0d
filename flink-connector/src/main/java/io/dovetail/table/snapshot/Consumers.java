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

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The streaming consumers of a table, in Paimon's layout and meaning: one {@code
 * consumer/consumer-<id>} file per consumer holding {@code {"nextSnapshot": N}}, the next snapshot
 * whose changes it reads. Paimon's snapshot expiry keeps N and everything newer; Dovetail's also
 * keeps N - 1, the snapshot a full changelog of N is compared with and whose {@code nextRowId} an
 * insert-only one starts from. A job's pin ({@link SnapshotPins}) is a consumer entry holding the
 * snapshot it keeps.
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

    /** Records that consumer {@code id} reads snapshot {@code nextSnapshot} next. */
    public void record(String id, long nextSnapshot) {
        ObjectNode json = Json.newObject();
        json.put("nextSnapshot", nextSnapshot);
        FileIO.overwriteHint(file(id), Json.toBytes(json));
    }

    /**
     * The oldest snapshot any consumer needs: {@code N - 1} for a reader at {@code N}, the held
     * snapshot for a job's pin (one whose lease ended is none: {@link SnapshotPins}); {@link
     * Long#MAX_VALUE} without consumers.
     */
    public long oldestNeeded() {
        long oldest = Long.MAX_VALUE;
        long now = System.currentTimeMillis();
        for (Map.Entry<String, Long> consumer : all().entrySet()) {
            String id = consumer.getKey();
            if (!SnapshotPins.isExpired(id, now)) {
                long needed = consumer.getValue() - (SnapshotPins.isPin(id) ? 0 : 1);
                oldest = Math.min(oldest, needed);
            }
        }
        return oldest;
    }

    /** Every consumer's next snapshot, by id, ordered by id (pins included). */
    public SortedMap<String, Long> all() {
        SortedMap<String, Long> consumers = new TreeMap<>();
        Path dir = paths.consumerDir();
        if (FileIO.exists(dir)) {
            for (String name : FileIO.listNames(dir)) {
                if (name.startsWith(FILE_PREFIX)) {
                    consumers.put(name.substring(FILE_PREFIX.length()), read(new Path(dir, name)));
                }
            }
        }
        return consumers;
    }

    /**
     * Removes the readers (not the pins, which have leases) whose file was last written before
     * {@code millis} ({@code consumer.expiration-time}); returns their ids.
     */
    public List<String> removeUnwrittenSince(long millis) {
        List<String> removed = new ArrayList<>();
        Path dir = paths.consumerDir();
        if (!FileIO.exists(dir)) {
            return removed;
        }
        for (FileStatus file : FileIO.list(dir)) {
            String name = file.getPath().getName();
            if (name.startsWith(FILE_PREFIX)
                    && !SnapshotPins.isPin(name.substring(FILE_PREFIX.length()))
                    && file.getModificationTime() < millis) {
                FileIO.deleteQuietly(file.getPath());
                removed.add(name.substring(FILE_PREFIX.length()));
            }
        }
        return removed;
    }

    /**
     * Sets consumer {@code id} to read snapshot {@code nextSnapshot} next ({@code reset_consumer}):
     * a snapshot the table holds, or the one after the latest, whose predecessor is held too (a
     * changelog of it compares with it). Returns the previous position.
     */
    public OptionalLong reset(String id, long nextSnapshot, SnapshotManager snapshots) {
        long latest = snapshots.latestId().orElse(0);
        boolean readable =
                nextSnapshot >= 1
                        && nextSnapshot <= latest + 1
                        && (nextSnapshot == latest + 1 || snapshots.exists(nextSnapshot))
                        && (nextSnapshot == 1 || snapshots.exists(nextSnapshot - 1));
        if (!readable) {
            throw Errors.invalidArgument(
                    "Cannot set consumer '"
                            + id
                            + "' to read snapshot "
                            + nextSnapshot
                            + " next: the table holds snapshots "
                            + snapshots.earliestId().orElse(0)
                            + ".."
                            + latest
                            + ", and a read of snapshot N needs N and N - 1 (N may be "
                            + (latest + 1)
                            + ", the next commit).");
        }
        OptionalLong previous = position(id);
        record(id, nextSnapshot);
        return previous;
    }

    /**
     * Removes the readers whose id matches {@code including} (all when null) and not {@code
     * excluding} ({@code clear_consumers}); a job's pin is never cleared (it has a lease; {@link
     * #remove} removes one by id). Returns the removed consumers and their positions.
     */
    public SortedMap<String, Long> clear(@Nullable Pattern including, @Nullable Pattern excluding) {
        SortedMap<String, Long> removed = new TreeMap<>();
        all().forEach(
                        (id, next) -> {
                            if (!SnapshotPins.isPin(id)
                                    && (including == null || including.matcher(id).matches())
                                    && (excluding == null || !excluding.matcher(id).matches())) {
                                remove(id);
                                removed.put(id, next);
                            }
                        });
        return removed;
    }

    /** Removes consumer {@code id}; false if it had no file. */
    public boolean remove(String id) {
        Path file = file(id);
        if (!FileIO.exists(file)) {
            return false;
        }
        FileIO.deleteQuietly(file);
        return true;
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
