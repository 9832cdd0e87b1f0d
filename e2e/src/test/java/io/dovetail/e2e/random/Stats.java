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

import java.util.concurrent.atomic.AtomicInteger;

/** What the runs did: the soak's report. */
final class Stats {

    final AtomicInteger sequences = new AtomicInteger();
    final AtomicInteger steps = new AtomicInteger();
    final AtomicInteger operations = new AtomicInteger();
    final AtomicInteger refusals = new AtomicInteger();
    final AtomicInteger paimonReads = new AtomicInteger();

    /** Paimon reads not made: a file's write columns were all renamed (a Paimon 1.4.2 bug). */
    final AtomicInteger paimonReadsSkipped = new AtomicInteger();

    final AtomicInteger divergences = new AtomicInteger();

    /** Writes whose commit crashed. */
    final AtomicInteger crashes = new AtomicInteger();

    /** Steps whose writes ran at once. */
    final AtomicInteger concurrentSteps = new AtomicInteger();

    /** Writes run at once that were refused with a conflict. */
    final AtomicInteger conflicts = new AtomicInteger();

    final java.util.Map<String, Integer> byKind = new java.util.TreeMap<>();

    /** Operations that ran but did not do what they are drawn to exercise, by kind. */
    final java.util.Map<String, Integer> idleByKind = new java.util.TreeMap<>();

    synchronized void ran(Op op) {
        operations.incrementAndGet();
        byKind.merge(op.kind(), 1, Integer::sum);
    }

    synchronized void idle(Op op) {
        idleByKind.merge(op.kind(), 1, Integer::sum);
    }

    @Override
    public synchronized String toString() {
        return "sequences "
                + sequences
                + ", steps "
                + steps
                + ", operations "
                + operations
                + " "
                + byKind
                + " (of which idle: compactions that rewrote nothing, materializations of no"
                + " deleted rows, rollbacks over no new rows "
                + idleByKind
                + "), refused statements "
                + refusals
                + ", Paimon reads "
                + paimonReads
                + " (skipped for renamed write columns "
                + paimonReadsSkipped
                + ")"
                + ", steps of writes run at once "
                + concurrentSteps
                + ", crashed commits "
                + crashes
                + ", conflicts of writes run at once "
                + conflicts
                + ", divergences "
                + divergences;
    }
}
