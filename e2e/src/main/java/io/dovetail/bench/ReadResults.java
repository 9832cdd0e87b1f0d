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
package io.dovetail.bench;

import org.apache.flink.types.Row;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The aggregate rows of one read round, checked against each other and against earlier rounds:
 * Dovetail and Paimon read the same updated table and must agree exactly; the floor reads the base
 * files, so it must agree on every aggregate but the updated column's sum, which is {@code rows}
 * smaller (the update added 1 to every row).
 */
final class ReadResults {

    private final int updatedSum;
    private final long rows;
    private final Map<String, Row> round = new HashMap<>();
    private Row first;

    ReadResults(int updatedSum, long rows) {
        this.updatedSum = updatedSum;
        this.rows = rows;
    }

    void add(String engine, Row result) {
        round.put(engine, result);
    }

    /** Checks the round's results, then forgets them. */
    void check() {
        Row dovetail = round.get(SqlBenchmark.DOVETAIL);
        Row paimon = round.get(SqlBenchmark.PAIMON);
        Row floor = round.get(SqlBenchmark.FLINK_PARQUET);
        if (!dovetail.equals(paimon)) {
            throw new ResultMismatch("dovetail read " + dovetail + ", paimon " + paimon);
        }
        if (first != null && !first.equals(dovetail)) {
            throw new ResultMismatch("dovetail read " + dovetail + ", earlier " + first);
        }
        for (int i = 0; i < dovetail.getArity(); i++) {
            Object expected =
                    i == updatedSum
                            ? (Object) ((Double) dovetail.getField(i) - rows)
                            : dovetail.getField(i);
            if (!Objects.equals(expected, floor.getField(i))) {
                throw new ResultMismatch(
                        "flink-parquet read "
                                + floor
                                + " over the base files; dovetail "
                                + dovetail);
            }
        }
        first = dovetail;
        round.clear();
    }
}
