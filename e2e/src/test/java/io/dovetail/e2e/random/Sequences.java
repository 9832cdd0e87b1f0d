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
package io.dovetail.e2e.random;

import io.dovetail.e2e.paimon.PaimonWorkbench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Runs seeded sequences on fresh tables of one warehouse: a seed fixes the table's configuration
 * and every operation. A sequence that diverges from the model is shrunk (chunks of operations
 * dropped while a replay on the table created afresh still diverges) and reported with its seed and
 * the shrunk sequence as a SQL script.
 */
final class Sequences {

    /** How long a shrink may replay before it reports what it has. */
    private static final long SHRINK_MILLIS = 5 * 60_000;

    private final Sessions sessions;
    private final PaimonWorkbench paimon;
    private final Stats stats;
    private int tables;

    Sequences(Sessions sessions, PaimonWorkbench paimon, Stats stats) {
        this.sessions = sessions;
        this.paimon = paimon;
        this.stats = stats;
    }

    /**
     * Runs {@code steps} operations drawn from {@code seed}; null if the table kept to the model.
     */
    String run(long seed, int steps) throws Exception {
        TableConfig config = TableConfig.random(new Random(seed));
        SequenceRun run =
                new SequenceRun(seed, config, "seq_" + (tables++), sessions, paimon, stats);
        Generator generator = new Generator(seed, run.table(), config);
        try {
            for (int i = 0; i < steps; i++) {
                run.run(generator.next(run.model()));
            }
            return null;
        } catch (Divergence d) {
            stats.divergences.incrementAndGet();
            System.out.println("seed " + seed + " diverged, shrinking: " + d.getMessage());
            SequenceRun shrunk = shrink(seed, config, run);
            return "seed "
                    + seed
                    + " ("
                    + config
                    + ") diverged after "
                    + run.executed().size()
                    + " operations: "
                    + d.getMessage()
                    + "\nshrunk to "
                    + shrunk.executed().size()
                    + " operations, as a script:\n"
                    + shrunk.script();
        }
    }

    /**
     * Drops chunks of the diverged run's operations (halves, quarters, ... single ones) as long as
     * a replay on a fresh table still diverges; returns the last diverging run ({@code diverged}
     * itself if a replay of all its operations does not diverge).
     */
    private SequenceRun shrink(long seed, TableConfig config, SequenceRun diverged)
            throws Exception {
        long deadline = System.currentTimeMillis() + SHRINK_MILLIS;
        List<Op> current = new ArrayList<>(diverged.executed());
        SequenceRun failing = replay(seed, config, diverged.table(), current);
        if (failing == null) {
            return diverged;
        }
        for (int chunk = Math.max(1, current.size() / 2);
                chunk >= 1 && System.currentTimeMillis() < deadline;
                chunk /= 2) {
            for (int start = current.size() - chunk;
                    start >= 0 && System.currentTimeMillis() < deadline;
                    start -= chunk) {
                List<Op> candidate = new ArrayList<>(current);
                candidate.subList(start, start + chunk).clear();
                SequenceRun replayed = replay(seed, config, diverged.table(), candidate);
                if (replayed != null) {
                    current = replayed.executed();
                    failing = replayed;
                    start = Math.min(start, current.size());
                }
            }
        }
        return failing;
    }

    /**
     * Replays {@code ops} on {@code table} dropped and created afresh (the operations name it); the
     * run if it diverged, else null.
     */
    private SequenceRun replay(long seed, TableConfig config, String table, List<Op> ops)
            throws Exception {
        Sessions.run(sessions.writes, "DROP TABLE IF EXISTS " + Sql.name(table));
        SequenceRun run = new SequenceRun(seed, config, table, sessions, paimon, new Stats());
        try {
            for (Op op : ops) {
                run.run(op);
            }
            return null;
        } catch (Divergence d) {
            return run;
        }
    }
}
