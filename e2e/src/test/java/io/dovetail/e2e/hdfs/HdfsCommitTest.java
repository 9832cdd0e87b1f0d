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
package io.dovetail.e2e.hdfs;

import io.dovetail.table.commit.CommitRace;
import io.dovetail.table.commit.TestTable;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.fs.Writers;

import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapshot and schema files on HDFS are published by writing a hidden temporary file and renaming
 * it, and HDFS refuses a rename onto an existing file: of racing publishers of one name exactly one
 * wins, also across HDFS clients, and committers racing on one HDFS table leave exactly the model's
 * table ({@link CommitRace}).
 */
class HdfsCommitTest {

    private static final long RACE_SECONDS = Long.getLong("dovetail.hdfs.concurrency.seconds", 10);
    private static final int PUBLISHERS = 8;
    private static final int ROUNDS = 12;

    private static MiniHdfs hdfs;

    @BeforeAll
    static void startHdfs() throws Exception {
        hdfs = MiniHdfs.start();
    }

    @AfterAll
    static void stopHdfs() {
        hdfs.close();
    }

    @Test
    void aTakenNameIsNeverReplaced() {
        Path dir = hdfs.directory("/taken/snapshot");
        Path target = new Path(dir, "snapshot-1");

        assertThat(FileIO.publishIfAbsent(target, bytes("first"), Writers.CONCURRENT)).isTrue();
        assertThat(FileIO.publishIfAbsent(target, bytes("second"), Writers.CONCURRENT)).isFalse();
        Path sameViaOtherClient = hdfs.viaSecondClient(target);
        assertThat(FileIO.publishIfAbsent(sameViaOtherClient, bytes("third"), Writers.CONCURRENT))
                .isFalse();

        assertThat(FileIO.readFully(target, "the test")).isEqualTo(bytes("first"));
        assertThat(FileIO.listNames(dir)).as("no temporary files").containsExactly("snapshot-1");
    }

    @Test
    void ofRacingPublishersOnTwoClientsExactlyOneWinsWithItsBytes() throws Exception {
        Path dir = hdfs.directory("/race/schema");
        ExecutorService pool = Executors.newFixedThreadPool(PUBLISHERS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                Path target = new Path(dir, "schema-" + round);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Boolean>> results = new ArrayList<>();
                for (int p = 0; p < PUBLISHERS; p++) {
                    Path name = p % 2 == 0 ? target : hdfs.viaSecondClient(target);
                    byte[] content = bytes(("publisher " + p + " ").repeat(300));
                    Callable<Boolean> publish =
                            () -> {
                                start.await();
                                return FileIO.publishIfAbsent(name, content, Writers.CONCURRENT);
                            };
                    results.add(pool.submit(publish));
                }
                start.countDown();
                List<Integer> winners = new ArrayList<>();
                for (int p = 0; p < PUBLISHERS; p++) {
                    if (results.get(p).get()) {
                        winners.add(p);
                    }
                }
                assertThat(winners).as("winners of round %d", round).hasSize(1);
                assertThat(FileIO.readFully(target, "the test"))
                        .isEqualTo(bytes(("publisher " + winners.get(0) + " ").repeat(300)));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(FileIO.listNames(dir))
                .as("only the published names: every temporary file was removed")
                .hasSize(ROUNDS)
                .allMatch(name -> name.startsWith("schema-"));
    }

    @Test
    void racingCommittersOnHdfsMatchTheModel() throws Exception {
        TestTable table = new TestTable(hdfs.directory("/commits/t"), true);
        new CommitRace(table).runAndVerify(6, RACE_SECONDS * 1000);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
