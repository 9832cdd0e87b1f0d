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

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;

/**
 * What a scenario's table must hold: rows {@code (id, name, score, dt)} by id, rendered like the
 * Paimon-side and gateway reads. Inserted rows follow {@link #INSERTED}: name {@code n<id>}, score
 * {@code id}, partition {@code a} for even ids and {@code b} for odd ones.
 */
final class TableModel {

    /** The columns of every scenario table. */
    static final String COLUMNS = "id BIGINT, name STRING, score BIGINT, dt STRING";

    /** The SQL values of an inserted row, over a BIGINT column {@code id}. */
    static final String INSERTED =
            "id, CONCAT('n', CAST(id AS STRING)), id, IF(MOD(id, 2) = 0, 'a', 'b')";

    private final Map<Long, Row> rows = new TreeMap<>();

    /** Rows {@code first..last} inserted with {@link #INSERTED}. */
    TableModel insert(long first, long last) {
        for (long id = first; id <= last; id++) {
            rows.put(id, new Row(id, "n" + id, id, id % 2 == 0 ? "a" : "b"));
        }
        return this;
    }

    void put(long id, String name, long score, String dt) {
        rows.put(id, new Row(id, name, score, dt));
    }

    /** New scores for the rows {@code which} selects. */
    void updateScores(Predicate<Row> which, ToLongFunction<Row> score) {
        rows.replaceAll(
                (id, r) -> which.test(r) ? new Row(id, r.name(), score.applyAsLong(r), r.dt()) : r);
    }

    /** New names for the rows {@code which} selects. */
    void rename(Predicate<Row> which, UnaryOperator<String> name) {
        rows.replaceAll(
                (id, r) ->
                        which.test(r) ? new Row(id, name.apply(r.name()), r.score(), r.dt()) : r);
    }

    /** The rows rendered {@code id=.., name=.., score=.., dt=..}, sorted. */
    List<String> rendered() {
        return rows.values().stream().map(Row::render).sorted().toList();
    }

    /** One row of a scenario table. */
    record Row(long id, String name, long score, String dt) {
        String render() {
            return "id=" + id + ", name=" + name + ", score=" + score + ", dt=" + dt;
        }
    }
}
