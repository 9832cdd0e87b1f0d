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
package io.dovetail.flink.memory;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class TupleSortTest {

    private static final TupleTypeInfo<Tuple3<Integer, String, Long>> TYPE =
            new TupleTypeInfo<>(Types.INT, Types.STRING, Types.LONG);

    /**
     * Orders by every field given, in turn, through spills: 200,000 rows of a few runs and keys
     * sharing long prefixes, in 2 MB of managed memory.
     */
    @Test
    void sortsByEveryFieldAndSpillsBeyondItsMemory() throws Exception {
        Random random = new Random(7);
        List<Tuple3<Integer, String, Long>> rows = new ArrayList<>();
        for (long i = 0; i < 200_000; i++) {
            rows.add(
                    Tuple3.of(
                            random.nextInt(3),
                            "key-with-a-long-common-prefix-" + random.nextInt(50),
                            i));
        }
        Collections.shuffle(rows, random);

        List<Tuple3<Integer, String, Long>> sorted = sort(rows, 0, 1, 2);

        List<Tuple3<Integer, String, Long>> expected = new ArrayList<>(rows);
        expected.sort(
                Comparator.<Tuple3<Integer, String, Long>, Integer>comparing(r -> r.f0)
                        .thenComparing(r -> r.f1)
                        .thenComparing(r -> r.f2));
        assertThat(sorted).isEqualTo(expected);
    }

    @Test
    void ordersOnlyByTheFieldsGiven() throws Exception {
        List<Tuple3<Integer, String, Long>> rows =
                List.of(Tuple3.of(2, "a", 1L), Tuple3.of(1, "b", 2L), Tuple3.of(1, "a", 3L));
        assertThat(sort(rows, 2, 0)).containsExactlyElementsOf(rows);
        assertThat(sort(rows, 0, 1)).containsExactly(rows.get(2), rows.get(1), rows.get(0));
    }

    private static List<Tuple3<Integer, String, Long>> sort(
            List<Tuple3<Integer, String, Long>> rows, int... fields) throws Exception {
        MockEnvironment environment =
                new MockEnvironmentBuilder().setManagedMemorySize(2 << 20).build();
        try (OneInputStreamOperatorTestHarness<
                        Tuple3<Integer, String, Long>, Tuple3<Integer, String, Long>>
                harness =
                        new OneInputStreamOperatorTestHarness<>(
                                new TupleSort<>(TYPE, fields),
                                TYPE.createSerializer(new ExecutionConfig().getSerializerConfig()),
                                environment)) {
            harness.getStreamConfig()
                    .setManagedMemoryFractionOperatorOfUseCase(ManagedMemoryUseCase.OPERATOR, 1.0);
            harness.open();
            for (Tuple3<Integer, String, Long> row : rows) {
                harness.processElement(new StreamRecord<>(row));
            }
            harness.endInput();
            List<Tuple3<Integer, String, Long>> out = new ArrayList<>();
            for (Object record : harness.getOutput()) {
                @SuppressWarnings("unchecked")
                StreamRecord<Tuple3<Integer, String, Long>> r =
                        (StreamRecord<Tuple3<Integer, String, Long>>) record;
                out.add(r.getValue());
            }
            return out;
        } finally {
            environment.close();
        }
    }
}
