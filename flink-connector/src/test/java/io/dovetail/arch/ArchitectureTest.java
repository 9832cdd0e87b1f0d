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
package io.dovetail.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layers and rooms of the code base (docs/architecture.md). The table-format core is engine
 * independent: {@code io.dovetail.table..} may use Flink's data structures, logical types and
 * {@code org.apache.flink.core.fs}, never Flink's runtime, streaming, planner, catalog or connector
 * APIs, nor the Flink integration layer. In the Flink layer the write rooms depend one way, {@code
 * merge -> dml -> sink -> io.dovetail.table}, and no two packages of either layer depend on each
 * other in a cycle.
 */
class ArchitectureTest {

    private static final JavaClasses CORE =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("io.dovetail");

    @Test
    void coreIsNotEmpty() {
        assertThat(
                        CORE.that(
                                com.tngtech.archunit.base.DescribedPredicate.describe(
                                        "in io.dovetail.table",
                                        c -> c.getPackageName().startsWith("io.dovetail.table"))))
                .isNotEmpty();
    }

    @Test
    void coreDoesNotDependOnFlinkEngineApis() {
        ArchRule rule =
                noClasses()
                        .that()
                        .resideInAPackage("io.dovetail.table..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage(
                                "io.dovetail.flink..",
                                "org.apache.flink.runtime..",
                                "org.apache.flink.streaming..",
                                "org.apache.flink.api.connector..",
                                "org.apache.flink.connector..",
                                "org.apache.flink.table.api..",
                                "org.apache.flink.table.catalog..",
                                "org.apache.flink.table.connector..",
                                "org.apache.flink.table.factories..",
                                "org.apache.flink.table.planner..",
                                "org.apache.flink.table.procedures..",
                                "org.apache.flink.table.runtime..",
                                "org.apache.flink.client..");
        rule.check(CORE);
    }

    @Test
    void theAppendSinkKnowsNothingOfRowLevelWritesOrMerges() {
        noClasses()
                .that()
                .resideInAPackage("io.dovetail.flink.sink..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.dovetail.flink.dml..", "io.dovetail.flink.merge..")
                .check(CORE);
    }

    @Test
    void rowLevelWritesKnowNothingOfMerges() {
        noClasses()
                .that()
                .resideInAPackage("io.dovetail.flink.dml..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.dovetail.flink.merge..")
                .check(CORE);
    }

    @Test
    void theFlinkLayersPackagesHaveNoCycles() {
        slices().matching("io.dovetail.flink.(*)..").should().beFreeOfCycles().check(CORE);
    }

    @Test
    void theCoresPackagesHaveNoCycles() {
        slices().matching("io.dovetail.table.(*)..").should().beFreeOfCycles().check(CORE);
    }
}
