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

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code bin/dovetail-sql}: Flink SQL over a Dovetail warehouse. Runs a script ({@code -f}) or
 * statements ({@code -e}) on one embedded Flink cluster, or opens Flink's SQL client. Exit codes: 0
 * success, 1 a statement failed, 2 bad command line.
 */
public final class DovetailSql {

    private DovetailSql() {}

    public static void main(String[] args) throws Exception {
        int exitCode;
        try {
            exitCode = run(args, System.out, System.err);
        } finally {
            EmbeddedCluster.shutdown();
        }
        System.exit(exitCode);
    }

    /**
     * Runs the command line; returns the exit code. The {@link EmbeddedCluster} stays up for later
     * runs in this JVM.
     */
    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        LauncherOptions options;
        List<Statement> statements;
        try {
            options = LauncherOptions.parse(args);
            if (options.help()) {
                LauncherOptions.printHelp(new PrintWriter(out));
                return 0;
            }
            if (LauncherOptions.isLocal(options.warehouse())) {
                Files.createDirectories(Path.of(options.warehouse()));
            }
            if (options.interactive()) {
                InteractiveClient.run(options);
                return 0;
            }
            statements = StatementSplitter.split(sql(options));
        } catch (SqlScriptException e) {
            err.println("Error: " + e.getMessage());
            err.println("Usage: " + LauncherOptions.USAGE + " (--help for more)");
            return 2;
        }
        SqlSession opened;
        try {
            opened =
                    new SqlSession(
                            SessionDefaults.options(options),
                            SessionDefaults.catalogStatements(options));
        } catch (RuntimeException e) {
            err.println("Error: cannot open the warehouse " + options.warehouse() + ":");
            err.println(ErrorMessage.of(e));
            return 1;
        }
        try (SqlSession session = opened) {
            boolean succeeded =
                    new ScriptRunner(session, options.format(), out, err, options.verbose())
                            .run(statements);
            return succeeded ? 0 : 1;
        }
    }

    private static String sql(LauncherOptions options) throws IOException {
        if (options.statements() != null) {
            return options.statements();
        }
        try {
            return Files.readString(options.script(), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new SqlScriptException("Script " + options.script() + " does not exist.");
        }
    }
}
