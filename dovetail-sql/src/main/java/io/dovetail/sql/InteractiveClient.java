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

import org.apache.flink.table.client.SqlClient;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Flink's SQL client in embedded mode, started with an init script that applies the {@link
 * SessionDefaults}: its jobs run on the {@link EmbeddedCluster} of this JVM too.
 */
final class InteractiveClient {

    private InteractiveClient() {}

    static void run(LauncherOptions options) throws IOException {
        Path init = Files.createTempFile("dovetail-sql-init", ".sql");
        init.toFile().deleteOnExit();
        Files.write(init, initScript(options), StandardCharsets.UTF_8);
        SqlClient.main(new String[] {"embedded", "-i", init.toString()});
    }

    static List<String> initScript(LauncherOptions options) {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, String> option : SessionDefaults.options(options).entrySet()) {
            lines.add("SET '" + option.getKey() + "' = '" + option.getValue() + "';");
        }
        for (String statement : SessionDefaults.catalogStatements(options)) {
            lines.add(statement + ";");
        }
        return lines;
    }
}
