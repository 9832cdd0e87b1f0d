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
package io.dovetail.e2e.paimon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

class PaimonWorkbenchSmokeTest {

    @TempDir Path warehouse;

    @Test
    void paimonWritesDataEvolutionTable() throws Exception {
        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            PaimonScenarios.evolvedPartitionedTable(paimon, "t");
            paimon.readRowsWithRowTracking("t").forEach(System.out::println);
            try (Stream<Path> s = Files.walk(warehouse)) {
                s.filter(p -> p.toString().contains("=")).forEach(System.out::println);
            }
            System.out.println(Files.readString(warehouse.resolve("default.db/t/schema/schema-6")));
        }
    }
}
