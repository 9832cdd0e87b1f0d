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

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The random surface test: seeded sequences of inserts (batch and streaming), overwrites, updates,
 * deletes, merges, schema changes, compactions, materializations, snapshot expiry, rollbacks and
 * time travel on tables of random format, partitioning and deletion-vector setting, writes run at
 * once ({@link ConcurrentWrites}) and writes whose commit crashes ({@link CrashedWrite}), each
 * checked against an in-memory model after every operation through Flink SQL, every few operations
 * through Apache Paimon 1.4.2, and against the layout invariants ({@link SequenceRun}).
 *
 * <p>CI runs the fixed {@link #CI_SEEDS}; {@code -Drandom.minutes=N} runs sequences of fresh seeds
 * for N minutes (a soak) and prints what ran; {@code -Drandom.seeds=s1,s2} runs those seeds again
 * ({@code -Drandom.steps=n} operations each, {@link #CI_STEPS} by default). A divergence prints its
 * seed and its shrunk sequence as a SQL script for {@code bin/dovetail-sql}.
 */
class RandomSurfaceITCase {

    /**
     * Seeds CI runs, each a sequence of {@link #CI_STEPS} operations on a table of its own, chosen
     * for what they exercise: 14 a rollback over new rows (then an insert) and a materialization of
     * deleted rows, 21 full compactions that rewrite groups and UPDATEs run at once, 300003 a
     * streaming insert beside a full compaction, a rollback and a crashed commit, 200002 an ORC
     * table with deletion vectors, UPDATEs run at once and a crashed commit.
     */
    private static final long[] CI_SEEDS = {14, 21, 300003, 200002};

    private static final int CI_STEPS = 15;
    private static final int SOAK_STEPS = 40;

    /**
     * Slots for a batch write's concurrently scheduled regions and a streaming INSERT beside it: a
     * streaming job that finds no free slot fails at once instead of waiting (a soak on 4 slots saw
     * a merge take all of them first).
     */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(8)
                            .build());

    @TempDir static Path warehouse;

    private static PaimonWorkbench paimon;

    @BeforeAll
    static void openPaimon() {
        paimon = new PaimonWorkbench(warehouse);
    }

    @AfterAll
    static void closePaimon() throws Exception {
        paimon.close();
    }

    @Test
    void sequencesKeepToTheModel() throws Exception {
        Stats stats = new Stats();
        Sequences sequences = new Sequences(new Sessions(warehouse.toString()), paimon, stats);
        List<String> divergences = new ArrayList<>();
        String minutes = System.getProperty("random.minutes");
        if (minutes == null) {
            String seeds = System.getProperty("random.seeds");
            int steps = Integer.getInteger("random.steps", CI_STEPS);
            for (long seed :
                    seeds == null
                            ? CI_SEEDS
                            : Arrays.stream(seeds.split(","))
                                    .mapToLong(Long::parseLong)
                                    .toArray()) {
                report(sequences.run(seed, steps), divergences);
            }
        } else {
            long end = System.nanoTime() + Duration.ofMinutes(Long.parseLong(minutes)).toNanos();
            SecureRandom seeds = new SecureRandom();
            while (System.nanoTime() < end) {
                report(sequences.run(seeds.nextLong(), SOAK_STEPS), divergences);
            }
        }
        System.out.println("Random surface test: " + stats);
        assertThat(divergences).isEmpty();
    }

    private static void report(String divergence, List<String> divergences) {
        if (divergence != null) {
            System.out.println(divergence);
            divergences.add(divergence);
        }
    }
}
