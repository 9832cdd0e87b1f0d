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
package io.dovetail.e2e.s3;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * An HTTP proxy on a loopback port in front of an S3 server, in one of two modes. {@link
 * Mode#ATOMIC_CONDITIONS}: conditional PUTs ({@code If-None-Match}) of one key are forwarded one at
 * a time, so the condition holds under concurrency as on S3 (S3Mock checks it and then writes
 * without a lock: of eight concurrent conditional PUTs of one new key, several succeed). {@link
 * Mode#DROP_CONDITIONS}: the header is removed, a store that silently ignores conditional writes.
 */
final class S3Proxy implements AutoCloseable {

    enum Mode {
        ATOMIC_CONDITIONS,
        DROP_CONDITIONS
    }

    private static final String CONDITION = "if-none-match";

    /** Not forwarded: what the JDK's client sets itself. */
    private static final Set<String> DROPPED =
            Set.of(
                    "host",
                    "connection",
                    "content-length",
                    "expect",
                    "upgrade",
                    "transfer-encoding");

    private final HttpServer server;
    private final HttpClient client = HttpClient.newHttpClient();
    private final URI target;
    private final Mode mode;
    private final ConcurrentMap<String, Object> keyLocks = new ConcurrentHashMap<>();

    S3Proxy(URI target, Mode mode) throws IOException {
        this.target = target;
        this.mode = mode;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::forward);
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void forward(HttpExchange exchange) throws IOException {
        boolean conditional = exchange.getRequestHeaders().containsKey(CONDITION);
        if (conditional && mode == Mode.ATOMIC_CONDITIONS) {
            synchronized (
                    keyLocks.computeIfAbsent(
                            exchange.getRequestURI().getPath(), k -> new Object())) {
                send(exchange, true);
            }
        } else {
            send(exchange, false);
        }
    }

    private void send(HttpExchange exchange, boolean withCondition) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request =
                    HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().toString()))
                            .method(
                                    exchange.getRequestMethod(),
                                    body.length == 0
                                            ? HttpRequest.BodyPublishers.noBody()
                                            : HttpRequest.BodyPublishers.ofByteArray(body));
            for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
                String name = header.getKey().toLowerCase(Locale.ROOT);
                if (!DROPPED.contains(name) && (withCondition || !name.equals(CONDITION))) {
                    header.getValue().forEach(v -> request.header(header.getKey(), v));
                }
            }
            HttpResponse<byte[]> response =
                    client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers()
                    .map()
                    .forEach(
                            (name, values) -> {
                                if (!DROPPED.contains(name.toLowerCase(Locale.ROOT))) {
                                    exchange.getResponseHeaders().put(name, values);
                                }
                            });
            byte[] answer = response.body();
            boolean empty = answer.length == 0 || "HEAD".equals(exchange.getRequestMethod());
            exchange.sendResponseHeaders(response.statusCode(), empty ? -1 : answer.length);
            if (!empty) {
                exchange.getResponseBody().write(answer);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
