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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One JVM started by the cluster fixture: a Flink process or a Flink CLI run. Its stdout and stderr
 * go to {@code <name>.out}, its Flink log to {@code <name>.log}, both under the fixture's
 * directory.
 */
final class JvmProcess {

    private final String name;
    private final Process process;
    private final Path out;
    private final Path log;

    private JvmProcess(String name, Process process, Path out, Path log) {
        this.name = name;
        this.process = process;
        this.out = out;
        this.log = log;
    }

    /**
     * Starts {@code java jvmArgs mainClass args} with the Flink {@code classpath} and the
     * environment variables {@code env} added; {@code -Dlog.file} points at {@code <name>.log}.
     */
    static JvmProcess start(
            String name,
            Path dir,
            List<String> jvmArgs,
            String classpath,
            String mainClass,
            List<String> args,
            Map<String, String> env)
            throws IOException {
        Path out = dir.resolve(name + ".out");
        Path log = dir.resolve(name + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.add("-Dlog.file=" + log);
        command.add("-cp");
        command.add(classpath);
        command.add(mainClass);
        command.addAll(args);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        builder.environment().putAll(env);
        return new JvmProcess(name, builder.start(), out, log);
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the exit; returns the exit code, or empty if still running after {@code wait}. */
    OptionalInt awaitExit(Duration wait) throws InterruptedException {
        return process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS)
                ? OptionalInt.of(process.exitValue())
                : OptionalInt.empty();
    }

    /** SIGKILL, as a lost machine or the OOM killer would: no shutdown hooks run. */
    void kill() throws InterruptedException {
        handles().forEach(ProcessHandle::destroyForcibly);
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /**
     * Asks the JVM and its children to stop (SIGTERM), kills whatever still runs after {@code
     * grace}, and returns the processes alive after that (none, unless a kill failed).
     */
    List<ProcessHandle> stop(Duration grace) throws InterruptedException {
        List<ProcessHandle> started = handles();
        started.forEach(ProcessHandle::destroy);
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            started.forEach(ProcessHandle::destroyForcibly);
            process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
        }
        long deadline = System.nanoTime() + grace.toNanos();
        while (started.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return started.stream().filter(ProcessHandle::isAlive).toList();
    }

    /** The process and its descendants, children first. */
    private List<ProcessHandle> handles() {
        return Stream.concat(process.descendants(), Stream.of(process.toHandle())).toList();
    }

    /** The whole output (stdout and stderr). */
    String output() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** The last {@code lines} lines of the output and of the log, for failure reports. */
    String tail(int lines) {
        return "==== "
                + name
                + " (pid "
                + pid()
                + ", "
                + state()
                + ")\n"
                + tail(out, lines)
                + tail(log, lines);
    }

    private String state() {
        return process.isAlive() ? "alive" : "exit code " + process.exitValue();
    }

    private static String tail(Path file, int lines) {
        if (!Files.exists(file)) {
            return "";
        }
        try (Stream<String> all = Files.lines(file, StandardCharsets.UTF_8)) {
            List<String> content = all.toList();
            return "---- "
                    + file.getFileName()
                    + "\n"
                    + content.subList(Math.max(0, content.size() - lines), content.size()).stream()
                            .collect(Collectors.joining("\n", "", "\n"));
        } catch (IOException | java.io.UncheckedIOException e) {
            return "---- " + file.getFileName() + ": " + e + "\n";
        }
    }
}
