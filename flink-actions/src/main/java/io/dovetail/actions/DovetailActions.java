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
package io.dovetail.actions;

import io.dovetail.table.error.DovetailException;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * Command-line entry point: {@code ACTION [--option value ...]}. Exit codes: 0 success, 1 the table
 * could not be read or written (or a live file is missing), 2 bad command line.
 */
public final class DovetailActions {

    static final String USAGE =
            String.join(
                    System.lineSeparator(),
                    "Usage: dovetail-actions ACTION [OPTIONS]",
                    "",
                    "Actions:",
                    "  " + QuickstartAction.USAGE,
                    "      Creates the data-evolution table default.media in DIR (default "
                            + QuickstartAction.DEFAULT_WAREHOUSE
                            + "),",
                    "      replacing an earlier quickstart table, evolves its schema and prints"
                            + " it.",
                    "      Writes schema files only: no data files, no snapshots.",
                    "  " + InspectAction.USAGE,
                    "      Prints a Paimon-format table: schemas, snapshots and, for snapshot ID"
                            + " (default",
                    "      latest), its live data files, row-range groups and index files, then"
                            + " checks",
                    "      that every live file is present.",
                    "  help",
                    "      Prints this message.",
                    "",
                    "Exit codes: 0 success, 1 table error or missing live files, 2 bad command"
                            + " line.");

    private DovetailActions() {}

    public static void main(String[] args) {
        int exitCode = run(args, System.out, System.err);
        if (exitCode != 0) {
            System.exit(exitCode);
        }
    }

    /** Runs one action; returns the process exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            return usageError("No action given.", err);
        }
        List<String> options = Arrays.asList(args).subList(1, args.length);
        try {
            switch (args[0]) {
                case QuickstartAction.NAME:
                    return QuickstartAction.run(options, out);
                case InspectAction.NAME:
                    return InspectAction.run(options, out);
                case "help":
                case "--help":
                case "-h":
                    out.println(USAGE);
                    return 0;
                default:
                    return usageError("Unknown action '" + args[0] + "'.", err);
            }
        } catch (UsageException e) {
            return usageError(e.getMessage(), err);
        } catch (DovetailException e) {
            err.println("Error: " + e.getMessage());
            return 1;
        }
    }

    private static int usageError(String message, PrintStream err) {
        err.println("Error: " + message);
        err.println();
        err.println(USAGE);
        return 2;
    }
}
