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
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.ChildPaths;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.fs.Writers;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.core.fs.Path;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads and publishes the snapshots of one table ({@code <table>/snapshot/}).
 *
 * <p>Snapshot ids are consecutive from the earliest kept snapshot to the latest. {@code LATEST} and
 * {@code EARLIEST} are hints only: {@code LATEST = v} is trusted when {@code snapshot-v} exists and
 * {@code snapshot-(v+1)} does not, {@code EARLIEST = v} when {@code snapshot-v} exists; a missing,
 * garbled, non-positive, stale or ahead hint falls back to listing the directory.
 *
 * <p>Commit protocol (the caller's loop): read {@link #latestId()}, build snapshot N = latest + 1
 * from it, call {@link #tryCommit}; on {@code false} another writer took N, so re-read and rebuild.
 * After an attempt whose outcome is unknown (an I/O error), {@link #findCommit} tells whether it
 * landed.
 */
public final class SnapshotManager {

    private final TablePaths paths;

    public SnapshotManager(TablePaths paths) {
        this.paths = paths;
    }

    public TablePaths paths() {
        return paths;
    }

    /** The id of the newest snapshot, or empty if the table has none. */
    public OptionalLong latestId() {
        OptionalLong hint = readHint(paths.latestHint());
        if (hint.isPresent()) {
            long v = hint.getAsLong();
            if (v < Long.MAX_VALUE && exists(v) && !exists(v + 1)) {
                return hint;
            }
        }
        long[] ids = listIds();
        return ids.length == 0 ? OptionalLong.empty() : OptionalLong.of(ids[ids.length - 1]);
    }

    /** The id of the oldest kept snapshot, or empty if the table has none. */
    public OptionalLong earliestId() {
        OptionalLong hint = readHint(paths.earliestHint());
        if (hint.isPresent() && exists(hint.getAsLong())) {
            return hint;
        }
        long[] ids = listIds();
        return ids.length == 0 ? OptionalLong.empty() : OptionalLong.of(ids[0]);
    }

    /** The newest snapshot, or empty if the table has none. */
    public Optional<Snapshot> latest() {
        OptionalLong id = latestId();
        return id.isPresent() ? Optional.of(snapshot(id.getAsLong())) : Optional.empty();
    }

    /**
     * All snapshot ids in ascending order, by listing. Hidden (dot) files and other names are
     * skipped; a name that starts with {@code snapshot-} but does not end in a canonical positive
     * decimal id is an error, because Paimon fails on it too.
     */
    public long[] listIds() {
        List<String> names = FileIO.listNames(paths.snapshotDir());
        long[] ids = new long[names.size()];
        int count = 0;
        for (String name : names) {
            if (name.startsWith(TablePaths.SNAPSHOT_FILE_PREFIX)) {
                ids[count++] = parseId(name);
            }
        }
        long[] result = Arrays.copyOf(ids, count);
        Arrays.sort(result);
        return result;
    }

    public boolean exists(long id) {
        return FileIO.exists(paths.snapshotFile(id));
    }

    /**
     * Reads snapshot {@code id} (time travel). A missing snapshot is an error naming the ids that
     * do exist.
     */
    public Snapshot snapshot(long id) {
        Optional<Snapshot> snapshot = readIfExists(id);
        if (snapshot.isPresent()) {
            return snapshot.get();
        }
        throw Errors.noSuchSnapshot(id, paths, listIds());
    }

    /**
     * Publishes {@code snapshot-N} for {@code snapshot.id() = N} if nobody else has, then updates
     * {@code LATEST} (best effort: a failed hint write only costs readers a listing). Returns false
     * if N is taken, i.e. another writer committed first. Refuses an N that would leave a gap.
     * {@code writers} is what the table's options declare.
     */
    public boolean tryCommit(Snapshot snapshot, Writers writers) {
        long id = snapshot.id();
        if (!follows(id)) {
            OptionalLong latest = latestId();
            if (latest.isPresent() && latest.getAsLong() >= id) {
                return false;
            }
            throw Errors.invalidArgument(
                    "Cannot commit snapshot "
                            + id
                            + " to table "
                            + paths
                            + ": the latest snapshot is "
                            + (latest.isPresent() ? latest.getAsLong() : "none")
                            + " and snapshot ids must be consecutive.");
        }
        if (!FileIO.publishIfAbsent(
                paths.snapshotFile(id), SnapshotJson.toBytes(snapshot), writers)) {
            return false;
        }
        try {
            writeLatestHint(id);
        } catch (DovetailException e) {
            // The snapshot is committed; LATEST is only a hint that readers verify.
        }
        return true;
    }

    /**
     * Looks for a snapshot after {@code afterId} (exclusive) committed by {@code commitUser} with
     * {@code commitIdentifier}, of any kind: how a retried or recovered commit learns that it
     * already landed. Snapshots expired meanwhile are not searched.
     */
    public Optional<Snapshot> findCommit(long afterId, String commitUser, long commitIdentifier) {
        return findCommit(afterId, commitUser, commitIdentifier, null);
    }

    /** Like {@link #findCommit(long, String, long)}, restricted to one commit kind. */
    public Optional<Snapshot> findCommit(
            long afterId, String commitUser, long commitIdentifier, CommitKind kind) {
        OptionalLong latest = latestId();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        long lowest = Math.max(afterId + 1, earliestId().orElse(1));
        for (long id = latest.getAsLong(); id >= lowest; id--) {
            Optional<Snapshot> read = readIfExists(id);
            if (read.isEmpty()) {
                break; // expired concurrently, and so are all older ones
            }
            Snapshot s = read.get();
            if (s.commitUser().equals(commitUser)
                    && s.commitIdentifier() == commitIdentifier
                    && (kind == null || s.commitKind() == kind)) {
                return read;
            }
        }
        return Optional.empty();
    }

    /**
     * The newest snapshot committed by {@code commitUser}, if one is still there: a committer that
     * recovers skips what it had committed up to that snapshot's identifier (identifiers increase
     * per commit user). Reads snapshots from the latest back until it finds one.
     */
    public Optional<Snapshot> latestCommitOf(String commitUser) {
        OptionalLong latest = latestId();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        long lowest = earliestId().orElse(1);
        for (long id = latest.getAsLong(); id >= lowest; id--) {
            Optional<Snapshot> read = readIfExists(id);
            if (read.isEmpty()) {
                break; // expired concurrently, and so are all older ones
            }
            if (read.get().commitUser().equals(commitUser)) {
                return read;
            }
        }
        return Optional.empty();
    }

    /** Overwrites the {@code LATEST} hint. */
    public void writeLatestHint(long id) {
        writeHint(paths.latestHint(), id);
    }

    /** Overwrites the {@code EARLIEST} hint (snapshot expiration and rollback do this). */
    public void writeEarliestHint(long id) {
        writeHint(paths.earliestHint(), id);
    }

    /** Whether id N may be created next: N = 1 on an empty table, else snapshot N-1 exists. */
    private boolean follows(long id) {
        return id == 1 ? listIds().length == 0 : exists(id - 1);
    }

    private Optional<Snapshot> readIfExists(long id) {
        Path file = paths.snapshotFile(id);
        byte[] bytes;
        try {
            bytes = FileIO.readFully(file, "snapshot id " + id);
        } catch (DovetailException e) {
            if (e.kind() == DovetailException.Kind.MISSING_FILE) {
                return Optional.empty();
            }
            throw e;
        }
        Snapshot snapshot = SnapshotJson.fromBytes(bytes, file);
        if (snapshot.id() != id) {
            throw Errors.corruptFile(
                    file,
                    "it contains snapshot id " + snapshot.id() + " but is named for id " + id);
        }
        return Optional.of(snapshot);
    }

    private long parseId(String name) {
        String digits = name.substring(TablePaths.SNAPSHOT_FILE_PREFIX.length());
        boolean canonical =
                !digits.isEmpty()
                        && digits.length() <= 19
                        && digits.charAt(0) != '0'
                        && digits.chars().allMatch(c -> c >= '0' && c <= '9');
        if (canonical) {
            try {
                return Long.parseLong(digits);
            } catch (NumberFormatException e) {
                // falls through to the error below
            }
        }
        throw Errors.corruptFile(
                ChildPaths.below(paths.snapshotDir(), name),
                "the name does not match snapshot-<id> with a positive decimal id; every name in"
                        + " snapshot/ that starts with 'snapshot-' must, or Paimon cannot list the"
                        + " table (move the file elsewhere)");
    }

    /** A hint's id, or empty if it is missing, unreadable, not a plain decimal, or not positive. */
    private static OptionalLong readHint(Path hint) {
        String text;
        try {
            text = new String(FileIO.readFully(hint, "the snapshot hints"), StandardCharsets.UTF_8);
        } catch (DovetailException e) {
            return OptionalLong.empty();
        }
        if (text.isEmpty()
                || text.length() > 19
                || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalLong.empty();
        }
        try {
            long id = Long.parseLong(text);
            return id > 0 ? OptionalLong.of(id) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty(); // beyond the long range
        }
    }

    private static void writeHint(Path hint, long id) {
        if (id < 1) {
            throw Errors.invalidArgument(
                    "Snapshot ids start at 1, got " + id + " for " + hint + ".");
        }
        FileIO.overwriteHint(hint, Long.toString(id).getBytes(StandardCharsets.US_ASCII));
    }
}
