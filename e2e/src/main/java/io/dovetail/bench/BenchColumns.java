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

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The columns of the SQL benchmark's tables: {@code id BIGINT}, then {@code c1..c(M-1)} of types
 * DOUBLE, BIGINT and STRING in turn, each a deterministic function of {@code id} (as in {@link
 * BenchTable}). DOUBLE values are multiples of 0.5 far below 2^52, so their sums are exact in any
 * summation order and the engines' aggregates can be compared for equality.
 */
final class BenchColumns {

    /** A {@code rows-per-second} no run comes near: datagen throttles to 10,000 by default. */
    private static final long UNTHROTTLED = 1_000_000_000L;

    private final List<String> names = new ArrayList<>();
    private final List<String> types = new ArrayList<>();
    private final List<String> generators = new ArrayList<>();

    BenchColumns(int cols) {
        if (cols < 2) {
            throw new IllegalArgumentException("--cols must be at least 2, got " + cols);
        }
        add("id", "BIGINT", null);
        for (int c = 1; c < cols; c++) {
            switch (c % 3) {
                case 0:
                    add(
                            "c" + c,
                            "STRING",
                            "CONCAT('value-', CAST(MOD(id * 31 + " + c + ", 100000) AS STRING))");
                    break;
                case 1:
                    add("c" + c, "DOUBLE", "CAST(id AS DOUBLE) * 0.5 + " + c);
                    break;
                default:
                    add("c" + c, "BIGINT", "id * " + c);
            }
        }
    }

    private void add(String name, String type, String generator) {
        names.add(name);
        types.add(type);
        generators.add(generator);
    }

    /** {@code id BIGINT, c1 DOUBLE, ...}: the column list of a CREATE TABLE. */
    String schema() {
        StringJoiner out = new StringJoiner(", ");
        for (int c = 0; c < names.size(); c++) {
            out.add(names.get(c) + " " + types.get(c));
        }
        return out.toString();
    }

    /** {@code id, c1, ...}. */
    String names() {
        return String.join(", ", names);
    }

    /**
     * A bounded {@code datagen} table of ids {@code 0..rows-1} (a sequence split among the source
     * subtasks, unthrottled; batch mode wants {@code number-of-rows} as well) whose other columns
     * are computed from the id.
     */
    String generatorTable(String name, long rows) {
        StringJoiner columns = new StringJoiner(", ");
        columns.add("id BIGINT");
        for (int c = 1; c < names.size(); c++) {
            columns.add(names.get(c) + " AS " + generators.get(c));
        }
        return "CREATE TEMPORARY TABLE "
                + name
                + " ("
                + columns
                + ") WITH ('connector' = 'datagen', 'rows-per-second' = '"
                + UNTHROTTLED
                + "', 'number-of-rows' = '"
                + rows
                + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0',"
                + " 'fields.id.end' = '"
                + (rows - 1)
                + "')";
    }

    /**
     * {@code COUNT(*)}, then the sum of every column in order (of the character lengths for
     * strings).
     */
    String aggregates() {
        StringJoiner out = new StringJoiner(", ");
        out.add("COUNT(*)");
        for (int c = 0; c < names.size(); c++) {
            out.add(
                    types.get(c).equals("STRING")
                            ? "SUM(CAST(CHAR_LENGTH(" + names.get(c) + ") AS BIGINT))"
                            : "SUM(" + names.get(c) + ")");
        }
        return out.toString();
    }

    /** The position of column {@code name}'s sum in the row of {@link #aggregates()}. */
    int aggregateOf(String name) {
        int index = names.indexOf(name);
        if (index < 0) {
            throw new IllegalArgumentException("no column " + name);
        }
        return index + 1;
    }
}
