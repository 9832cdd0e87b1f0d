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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Stopping a started JVM also ends what ignores SIGTERM and what the JVM started itself. */
class JvmProcessTest {

    @TempDir Path dir;

    @Test
    void stopKillsAJvmThatIgnoresSigtermAndItsChildren() throws Exception {
        JvmProcess jvm =
                JvmProcess.start(
                        "stubborn",
                        dir,
                        List.of(),
                        System.getProperty("java.class.path"),
                        Stubborn.class.getName(),
                        List.of(),
                        Map.of());
        ProcessHandle self = ProcessHandle.of(jvm.pid()).orElseThrow();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (self.children().findAny().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        ProcessHandle child = self.children().findAny().orElseThrow();

        assertThat(jvm.stop(Duration.ofSeconds(2))).isEmpty();
        assertThat(jvm.isAlive()).isFalse();
        assertThat(child.isAlive()).as("the JVM's child process").isFalse();
    }

    /** Starts a child process, then blocks SIGTERM's shutdown forever. */
    public static final class Stubborn {
        public static void main(String[] args) throws Exception {
            new ProcessBuilder("sleep", "600").start();
            Runtime.getRuntime()
                    .addShutdownHook(
                            new Thread(
                                    () -> {
                                        try {
                                            Thread.sleep(Long.MAX_VALUE);
                                        } catch (InterruptedException e) {
                                            Thread.currentThread().interrupt();
                                        }
                                    }));
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
