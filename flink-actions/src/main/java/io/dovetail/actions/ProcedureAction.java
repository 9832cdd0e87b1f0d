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

import io.dovetail.flink.sql.TableName;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An action that calls one of the catalog's {@code sys} procedures on {@code --warehouse W
 * --database D --table T}: each option {@code --name value} becomes the procedure argument {@code
 * name => value}, so the action runs exactly the job the SQL {@code CALL} runs, and prints the
 * procedure's result row.
 */
final class ProcedureAction {

    /**
     * A procedure argument given as option {@code --name}: a string, a positive number of SQL type
     * {@code numberType}, or a {@code BOOLEAN} (true or false).
     */
    record Argument(String name, String numberType, String help) {
        static Argument text(String name, String help) {
            return new Argument(name, null, help);
        }

        static Argument number(String name, String sqlType, String help) {
            return new Argument(name, sqlType, help);
        }

        static Argument flag(String name, String help) {
            return new Argument(name, "BOOLEAN", help);
        }

        /** The SQL value of this argument's option. */
        String sql(ActionOptions options) {
            if (numberType == null) {
                return ActionSql.literal(options.required(name));
            }
            if (numberType.equals("BOOLEAN")) {
                String value = options.required(name);
                if (!value.equals("true") && !value.equals("false")) {
                    throw new UsageException(
                            "Option --" + name + " must be true or false, got '" + value + "'.");
                }
                return value.toUpperCase(java.util.Locale.ROOT);
            }
            return "CAST(" + options.positiveLong(name).getAsLong() + " AS " + numberType + ")";
        }
    }

    static final List<String> TABLE_OPTIONS = List.of("warehouse", "database", "table");

    private final String name;
    private final String procedure;
    private final String tableArgument;
    private final String summary;
    private final List<Argument> arguments;

    ProcedureAction(String name, String summary, List<Argument> arguments) {
        this(name, name, "table", summary, arguments);
    }

    /**
     * Action {@code name} calling {@code procedure}, which takes the table as argument {@code
     * tableArgument}.
     */
    ProcedureAction(
            String name,
            String procedure,
            String tableArgument,
            String summary,
            List<Argument> arguments) {
        this.name = name;
        this.procedure = procedure;
        this.tableArgument = tableArgument;
        this.summary = summary;
        this.arguments = List.copyOf(arguments);
    }

    String name() {
        return name;
    }

    String usage() {
        StringBuilder usage = new StringBuilder(name + " --warehouse W --database D --table T");
        arguments.forEach(a -> usage.append(" [--").append(a.name()).append(" V]"));
        return usage.toString();
    }

    String help() {
        List<String> lines = new ArrayList<>();
        lines.add("Usage: " + usage());
        lines.add("");
        lines.add(summary);
        lines.add("");
        lines.add("Options:");
        lines.add("  --warehouse W      the Dovetail warehouse (a path or URI)");
        lines.add("  --database D       the table's database");
        lines.add("  --table T          the table");
        for (Argument a : arguments) {
            lines.add(String.format("  --%-16s %s", a.name() + " V", a.help()));
        }
        lines.add("");
        lines.add(
                "Runs CALL "
                        + ActionSql.CATALOG
                        + ".sys."
                        + procedure
                        + "(...) and prints its row.");
        return String.join(System.lineSeparator(), lines);
    }

    int run(List<String> args, PrintStream out) {
        if (args.contains("--help")) {
            out.println(help());
            return 0;
        }
        Set<String> accepted = new HashSet<>(TABLE_OPTIONS);
        arguments.forEach(a -> accepted.add(a.name()));
        ActionOptions options = ActionOptions.parse(name, args, accepted);
        StringBuilder call =
                new StringBuilder("CALL ")
                        .append(ActionSql.CATALOG)
                        .append(".sys.")
                        .append(procedure)
                        .append('(')
                        .append(ActionSql.identifier(tableArgument))
                        .append(" => ")
                        .append(
                                ActionSql.literal(
                                        new TableName(
                                                        null,
                                                        options.required("database"),
                                                        options.required("table"))
                                                .toString()));
        for (Argument a : arguments) {
            if (options.has(a.name())) {
                call.append(", ")
                        .append(ActionSql.identifier(a.name()))
                        .append(" => ")
                        .append(a.sql(options));
            }
        }
        call.append(')');
        new ActionSql(options.required("warehouse")).runAndPrint(call.toString(), out);
        return 0;
    }
}
