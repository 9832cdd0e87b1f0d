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

import io.dovetail.table.TableStore;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.snapshot.Snapshot;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code delete --warehouse W --database D --table T --where PREDICATE}: the SQL {@code DELETE FROM
 * D.T WHERE PREDICATE} as a batch job through the Dovetail catalog, so the deleted rows become
 * deletion vectors exactly as a SQL user's delete does.
 */
final class DeleteAction {

    static final String NAME = "delete";
    static final String USAGE = NAME + " --warehouse W --database D --table T --where PREDICATE";

    private static final Set<String> OPTIONS = Set.of("warehouse", "database", "table", "where");

    private DeleteAction() {}

    static String help() {
        return String.join(
                System.lineSeparator(),
                "Usage: " + USAGE,
                "",
                "Deletes the rows matching a Flink SQL predicate, as deletion vectors (a batch job).",
                "",
                "Options:",
                "  --warehouse W  the Dovetail warehouse (a path or URI)",
                "  --database D   the table's database",
                "  --table T      the table",
                "  --where P      the rows to delete, a Flink SQL predicate (e.g. \"dt = 'a' AND id"
                        + " > 10\")",
                "",
                "Runs DELETE FROM "
                        + ActionSql.CATALOG
                        + ".D.T WHERE P and prints the new snapshot.");
    }

    static int run(List<String> args, PrintStream out) throws Exception {
        if (args.contains("--help")) {
            out.println(help());
            return 0;
        }
        ActionOptions options = ActionOptions.parse(NAME, args, OPTIONS);
        String warehouse = options.required("warehouse");
        String database = options.required("database");
        String table = options.required("table");
        String where = options.required("where");
        new ActionSql(warehouse)
                .execute(
                        "DELETE FROM "
                                + ActionSql.CATALOG
                                + "."
                                + ActionSql.identifier(database)
                                + "."
                                + ActionSql.identifier(table)
                                + " WHERE "
                                + where);
        Optional<Snapshot> latest =
                TableStore.open(new Warehouse(Locations.toPath(warehouse)).table(database, table))
                        .latestSnapshot();
        out.println("snapshot_id: " + latest.map(Snapshot::id).orElse(null));
        return 0;
    }
}
