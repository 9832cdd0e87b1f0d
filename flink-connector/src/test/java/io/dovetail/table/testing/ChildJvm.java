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
package io.dovetail.table.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test's {@code main} run in a JVM of its own whose heap is small: for tests whose point is that
 * the code never holds what it writes. The child gets this JVM's {@code java} and class path,
 * {@code -Xmx}, the build's garbage collector (parallel) and {@code -XX:+ExitOnOutOfMemoryError};
 * its output (stdout and stderr) is the message of the assertion that fails when it exits with an
 * error or outlives its time.
 */
public final class ChildJvm {

    private ChildJvm() {}

    /**
     * Runs {@code main.main(args)} in a JVM of {@code heapMb} MB of heap and returns its output
     * once it exited with 0; fails if it did not within {@code timeout}.
     */
    public static String run(Class<?> main, int heapMb, Duration timeout, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heapMb + "m");
        command.add("-XX:+UseParallelGC");
        command.add("-XX:+ExitOnOutOfMemoryError");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        Path log = Files.createTempFile("child-jvm-", ".log");
        try {
            Process child =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
            boolean exited = child.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
            if (!exited) {
                child.destroyForcibly().waitFor();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(exited)
                    .as("the child JVM ended within %s; its output:%n%s", timeout, output)
                    .isTrue();
            assertThat(child.exitValue())
                    .as("the child JVM's exit code; its output:%n%s", output)
                    .isZero();
            return output;
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
