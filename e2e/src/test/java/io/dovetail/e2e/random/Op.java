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

import java.util.List;

/**
 * One operation of a random sequence: its SQL statements (written for the model's schema when it
 * runs, so a shrunk sequence stays valid SQL), whether it is expected to be refused, and what it
 * does to the model. Row writes describe themselves as an {@link Effect} computed on the snapshot
 * they read; the rest apply themselves in {@link #finish}.
 */
abstract class Op {

    /** A short name for statistics and the script. */
    abstract String kind();

    /** The statements, in order, for the model's current schema. */
    abstract List<String> statements(ModelTable model);

    /** Runs in a streaming session (with checkpoints) rather than a batch one. */
    boolean streaming() {
        return false;
    }

    /** A query, run in the reading session (whose {@code SELECT *} leaves out metadata columns). */
    boolean query() {
        return false;
    }

    /** Whether every name it uses resolves and type-checks in the model (a shrunk sequence). */
    boolean applicable(ModelTable model) {
        return true;
    }

    /** Null if the op must succeed on {@code model}; else a fragment its error must contain. */
    String refusal(ModelTable model) {
        return null;
    }

    /** Reads what the op needs from the table before it runs (called just before). */
    void prepare(Probe probe) throws Exception {}

    /** What the op does to the rows, computed on {@code base}, the snapshot it reads. */
    Effect effect(ModelTable base) {
        return Effect.NONE;
    }

    /** After a successful run and its effect: applies the rest to the model and checks results. */
    void finish(ModelTable model, Probe probe) throws Exception {}

    /**
     * Whether its last run did what it is drawn to exercise (a compaction rewrote files); the
     * statistics count the runs that did not.
     */
    boolean exercised() {
        return true;
    }

    @Override
    public String toString() {
        return kind();
    }
}
