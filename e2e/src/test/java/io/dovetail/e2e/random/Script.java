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
 * A sequence as a SQL script that {@code bin/dovetail-sql -f} replays (its session: catalog {@code
 * dovetail} current, batch mode, each DML waiting for its commit): the seed and the table in a
 * header, each step's statements under a comment naming the step (a streaming one between {@code
 * SET}s of the runtime mode), findings as comments.
 */
final class Script {

    private final StringBuilder text = new StringBuilder();

    Script(long seed, TableConfig config, String createTable) {
        text.append("-- Dovetail random surface test, seed ")
                .append(seed)
                .append("; table: ")
                .append(config)
                .append("\n-- Replay: bin/dovetail-sql -w <empty directory> -f <this file>\n")
                .append(createTable)
                .append(";\n");
    }

    void step(int index, Op op, List<String> statements) {
        text.append("\n-- step ").append(index).append(": ").append(op).append('\n');
        if (op.streaming()) {
            text.append("SET 'execution.runtime-mode' = 'streaming';\n")
                    .append("SET 'execution.checkpointing.interval' = '200 ms';\n");
        }
        for (String statement : statements) {
            text.append(statement).append(";\n");
        }
        if (op.streaming()) {
            text.append("SET 'execution.runtime-mode' = 'batch';\n")
                    .append("RESET 'execution.checkpointing.interval';\n");
        }
    }

    void comment(String comment) {
        for (String line : comment.split("\n")) {
            text.append("-- ").append(line).append('\n');
        }
    }

    void append(String statement) {
        text.append(statement).append(";\n");
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
