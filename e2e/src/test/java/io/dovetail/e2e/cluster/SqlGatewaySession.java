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
package io.dovetail.e2e.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A session of Flink's SQL Gateway REST API (v3): statements are submitted as operations, their
 * results fetched page by page ({@code nextResultUri}, JSON rows) until the end of the stream. Each
 * row is rendered as {@code column=value, ...}, the way the Paimon-side reads render rows.
 */
final class SqlGatewaySession implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private final HttpClient http;
    private final URI gateway;
    private final String session;

    private SqlGatewaySession(HttpClient http, URI gateway, String session) {
        this.http = http;
        this.gateway = gateway;
        this.session = session;
    }

    static SqlGatewaySession open(URI gateway) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        ObjectNode body = JSON.createObjectNode();
        body.putObject("properties");
        JsonNode opened = post(http, gateway.resolve("/v3/sessions"), body);
        return new SqlGatewaySession(http, gateway, opened.path("sessionHandle").asText());
    }

    /** Runs {@code statement} (a {@code SET} too) and returns its rendered result rows. */
    List<String> execute(String statement) throws IOException, InterruptedException {
        return fetch(submit(statement));
    }

    /** Submits {@code statement} without waiting; returns its operation handle. */
    String submit(String statement) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("statement", statement);
        return post(http, uri("/statements"), body).path("operationHandle").asText();
    }

    /**
     * Fetches every result row of {@code operation}, waiting while it runs (with {@code
     * table.dml-sync} an INSERT's operation runs until its job ends). A failed operation throws
     * {@link StatementFailed} with the gateway's error, stack trace included.
     */
    List<String> fetch(String operation) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        List<String> rows = new ArrayList<>();
        URI next = uri("/operations/" + operation + "/result/0?rowFormat=JSON");
        while (true) {
            JsonNode page = get(next);
            List<String> columns = new ArrayList<>();
            page.path("results").path("columns").forEach(c -> columns.add(c.path("name").asText()));
            for (JsonNode row : page.path("results").path("data")) {
                rows.add(render(columns, row.path("fields")));
            }
            String type = page.path("resultType").asText();
            if ("EOS".equals(type) || page.path("nextResultUri").isMissingNode()) {
                return rows;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("Operation " + operation + " did not end in " + TIMEOUT);
            }
            if ("NOT_READY".equals(type)) {
                Thread.sleep(100);
            }
            next = gateway.resolve(page.path("nextResultUri").asText());
        }
    }

    private static String render(List<String> columns, JsonNode fields) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            JsonNode value = fields.get(i);
            out.add(columns.get(i) + "=" + (value.isNull() ? "null" : value.asText()));
        }
        return String.join(", ", out);
    }

    private URI uri(String path) {
        return gateway.resolve("/v3/sessions/" + session + path);
    }

    private JsonNode get(URI uri) throws IOException, InterruptedException {
        return send(http, HttpRequest.newBuilder(uri).GET().build());
    }

    private static JsonNode post(HttpClient http, URI uri, JsonNode body)
            throws IOException, InterruptedException {
        return send(
                http,
                HttpRequest.newBuilder(uri)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                        .build());
    }

    private static JsonNode send(HttpClient http, HttpRequest request)
            throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        if (response.statusCode() != 200) {
            List<String> errors = new ArrayList<>();
            body.path("errors").forEach(e -> errors.add(e.asText()));
            throw new StatementFailed(request.uri() + ": " + String.join("\n", errors));
        }
        return body;
    }

    /** The gateway refused a request or an operation failed. */
    static final class StatementFailed extends IOException {
        StatementFailed(String message) {
            super(message);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        send(http, HttpRequest.newBuilder(uri("")).DELETE().build());
    }
}
