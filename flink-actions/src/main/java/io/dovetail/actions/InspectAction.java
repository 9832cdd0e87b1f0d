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
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.path.Warehouse;

import java.io.PrintStream;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/** {@code inspect}: prints the report of {@link TableReport} for any Paimon-format table. */
final class InspectAction {

    static final String NAME = "inspect";
    static final String USAGE =
            "inspect (--table-path DIR | --warehouse DIR --database DB --table T) [--snapshot ID]";

    private static final Set<String> OPTIONS =
            Set.of("table-path", "warehouse", "database", "table", "snapshot");

    private InspectAction() {}

    /** Returns the exit code: 0, or 1 when a live data file is missing or has the wrong size. */
    static int run(List<String> args, PrintStream out) {
        ActionOptions options = ActionOptions.parse(NAME, args, OPTIONS);
        TablePaths paths = tablePaths(options);
        OptionalLong snapshotId = options.positiveLong("snapshot");
        return new TableReport(TableStore.open(paths), out).print(snapshotId) ? 0 : 1;
    }

    private static TablePaths tablePaths(ActionOptions options) {
        boolean byPath = options.has("table-path");
        boolean byName =
                options.has("warehouse") || options.has("database") || options.has("table");
        if (byPath == byName) {
            throw new UsageException(
                    "inspect needs either --table-path DIR or --warehouse DIR --database DB --table"
                            + " T.");
        }
        if (byPath) {
            return new TablePaths(Locations.toPath(options.required("table-path")));
        }
        Warehouse warehouse = new Warehouse(Locations.toPath(options.required("warehouse")));
        String database = options.required("database");
        String table = options.required("table");
        try {
            return warehouse.table(database, table);
        } catch (DovetailException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
