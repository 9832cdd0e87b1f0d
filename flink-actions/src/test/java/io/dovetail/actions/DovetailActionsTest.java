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
package io.dovetail.actions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class DovetailActionsTest {

    @TempDir Path dir;

    static Stream<Arguments> badCommandLines() {
        return Stream.of(
                Arguments.of(new String[] {}, "No action given."),
                Arguments.of(new String[] {"frobnicate"}, "Unknown action 'frobnicate'."),
                Arguments.of(new String[] {"inspect"}, "inspect needs either --table-path DIR"),
                Arguments.of(
                        new String[] {"inspect", "--table-path"},
                        "Option --table-path needs a value."),
                Arguments.of(
                        new String[] {"inspect", "--table-path", "t", "--snapshot", "--table"},
                        "Option --snapshot needs a value."),
                Arguments.of(
                        new String[] {"inspect", "--table-path", "t", "--table-path", "u"},
                        "Option --table-path is given more than once."),
                Arguments.of(
                        new String[] {"inspect", "--table-path", "t", "--warehouse", "w"},
                        "inspect needs either --table-path DIR"),
                Arguments.of(
                        new String[] {"inspect", "--warehouse", "w", "--table", "t"},
                        "inspect needs option --database."),
                Arguments.of(
                        new String[] {
                            "inspect", "--warehouse", "w", "--database", "..", "--table", "t"
                        },
                        "'..'"),
                Arguments.of(
                        new String[] {"inspect", "--table-path", "t", "--snapshot", "latest"},
                        "Option --snapshot must be a positive integer, got 'latest'."),
                Arguments.of(
                        new String[] {"inspect", "--table-path", "t", "--snapshot", "0"},
                        "Option --snapshot must be a positive integer, got '0'."),
                Arguments.of(
                        new String[] {"inspect", "--path", "t"},
                        "Unknown option '--path' for inspect; it accepts --database,"
                                + " --snapshot, --table, --table-path, --warehouse."),
                Arguments.of(new String[] {"inspect", "t"}, "Unexpected argument 't' for inspect"),
                Arguments.of(
                        new String[] {"quickstart", "--table", "t"},
                        "Unknown option '--table' for quickstart; it accepts --warehouse."));
    }

    @ParameterizedTest
    @MethodSource("badCommandLines")
    void badCommandLineIsAUsageErrorWithExitCode2(String[] args, String message) {
        ActionRun run = ActionRun.of(args);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .startsWith("Error: ")
                .contains(message)
                .contains("Usage: flink run dovetail-flink-actions.jar ACTION [OPTIONS]")
                .doesNotContain("Exception");
    }

    @Test
    void helpPrintsTheUsageOnStandardOutput() {
        ActionRun run = ActionRun.of("help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains(QuickstartAction.USAGE, InspectAction.USAGE);
        assertThat(run.err()).isEmpty();
    }

    @Test
    void directoryWithoutTableIsAnErrorWithExitCode1AndNoStackTrace() {
        ActionRun run = ActionRun.of("inspect", "--table-path", dir.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err())
                .startsWith("Error: No table at ")
                .contains("no schema files")
                .doesNotContain("Usage:", "Exception", "\tat ");
    }
}
