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
package io.dovetail.table.fs;

import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class AtomicPublishTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void publishesOnceOnPathWithoutScheme() throws Exception {
        Path target = new Path(dir.toString(), "sub/snapshot-1");

        assertThat(FileIO.publishIfAbsent(target, bytes("first"), Writers.CONCURRENT)).isTrue();
        assertThat(FileIO.publishIfAbsent(target, bytes("second"), Writers.CONCURRENT)).isFalse();

        assertThat(Files.readString(dir.resolve("sub/snapshot-1"))).isEqualTo("first");
        assertThat(names(dir.resolve("sub"))).containsExactly("snapshot-1");
    }

    @Test
    void publishesOnceOnFileSchemePaths() throws Exception {
        Path single = new Path("file:" + dir + "/a");
        Path triple = new Path(dir.toUri().toString() + "a");

        assertThat(FileIO.publishIfAbsent(single, bytes("x"), Writers.CONCURRENT)).isTrue();
        assertThat(FileIO.publishIfAbsent(triple, bytes("y"), Writers.CONCURRENT)).isFalse();

        assertThat(Files.readString(dir.resolve("a"))).isEqualTo("x");
    }

    @Test
    void exactlyOneOfManyRacingWritersWinsWithIntactContent() throws Exception {
        int threads = 12;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 40; round++) {
                Path target = new Path(dir.toString(), "schema-" + round);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Boolean>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    byte[] content = bytes(("writer " + t + " ").repeat(200));
                    Callable<Boolean> publish =
                            () -> {
                                start.await();
                                return FileIO.publishIfAbsent(target, content, Writers.CONCURRENT);
                            };
                    results.add(pool.submit(publish));
                }
                start.countDown();
                int winner = -1;
                for (int t = 0; t < threads; t++) {
                    if (results.get(t).get()) {
                        assertThat(winner).as("second winner in round %d", round).isEqualTo(-1);
                        winner = t;
                    }
                }
                assertThat(winner).as("winner of round %d", round).isNotEqualTo(-1);
                assertThat(Files.readString(dir.resolve("schema-" + round)))
                        .isEqualTo(("writer " + winner + " ").repeat(200));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(names(dir)).hasSize(40).allMatch(name -> name.startsWith("schema-"));
    }

    @Test
    void hintOverwritesAtomicallyAndLeavesNoTempFiles() throws Exception {
        Path hint = new Path(dir.toString(), "snapshot/LATEST");
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                String value = Integer.toString(t + 1).repeat(t + 1);
                futures.add(
                        pool.submit(
                                () -> {
                                    for (int i = 0; i < 100; i++) {
                                        FileIO.overwriteHint(hint, bytes(value));
                                        String read =
                                                new String(
                                                        FileIO.readFully(hint, "test"),
                                                        StandardCharsets.UTF_8);
                                        assertThat(read).matches("(\\d)\\1*");
                                        assertThat(read.length())
                                                .isEqualTo(Character.digit(read.charAt(0), 10));
                                    }
                                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(names(dir.resolve("snapshot"))).containsExactly("LATEST");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> names(java.nio.file.Path directory) throws Exception {
        try (Stream<java.nio.file.Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
