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

import io.dovetail.table.fs.FileIO;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.PluginDescriptor;

import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Adobe S3Mock (a real S3-compatible server that honours {@code If-None-Match: *}) run as its own
 * JVM on a free loopback port: it is a Spring Boot application whose logging stack clashes with
 * Flink's, so it never shares the test classpath. The build copies its executable jar to the path
 * in the system property {@code dovetail.s3mock.jar}, and Flink's S3 file system to {@code
 * dovetail.s3.plugin.jar}, which {@link #initializeFlinkFileSystems} loads as a plugin.
 */
final class S3MockServer implements AutoCloseable {

    static final String ACCESS_KEY = "dovetail-test";
    static final String SECRET_KEY = "dovetail-test-secret";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Process process;
    private final URI endpoint;

    private S3MockServer(Process process, URI endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /** Starts the server with {@code buckets} created and waits until it answers. */
    static S3MockServer start(String... buckets) throws Exception {
        String jar = builtJar("dovetail.s3mock.jar");
        int port = freePort();
        File log = new File(new File(jar).getParentFile(), "s3mock-" + port + ".log");
        Process process =
                new ProcessBuilder(
                                new File(System.getProperty("java.home"), "bin/java").getPath(),
                                "-Xmx384m",
                                "-jar",
                                jar,
                                "--server.port=0",
                                "--com.adobe.testing.s3mock.httpPort=" + port,
                                "--com.adobe.testing.s3mock.store.initialBuckets="
                                        + String.join(",", buckets))
                        .redirectErrorStream(true)
                        .redirectOutput(log)
                        .start();
        S3MockServer server = new S3MockServer(process, URI.create("http://127.0.0.1:" + port));
        try {
            server.awaitUp(log);
        } catch (Exception e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * Initializes Flink's file systems with {@link #flinkConfiguration()}, {@code s3://} served by
     * {@code flink-s3-fs-hadoop} in its own plugin class loader (it bundles its own Hadoop), and
     * points Dovetail's conditional PUTs at the same configuration.
     */
    void initializeFlinkFileSystems() throws Exception {
        Configuration configuration = flinkConfiguration();
        PluginDescriptor plugin =
                new PluginDescriptor(
                        "s3-fs-hadoop",
                        new URL[] {new File(builtJar("dovetail.s3.plugin.jar")).toURI().toURL()},
                        new String[0]);
        FileSystem.initialize(
                configuration,
                new DefaultPluginManager(
                        List.of(plugin),
                        CoreOptions.getPluginParentFirstLoaderPatterns(configuration)));
        FileIO.configureObjectStores(configuration);
    }

    /** Back to the default (local) file systems. */
    static void resetFlinkFileSystems() {
        FileSystem.initialize(new Configuration(), null);
        FileIO.configureObjectStores(new Configuration());
    }

    URI endpoint() {
        return endpoint;
    }

    /** The Flink configuration of Flink's S3 file system and of Dovetail's conditional PUTs. */
    Configuration flinkConfiguration() {
        return flinkConfiguration(endpoint);
    }

    /** The same keys with another endpoint (a proxy in front of this server). */
    static Configuration flinkConfiguration(URI endpoint) {
        return Configuration.fromMap(
                Map.of(
                        "s3.endpoint",
                        endpoint.toString(),
                        "s3.endpoint.region",
                        "us-east-1",
                        "s3.path.style.access",
                        "true",
                        "s3.access-key",
                        ACCESS_KEY,
                        "s3.secret-key",
                        SECRET_KEY));
    }

    /** Paimon's catalog options for its S3 file IO (the same key names). */
    Map<String, String> paimonOptions() {
        return Map.of(
                "s3.endpoint",
                endpoint.toString(),
                "s3.path.style.access",
                "true",
                "s3.access-key",
                ACCESS_KEY,
                "s3.secret-key",
                SECRET_KEY);
    }

    private void awaitUp(File log) throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("S3Mock exited early; see " + log);
            }
            try {
                HttpURLConnection connection =
                        (HttpURLConnection) endpoint.resolve("/").toURL().openConnection();
                connection.setConnectTimeout(1000);
                connection.getResponseCode();
                connection.disconnect();
                return;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException(
                "S3Mock did not start in " + START_TIMEOUT + "; see " + log);
    }

    private static String builtJar(String property) {
        String jar = System.getProperty(property);
        if (jar == null || !new File(jar).isFile()) {
            throw new IllegalStateException(
                    "Jar not found (system property "
                            + property
                            + " = "
                            + jar
                            + "); run the tests through Maven, which copies it to target/s3-test");
        }
        return jar;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(15, TimeUnit.SECONDS);
        }
    }
}
