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
import java.util.Random;

/**
 * The table a sequence works on: file format, partitioned or not, deletion vectors on or off, and a
 * small {@code target-file-row-num} so that inserts roll files and make many row-range groups.
 */
record TableConfig(String format, boolean partitioned, boolean deletionVectors, int fileRows) {

    static TableConfig random(Random random) {
        return new TableConfig(
                random.nextBoolean() ? "parquet" : "orc",
                random.nextBoolean(),
                random.nextBoolean(),
                new int[] {40, 150, 600, 5000}[random.nextInt(4)]);
    }

    /** Paimon 1.4.2 opens no table with deletion vectors. */
    boolean paimonReadable() {
        return !deletionVectors;
    }

    String createTable(String table, ModelSchema schema) {
        List<String> options = new ArrayList<>();
        options.add("'file.format' = '" + format + "'");
        options.add("'target-file-row-num' = '" + fileRows + "'");
        if (deletionVectors) {
            options.add("'deletion-vectors.enabled' = 'true'");
        }
        return "CREATE TABLE "
                + Sql.name(table)
                + " ("
                + schema.ddl()
                + ")"
                + (partitioned ? " PARTITIONED BY (" + Sql.name(ModelSchema.PARTITION) + ")" : "")
                + " WITH ("
                + String.join(", ", options)
                + ")";
    }

    @Override
    public String toString() {
        return format
                + (partitioned ? ", partitioned" : ", unpartitioned")
                + (deletionVectors ? ", deletion vectors" : ", no deletion vectors")
                + ", target-file-row-num "
                + fileRows;
    }
}
