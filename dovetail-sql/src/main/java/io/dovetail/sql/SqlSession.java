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
import org.apache.flink.table.gateway.api.SqlGatewayService;
import org.apache.flink.table.gateway.api.operation.OperationHandle;
import org.apache.flink.table.gateway.api.results.ResultSet;
import org.apache.flink.table.gateway.api.session.SessionEnvironment;
import org.apache.flink.table.gateway.api.session.SessionHandle;
import org.apache.flink.table.gateway.api.utils.SqlGatewayException;
import org.apache.flink.table.gateway.rest.util.SqlGatewayRestAPIVersion;
import org.apache.flink.table.gateway.service.context.DefaultContext;
import org.apache.flink.table.gateway.service.session.SessionManager;

import java.util.List;
import java.util.Map;

/**
 * One SQL session run by Flink's SQL gateway service inside this JVM (no REST endpoint): the
 * gateway parses each statement, handles {@code SET} / {@code RESET}, builds a TableEnvironment per
 * statement (so {@code SET 'execution.runtime-mode'} takes effect) and hands procedures an
 * execution environment with the session's {@code execution.target}.
 */
final class SqlSession implements AutoCloseable {

    private static final int FETCH_SIZE = 1024;

    private final SessionManager sessions;
    private final SqlGatewayService gateway;
    private final SessionHandle session;

    /**
     * Opens a session whose defaults ({@code RESET} restores them) are {@code defaults}, then runs
     * {@code setup} statements (e.g. {@code CREATE CATALOG}, {@code USE CATALOG}).
     */
    SqlSession(Map<String, String> defaults, List<String> setup) {
        sessions = SessionManager.create(new DefaultContext(defaults, List.of()));
        sessions.start();
        gateway = new DovetailGatewayService(sessions);
        session =
                gateway.openSession(
                        SessionEnvironment.newBuilder()
                                .setSessionName("dovetail-sql")
                                .setSessionEndpointVersion(
                                        SqlGatewayRestAPIVersion.getDefaultVersion())
                                .build());
        for (String statement : setup) {
            gateway.configureSession(session, statement, 0);
        }
    }

    /**
     * Starts {@code statement} and waits for its first result page; {@code waiting} runs between
     * polls of a statement that is still running.
     */
    StatementResult execute(String statement, Runnable waiting) {
        OperationHandle operation =
                gateway.executeStatement(session, statement, 0, new Configuration());
        return new StatementResult(
                token -> gateway.fetchResults(session, operation, token, FETCH_SIZE),
                waiting,
                () -> closeQuietly(operation));
    }

    Map<String, String> config() {
        return gateway.getSessionConfig(session);
    }

    private void closeQuietly(OperationHandle operation) {
        try {
            gateway.closeOperation(session, operation);
        } catch (SqlGatewayException e) {
            // the operation is gone already
        }
    }

    @Override
    public void close() {
        try {
            gateway.closeSession(session);
        } finally {
            sessions.stop();
        }
    }

    /** Fetches one page of a statement's result. */
    interface Pages {
        ResultSet fetch(long token);
    }
}
