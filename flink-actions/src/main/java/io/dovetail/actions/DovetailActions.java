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

import io.dovetail.actions.ProcedureAction.Argument;
import io.dovetail.table.error.DovetailException;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Command-line entry point, also the main class of the actions jar ({@code flink run
 * dovetail-flink-actions.jar ACTION [--option value ...]}); {@code ACTION --help} documents each
 * action. Exit codes: 0 success, 1 the table could not be read or written (or a live file is
 * missing), 2 bad command line.
 */
public final class DovetailActions {

    /**
     * The actions that call a {@code sys} procedure, by name. Register new procedure actions here;
     * each gets its usage line, {@code --help} and dispatch from this list.
     */
    static final List<ProcedureAction> PROCEDURE_ACTIONS =
            List.of(
                    new ProcedureAction(
                            "compact",
                            "Compacts the table's row-range groups as a distributed batch job"
                                    + " (row ids and deletion vectors kept).",
                            List.of(
                                    Argument.text(
                                            "partitions",
                                            "partitions to compact, 'dt=a,hh=1;dt=b'"),
                                    Argument.text(
                                            "where",
                                            "partitions to compact, a SQL predicate over them"),
                                    Argument.text(
                                            "options", "table options for this run, 'k=v,..'"),
                                    Argument.number(
                                            "parallelism", "INT", "the most rewriter subtasks"))),
                    new ProcedureAction(
                            "expire_snapshots",
                            "Expires old snapshots and deletes the files only they referenced.",
                            List.of(
                                    Argument.number(
                                            "retain_max", "INT", "the most snapshots to keep"),
                                    Argument.number(
                                            "retain_min", "INT", "the fewest snapshots to keep"),
                                    Argument.text(
                                            "older_than", "expire up to 'yyyy-MM-dd HH:mm:ss'"),
                                    Argument.number(
                                            "max_deletes", "INT", "the most snapshots to expire"),
                                    Argument.text(
                                            "options", "table options for this run, 'k=v,..'"))),
                    new ProcedureAction(
                            "remove_orphan_files",
                            "Deletes files no snapshot or tag references, last modified before"
                                    + " --older_than (default a day ago).",
                            List.of(
                                    Argument.text(
                                            "older_than",
                                            "only files older than 'yyyy-MM-dd HH:mm:ss'"),
                                    Argument.flag("dry_run", "true: only list them"))),
                    new ProcedureAction(
                            "rollback_to",
                            "Rolls the table back to an older snapshot or tag; row ids are never"
                                    + " reused.",
                            List.of(
                                    Argument.number(
                                            "snapshot_id",
                                            "BIGINT",
                                            "the snapshot to roll back to"),
                                    Argument.text("tag", "the tag to roll back to"))),
                    new ProcedureAction(
                            "merge",
                            "data_evolution_merge",
                            "target",
                            "Merges a source table or query into the table in one commit:"
                                    + " updates columns of matched rows, deletes, inserts.",
                            List.of(
                                    Argument.text(
                                            "source", "a table name, or a query (SELECT ...)"),
                                    Argument.text(
                                            "merge_condition",
                                            "SQL condition over the aliases, 't.id = s.id'"),
                                    Argument.text("target_alias", "the table's alias (t)"),
                                    Argument.text("source_alias", "the source's alias (s)"),
                                    Argument.text(
                                            "matched_update_set",
                                            "'col = expr, ..' or '*' (same-named columns)"),
                                    Argument.text(
                                            "matched_delete_condition",
                                            "matched rows for which it holds are deleted"),
                                    Argument.text(
                                            "not_matched_insert_values",
                                            "'col = expr, ..' or '*': inserts unmatched rows"),
                                    Argument.text(
                                            "not_matched_by_source_delete_condition",
                                            "deletes table rows no source row matches"),
                                    Argument.text(
                                            "on_stale_row_id",
                                            "'error' (default) or 'skip' for self-merges"),
                                    Argument.number(
                                            "parallelism",
                                            "INT",
                                            "the parallelism of the whole merge job"))),
                    new ProcedureAction(
                            "materialize_deletion_vectors",
                            "Rewrites the groups with deleted rows into their surviving rows, which"
                                    + " get NEW row ids (needs --confirm true).",
                            List.of(
                                    Argument.flag("confirm", "true: accept that row ids change"),
                                    Argument.text(
                                            "partitions",
                                            "partitions to rewrite, 'dt=a,hh=1;dt=b'"),
                                    Argument.text(
                                            "where",
                                            "partitions to rewrite, a SQL predicate over them"),
                                    Argument.number(
                                            "parallelism", "INT", "the rewriter parallelism"))));

    private DovetailActions() {}

    static String usage() {
        List<String> lines = new ArrayList<>();
        lines.add(
                "Usage: flink run dovetail-flink-actions.jar ACTION [OPTIONS]   (ACTION --help for"
                        + " its options)");
        lines.add("");
        lines.add("Actions:");
        for (ProcedureAction action : PROCEDURE_ACTIONS) {
            lines.add("  " + action.usage());
        }
        lines.add("  " + DeleteAction.USAGE);
        lines.add("      Deletes the rows matching a Flink SQL predicate (deletion vectors).");
        lines.add("  " + QuickstartAction.USAGE);
        lines.add(
                "      Creates the data-evolution table quickstart.media in DIR (default "
                        + QuickstartAction.DEFAULT_WAREHOUSE
                        + "),");
        lines.add(
                "      replacing only an earlier quickstart table, evolves its schema, appends"
                        + " rows,");
        lines.add("      backfills a column of one partition and prints the table.");
        lines.add("  " + InspectAction.USAGE);
        lines.add(
                "      Prints a Paimon-format table: schemas, snapshots and, for snapshot ID"
                        + " (default");
        lines.add(
                "      latest), its live data files, row-range groups and index files, then"
                        + " checks");
        lines.add("      that every live file is present.");
        lines.add("  help");
        lines.add("      Prints this message.");
        lines.add("");
        lines.add(
                "Exit codes: 0 success, 1 table error or missing live files, 2 bad command"
                        + " line.");
        return String.join(System.lineSeparator(), lines);
    }

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
            for (ProcedureAction action : PROCEDURE_ACTIONS) {
                if (action.name().equals(args[0])) {
                    return action.run(options, out);
                }
            }
            switch (args[0]) {
                case DeleteAction.NAME:
                    return DeleteAction.run(options, out);
                case QuickstartAction.NAME:
                    return options.contains("--help")
                            ? help(QuickstartAction.USAGE, out)
                            : QuickstartAction.run(options, out);
                case InspectAction.NAME:
                    return options.contains("--help")
                            ? help(InspectAction.USAGE, out)
                            : InspectAction.run(options, out);
                case "help":
                case "--help":
                case "-h":
                    out.println(usage());
                    return 0;
                default:
                    return usageError("Unknown action '" + args[0] + "'.", err);
            }
        } catch (UsageException e) {
            return usageError(e.getMessage(), err);
        } catch (DovetailException e) {
            err.println("Error: " + e.getMessage());
            return 1;
        } catch (Exception e) {
            err.println("Error: " + messages(e));
            return 1;
        }
    }

    /** The distinct messages of {@code e} and its causes, outermost first. */
    private static String messages(Throwable e) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !messages.contains(t.getMessage())) {
                messages.add(t.getMessage());
            }
        }
        return String.join(System.lineSeparator() + "  caused by: ", messages);
    }

    private static int help(String usage, PrintStream out) {
        out.println("Usage: " + usage);
        return 0;
    }

    private static int usageError(String message, PrintStream err) {
        err.println("Error: " + message);
        err.println();
        err.println(usage());
        return 2;
    }
}
