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
package io.dovetail.sql;

import io.dovetail.sql.StatementSplitter.Statement;

import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.api.ResultKind;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * Runs statements one by one on a {@link SqlSession}, printing each result: rows of queries and of
 * statements with content (SHOW, CALL, ...) in the chosen {@link OutputFormat}, a status line for
 * the others. Stops at the first failure.
 */
final class ScriptRunner {

    private final SqlSession session;
    private final OutputFormat format;
    private final PrintWriter out;
    private final PrintStream err;
    private final boolean verbose;
    private final Progress progress;

    ScriptRunner(
            SqlSession session,
            OutputFormat format,
            PrintStream out,
            PrintStream err,
            boolean verbose) {
        this.session = session;
        this.format = format;
        this.out = new PrintWriter(out, true);
        this.err = err;
        this.verbose = verbose;
        this.progress = new Progress(err, System::currentTimeMillis);
    }

    /** Runs every statement; false if one failed (it was reported on stderr). */
    boolean run(List<Statement> statements) {
        for (Statement statement : statements) {
            try {
                execute(statement);
            } catch (RuntimeException e) {
                out.flush();
                err.println(
                        "Error in the statement at line "
                                + statement.line()
                                + " ("
                                + Progress.abbreviated(statement.text())
                                + "):");
                err.println(ErrorMessage.of(e));
                if (verbose) {
                    e.printStackTrace(err);
                }
                return false;
            }
        }
        return true;
    }

    private void execute(Statement statement) {
        progress.start();
        try (StatementResult result = session.execute(statement.text(), progress::tick)) {
            if (result.isQuery() || (result.kind() != ResultKind.SUCCESS && result.job() == null)) {
                format.print(result, isStreaming(), out);
                out.flush();
            } else {
                status(statement, result);
            }
        }
    }

    private void status(Statement statement, StatementResult result) {
        String line =
                "OK  "
                        + Progress.abbreviated(statement.text())
                        + (result.job() == null ? "" : "  (job " + result.job() + ")")
                        + String.format(Locale.ROOT, "  %.2f s", progress.elapsedMillis() / 1e3);
        if (format.statusOnStdout()) {
            out.println(line);
        } else {
            err.println(line);
        }
    }

    private boolean isStreaming() {
        return session.config()
                .getOrDefault(ExecutionOptions.RUNTIME_MODE.key(), "batch")
                .equalsIgnoreCase("streaming");
    }
}
