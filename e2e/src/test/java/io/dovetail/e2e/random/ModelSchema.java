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
package io.dovetail.e2e.random;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The model's schema: columns in order, each with its field id for life (as Paimon keeps them), the
 * key column {@value #KEY} (unique, never updated: it finds the row ids new rows got) and, in a
 * partitioned table, the partition column {@value #PARTITION}.
 */
record ModelSchema(List<Field> columns, boolean partitioned, int highestFieldId) {

    static final String KEY = "k";
    static final String PARTITION = "p";

    ModelSchema {
        columns = List.copyOf(columns);
    }

    /** {@code k BIGINT, i INT, s STRING, sm SMALLINT, nest ROW<a INT, b STRING>[, p STRING]}. */
    static ModelSchema initial(boolean partitioned) {
        List<Field> columns = new ArrayList<>();
        columns.add(new Field(0, KEY, ModelType.Scalar.BIGINT));
        columns.add(new Field(1, "i", ModelType.Scalar.INT));
        columns.add(new Field(2, "s", ModelType.Scalar.STRING));
        columns.add(new Field(3, "sm", ModelType.Scalar.SMALLINT));
        columns.add(
                new Field(
                        4,
                        "nest",
                        new ModelType.RowOf(
                                List.of(
                                        new Field(5, "a", ModelType.Scalar.INT),
                                        new Field(6, "b", ModelType.Scalar.STRING)))));
        if (partitioned) {
            columns.add(new Field(7, PARTITION, ModelType.Scalar.STRING));
        }
        return new ModelSchema(columns, partitioned, 7);
    }

    Field column(String name) {
        return columns.stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
    }

    Field key() {
        return column(KEY);
    }

    Field partition() {
        return partitioned ? column(PARTITION) : null;
    }

    /** Columns an UPDATE or merge may assign: neither the key nor the partition column. */
    List<Field> assignable() {
        return columns.stream()
                .filter(f -> !f.name().equals(KEY) && !(partitioned && f.name().equals(PARTITION)))
                .toList();
    }

    List<String> names() {
        return columns.stream().map(Field::name).toList();
    }

    /** The column list of CREATE TABLE. */
    String ddl() {
        return columns.stream()
                .map(f -> Sql.name(f.name()) + " " + f.type().sql())
                .collect(Collectors.joining(", "));
    }

    /** Adds {@code column} (ids already assigned) after {@code after}, first if null and first. */
    ModelSchema add(Field column, String after, boolean first, int newHighest) {
        List<Field> out = new ArrayList<>(columns);
        if (first) {
            out.add(0, column);
        } else if (after != null) {
            out.add(out.indexOf(column(after)) + 1, column);
        } else {
            out.add(column);
        }
        return new ModelSchema(out, partitioned, newHighest);
    }

    ModelSchema rename(String from, String to) {
        return replace(from, column(from).renamed(to), highestFieldId);
    }

    ModelSchema drop(String name) {
        List<Field> out = new ArrayList<>(columns);
        out.remove(column(name));
        return new ModelSchema(out, partitioned, highestFieldId);
    }

    ModelSchema retype(String name, ModelType type, int newHighest) {
        return replace(name, column(name).retyped(type), newHighest);
    }

    private ModelSchema replace(String name, Field replacement, int newHighest) {
        List<Field> out = new ArrayList<>(columns);
        out.set(out.indexOf(column(name)), replacement);
        return new ModelSchema(out, partitioned, newHighest);
    }
}
