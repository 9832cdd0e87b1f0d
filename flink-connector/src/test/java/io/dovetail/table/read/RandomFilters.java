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
package io.dovetail.table.read;

import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.types.DataField;

import org.apache.flink.table.data.StringData;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * Random filters over the columns of a {@link RandomLayout} and {@code _ROW_ID}; {@link
 * io.dovetail.table.testing.FilterEvaluation} is the oracle the planner's pruning is checked
 * against.
 */
final class RandomFilters {

    private RandomFilters() {}

    /**
     * A random filter; {@code sample} gives a random stored value of a column (internal
     * representation, possibly null) so that literals often hit existing values.
     */
    static Predicate random(
            List<DataField> columns,
            long nextRowId,
            Function<DataField, Object> sample,
            Random random,
            int depth) {
        int kind = random.nextInt(depth > 0 ? 10 : 7);
        if (kind >= 7) {
            Predicate a = random(columns, nextRowId, sample, random, depth - 1);
            if (kind == 9) {
                return Predicate.not(a);
            }
            Predicate b = random(columns, nextRowId, sample, random, depth - 1);
            return kind == 7 ? Predicate.and(a, b) : Predicate.or(a, b);
        }
        DataField field =
                random.nextInt(6) == 0
                        ? SystemFields.ROW_ID
                        : columns.get(random.nextInt(columns.size()));
        switch (kind) {
            case 0:
                return random.nextBoolean() ? Predicate.isNull(field) : Predicate.isNotNull(field);
            case 1:
                List<Object> values = new ArrayList<>();
                int count = 1 + random.nextInt(3);
                for (int i = 0; i < count; i++) {
                    values.add(
                            random.nextInt(8) == 0
                                    ? null
                                    : literal(field, nextRowId, sample, random));
                }
                return new Predicate.In(field, values);
            default:
                Predicate.Op op = Predicate.Op.values()[random.nextInt(6)];
                return new Predicate.Compare(field, op, literal(field, nextRowId, sample, random));
        }
    }

    private static Object literal(
            DataField field, long nextRowId, Function<DataField, Object> sample, Random random) {
        if (field.equals(SystemFields.ROW_ID)) {
            return (long) random.nextInt((int) nextRowId + 2) - 1;
        }
        Object value = random.nextInt(3) == 0 ? null : sample.apply(field);
        if (value != null) {
            return value;
        }
        switch (field.type().root()) {
            case INT:
                return random.nextInt(2001) - 1000;
            case BIGINT:
                return (long) random.nextInt(2001) - 1000;
            case DOUBLE:
                switch (random.nextInt(6)) {
                    case 0:
                        return Double.NaN;
                    case 1:
                        return -0.0;
                    case 2:
                        return 0.0;
                    default:
                        return Math.round(random.nextDouble() * 20000 - 10000) / 8.0;
                }
            default:
                return StringData.fromString("s" + random.nextInt(1000));
        }
    }
}
