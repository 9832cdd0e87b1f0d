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

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.table.client.SqlClient;
import org.apache.flink.table.gateway.rest.SqlGatewayRestEndpoint;
import org.apache.flink.table.gateway.service.context.DefaultContext;
import org.apache.flink.table.gateway.service.session.SessionManager;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Flink's SQL client for the prompt, connected to a SQL gateway in this JVM on a loopback port: the
 * gateway is {@link DovetailGatewayService} with the launcher's session defaults (so {@code RESET}
 * returns to them and an UPDATE runs as it does in a script), the session starts with the
 * warehouse's catalog current.
 */
final class InteractiveClient {

    private InteractiveClient() {}

    static void run(LauncherOptions options) throws Exception {
        run(options, List.of());
    }

    /** Runs the SQL client with {@code clientArgs} added (e.g. {@code -f script.sql}). */
    static void run(LauncherOptions options, List<String> clientArgs) throws Exception {
        Path init = Files.createTempFile("dovetail-sql-init", ".sql");
        init.toFile().deleteOnExit();
        Files.write(init, initScript(options), StandardCharsets.UTF_8);
        SessionManager sessions =
                SessionManager.create(
                        new DefaultContext(SessionDefaults.options(options), List.of()));
        sessions.start();
        SqlGatewayRestEndpoint endpoint =
                new SqlGatewayRestEndpoint(loopback(), new DovetailGatewayService(sessions));
        try {
            endpoint.start();
            InetSocketAddress address = endpoint.getServerAddress();
            List<String> args = new ArrayList<>(List.of("gateway", "--endpoint"));
            args.add(address.getHostString() + ":" + address.getPort());
            args.addAll(List.of("-i", init.toString()));
            args.addAll(clientArgs);
            SqlClient.main(args.toArray(String[]::new));
        } finally {
            try {
                endpoint.closeAsync().get();
            } finally {
                sessions.stop();
            }
        }
    }

    static List<String> initScript(LauncherOptions options) {
        List<String> lines = new ArrayList<>();
        for (String statement : SessionDefaults.catalogStatements(options)) {
            lines.add(statement + ";");
        }
        return lines;
    }

    private static Configuration loopback() {
        Configuration rest = new Configuration();
        rest.set(RestOptions.ADDRESS, "127.0.0.1");
        rest.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        rest.set(RestOptions.BIND_PORT, "0");
        return rest;
    }
}
