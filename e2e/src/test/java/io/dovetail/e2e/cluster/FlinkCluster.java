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

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * A standalone Flink session cluster of separate JVMs on 127.0.0.1, started from Flink's Maven
 * artifacts as {@code bin/start-cluster.sh} and {@code bin/sql-gateway.sh} would start a
 * distribution: one JobManager, TaskManagers with two slots each, and the SQL Gateway. Their class
 * path is Flink's jars (the file in the system property {@code dovetail.cluster.classpath}, written
 * by the build) plus the shaded Dovetail SQL connector ({@code dovetail.cluster.connector.jar}), as
 * if it were in Flink's {@code lib/}. Ports are chosen free; configuration, logs and outputs live
 * in one directory. {@link #close} stops every process it started and fails if one survives or a
 * port stays bound.
 */
final class FlinkCluster implements AutoCloseable {

    private static final int SLOTS_PER_TASK_MANAGER = 2;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BASH_JAVA_UTILS = "bash-java-utils-";

    /** What Flink's distribution sets in {@code env.java.opts.all} for Java 17. */
    private static final List<String> MODULE_ACCESS =
            List.of(
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
                    "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private final Path dir;
    private final Path conf;
    private final String classpath;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final List<JvmProcess> started = new ArrayList<>();

    /** The JobManager, the gateway and the TaskManagers not killed on purpose. */
    private final List<JvmProcess> services = new ArrayList<>();

    private final Map<String, JvmProcess> taskManagers = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private List<String> taskManagerResources;
    private int taskManagerCount;

    private FlinkCluster(Path dir, String classpath) {
        this.dir = dir;
        this.conf = dir.resolve("conf");
        this.classpath = classpath;
    }

    /**
     * Starts the JobManager, {@code taskManagers} TaskManagers and the SQL Gateway at once (the
     * TaskManagers retry registering until the JobManager is up) and waits until all are up.
     */
    static FlinkCluster start(Path dir, int taskManagers) throws Exception {
        return start(dir, taskManagers, Map.of());
    }

    /** Like {@link #start(Path, int)}, with {@code overrides} of the cluster's configuration. */
    static FlinkCluster start(Path dir, int taskManagers, Map<String, ?> overrides)
            throws Exception {
        FlinkCluster cluster = new FlinkCluster(dir, ClusterJars.clusterClasspath());
        try {
            cluster.writeConfiguration(overrides);
            JvmProcess jobManagerResources = cluster.bashJavaUtils("GET_JM_RESOURCE_PARAMS");
            JvmProcess taskManagerResources = cluster.bashJavaUtils("GET_TM_RESOURCE_PARAMS");
            cluster.startJobManager(resourceParameters(jobManagerResources));
            cluster.taskManagerResources = resourceParameters(taskManagerResources);
            cluster.startGateway();
            for (int i = 0; i < taskManagers; i++) {
                cluster.startTaskManager();
            }
            cluster.awaitTaskManagers(taskManagers);
            cluster.await("the SQL Gateway's REST API", cluster::gatewayAnswers);
            return cluster;
        } catch (Throwable e) {
            AssertionError failure = new AssertionError("Cluster start failed\n" + cluster.tails());
            failure.addSuppressed(e);
            try {
                cluster.close();
            } catch (Throwable leak) {
                failure.addSuppressed(leak);
            }
            throw failure;
        }
    }

    URI rest() {
        return URI.create("http://127.0.0.1:" + ports.get("rest.port"));
    }

    URI gateway() {
        return URI.create("http://127.0.0.1:" + ports.get("sql-gateway.endpoint.rest.port"));
    }

    /** Starts one more TaskManager (resource id {@code tm-N}); it registers asynchronously. */
    void startTaskManager() throws Exception {
        String id = "tm-" + ++taskManagerCount;
        List<String> args = new ArrayList<>(List.of("--configDir", conf.toString()));
        args.addAll(taskManagerResources.subList(1, taskManagerResources.size()));
        args.addAll(List.of("-D", "taskmanager.resource-id=" + id));
        JvmProcess process =
                start(
                        id,
                        jvm(taskManagerResources.get(0)),
                        "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                        args);
        taskManagers.put(id, process);
        services.add(process);
    }

    /** Waits until exactly {@code count} TaskManagers are registered with the JobManager. */
    void awaitTaskManagers(int count) throws Exception {
        await(
                "the JobManager to list " + count + " TaskManagers",
                () -> rest("/taskmanagers").path("taskmanagers").size() == count);
    }

    /** Waits until a TaskManager holds slots, i.e. runs tasks of a job, and kills it (SIGKILL). */
    void killBusyTaskManager() throws Exception {
        String[] busy = new String[1];
        await(
                "a TaskManager running tasks",
                () -> {
                    for (JsonNode tm : rest("/taskmanagers").path("taskmanagers")) {
                        if (tm.path("freeSlots").asInt() < tm.path("slotsNumber").asInt()) {
                            busy[0] = tm.path("id").asText();
                            return true;
                        }
                    }
                    return false;
                });
        JvmProcess process = taskManagers.remove(busy[0]);
        services.remove(process);
        process.kill();
    }

    /** Cancels the jobs still running (a failed test's) and waits until they have ended. */
    void cancelRunningJobs() throws Exception {
        for (String job : jobs("RUNNING")) {
            http.send(
                    HttpRequest.newBuilder(rest().resolve("/jobs/" + job + "?mode=cancel"))
                            .method("PATCH", HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
        }
        await("no running job", () -> jobs("RUNNING").isEmpty() && jobs("CANCELLING").isEmpty());
    }

    /** The ids of the jobs in {@code state}. */
    List<String> jobs(String state) throws IOException, InterruptedException {
        List<String> jobs = new ArrayList<>();
        for (JsonNode job : rest("/jobs/overview").path("jobs")) {
            if (state.equals(job.path("state").asText())) {
                jobs.add(job.path("jid").asText());
            }
        }
        return jobs;
    }

    /** The TaskManagers started and not killed. */
    int taskManagers() {
        return taskManagers.size();
    }

    /**
     * {@code flink run ARGS} in its own JVM (Flink's CliFrontend with this cluster's configuration,
     * as {@code bin/flink} runs it); waits for it and returns its exit code and output.
     */
    CliRun flinkRun(Duration timeout, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(List.of(args));
        JvmProcess cli =
                start(
                        "flink-run-" + started.size(),
                        jvm("-Xmx512m -XX:TieredStopAtLevel=1"),
                        "org.apache.flink.client.cli.CliFrontend",
                        all);
        OptionalInt exit = cli.awaitExit(timeout);
        if (exit.isEmpty()) {
            cli.stop(STOP_GRACE);
            throw new AssertionError("flink run did not finish in " + timeout + "\n" + tails());
        }
        return new CliRun(exit.getAsInt(), cli.output());
    }

    /** The outcome of one {@code flink run}. */
    record CliRun(int exitCode, String output) {}

    /** A GET of the JobManager's REST API, as JSON. */
    JsonNode rest(String path) throws IOException, InterruptedException {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(rest().resolve(path)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(
                    "GET " + path + ": " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** The last lines of every cluster process's and CLI run's output and log. */
    String tails() {
        return started.stream()
                .filter(p -> !p.name().startsWith(BASH_JAVA_UTILS))
                .map(p -> p.tail(40))
                .collect(Collectors.joining("\n"));
    }

    private void writeConfiguration(Map<String, ?> overrides) throws IOException {
        Files.createDirectories(conf);
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        for (String key :
                List.of(
                        "jobmanager.rpc.port",
                        "rest.port",
                        "blob.server.port",
                        "sql-gateway.endpoint.rest.port")) {
            ports.put(key, freePort());
        }
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("jobmanager.rpc.address", "127.0.0.1");
        config.put("jobmanager.bind-host", "127.0.0.1");
        config.put("jobmanager.memory.process.size", "1024m");
        config.put("taskmanager.host", "127.0.0.1");
        config.put("taskmanager.bind-host", "127.0.0.1");
        config.put("taskmanager.numberOfTaskSlots", SLOTS_PER_TASK_MANAGER);
        config.put("taskmanager.memory.process.size", "1536m");
        config.put("taskmanager.memory.managed.size", "256m");
        config.put("rest.address", "127.0.0.1");
        config.put("rest.bind-address", "127.0.0.1");
        config.put("sql-gateway.endpoint.rest.address", "127.0.0.1");
        config.put("io.tmp.dirs", tmp.toString());
        config.put("web.tmpdir", tmp.toString());
        config.put("parallelism.default", 2);
        // a lost TaskManager is noticed within seconds, and its jobs restart
        config.put("heartbeat.interval", "1 s");
        config.put("heartbeat.timeout", "6 s");
        config.put("restart-strategy.type", "fixed-delay");
        config.put("restart-strategy.fixed-delay.attempts", 10);
        config.put("restart-strategy.fixed-delay.delay", "1 s");
        // TaskManagers started with the JobManager retry soon after it refused them
        config.put("cluster.registration.error-delay", "500 ms");
        config.putAll(ports);
        config.putAll(overrides);
        Files.writeString(
                conf.resolve("config.yaml"),
                config.entrySet().stream()
                        .map(e -> e.getKey() + ": " + e.getValue())
                        .collect(Collectors.joining("\n", "", "\n")));
        Files.writeString(
                conf.resolve("log4j.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.file.ref = FileAppender",
                        "appender.file.name = FileAppender",
                        "appender.file.type = File",
                        "appender.file.fileName = ${sys:log.file}",
                        "appender.file.layout.type = PatternLayout",
                        "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
                        ""));
    }

    private void startJobManager(List<String> resources) throws IOException {
        List<String> args = new ArrayList<>(List.of("--configDir", conf.toString()));
        args.addAll(resources.subList(1, resources.size()));
        services.add(
                start(
                        "jobmanager",
                        jvm(resources.get(0)),
                        "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                        args));
    }

    private void startGateway() throws IOException {
        services.add(
                start(
                        "sql-gateway",
                        jvm("-Xmx768m"),
                        "org.apache.flink.table.gateway.SqlGateway",
                        List.of("-Dexecution.target=remote")));
    }

    private boolean gatewayAnswers() throws IOException, InterruptedException {
        HttpRequest info = HttpRequest.newBuilder(gateway().resolve("/v3/info")).build();
        return http.send(info, HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
    }

    /** Starts Flink's {@code BashJavaUtils COMMAND}, which prints a process's memory settings. */
    private JvmProcess bashJavaUtils(String command) throws IOException {
        return start(
                BASH_JAVA_UTILS + command.toLowerCase(java.util.Locale.ROOT),
                jvm("-XX:TieredStopAtLevel=1"),
                "org.apache.flink.runtime.util.bash.BashJavaUtils",
                List.of(command, "--configDir", conf.toString()));
    }

    /**
     * The memory flags and dynamic properties a {@link #bashJavaUtils} run computed, as Flink's
     * scripts read them: element 0 the JVM flags (one string), then {@code -D key=value} program
     * arguments.
     */
    private static List<String> resourceParameters(JvmProcess utils) throws Exception {
        if (utils.awaitExit(START_TIMEOUT).orElse(-1) != 0) {
            throw new IllegalStateException(utils.name() + " failed");
        }
        String prefix = "BASH_JAVA_UTILS_EXEC_RESULT:";
        List<String> results =
                utils.output()
                        .lines()
                        .filter(l -> l.startsWith(prefix))
                        .map(l -> l.substring(prefix.length()).trim())
                        .toList();
        if (results.size() != 2) {
            throw new IllegalStateException(utils.name() + " printed " + results);
        }
        List<String> parameters = new ArrayList<>(List.of(results.get(0)));
        parameters.addAll(List.of(results.get(1).split("\\s+")));
        return parameters;
    }

    /** JVM flags: module access, logging, then {@code flags} (space separated). */
    private List<String> jvm(String... flags) {
        List<String> jvm = new ArrayList<>(MODULE_ACCESS);
        jvm.add("-Dlog4j.configurationFile=" + conf.resolve("log4j.properties").toUri());
        for (String f : flags) {
            jvm.addAll(List.of(f.trim().split("\\s+")));
        }
        return jvm;
    }

    private JvmProcess start(String name, List<String> jvm, String mainClass, List<String> args)
            throws IOException {
        JvmProcess process =
                JvmProcess.start(
                        name,
                        dir,
                        jvm,
                        classpath,
                        mainClass,
                        args,
                        Map.of("FLINK_CONF_DIR", conf.toString()));
        started.add(process);
        return process;
    }

    /**
     * Polls {@code condition} until it holds; fails after {@link #START_TIMEOUT} or as soon as a
     * cluster process (not one it killed on purpose) has exited.
     */
    void await(String what, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            for (JvmProcess p : services) {
                if (!p.isAlive()) {
                    throw new IllegalStateException(p.name() + " exited while waiting for " + what);
                }
            }
            try {
                if (condition.call()) {
                    return;
                }
            } catch (IOException notReadyYet) {
                // not listening yet, or answering 503 while it elects its leader
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("Timed out waiting for " + what);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static boolean bound(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Stops the gateway, the TaskManagers and the JobManager (SIGTERM, SIGKILL after a grace
     * period, children included), then fails if any process it started is alive or any of its ports
     * is still bound.
     */
    @Override
    public void close() throws Exception {
        List<String> leaks = new ArrayList<>();
        for (int i = started.size() - 1; i >= 0; i--) {
            JvmProcess p = started.get(i);
            for (ProcessHandle alive : p.stop(STOP_GRACE)) {
                leaks.add(p.name() + ": process " + alive.pid() + " still alive");
            }
        }
        long deadline = System.nanoTime() + STOP_GRACE.toNanos();
        while (System.nanoTime() < deadline
                && ports.values().stream().anyMatch(FlinkCluster::bound)) {
            Thread.sleep(100);
        }
        ports.forEach(
                (key, port) -> {
                    if (bound(port)) {
                        leaks.add(key + " " + port + " still bound");
                    }
                });
        if (!leaks.isEmpty()) {
            throw new AssertionError("The cluster did not stop cleanly: " + leaks + "\n" + tails());
        }
    }
}
