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
package io.dovetail.packaging;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.dovetail.packaging.RepositoryFiles.map;
import static io.dovetail.packaging.RepositoryFiles.read;
import static io.dovetail.packaging.RepositoryFiles.yaml;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The GitHub workflow, parsed as YAML: it runs on pushes and pull requests, verifies on JDK 17 and
 * 21 through {@code .ci/run} (the README's test command), pins every action, uploads jars that the
 * modules of the build produce, and has a docker job that builds the quick-start image and runs the
 * Docker quick start test (which the JDK matrix skips).
 */
class CiWorkflowTest {

    private static final String TEST_COMMAND = "./mvnw -B -ntp verify";
    private static final String QUICKSTART = "bin/dovetail-sql -f examples/quickstart.sql";
    private static final String DOCKER_TEST = "io.dovetail.e2e.docker.DockerQuickstartTest";
    private static final String DOCKER_TEST_SKIP = "DOVETAIL_DOCKER_QUICKSTART";
    private static final Pattern UPLOADED_JAR =
            Pattern.compile("([\\w-]+)/target/([\\w.-]+)-\\*\\.jar");

    private static Map<String, Object> workflow;

    @BeforeAll
    static void parse() throws IOException {
        workflow = yaml(".github/workflows/ci.yml");
    }

    @Test
    void runsOnPushesAndPullRequests() {
        assertThat(map(workflow.get("on"))).containsKeys("push", "pull_request");
    }

    @Test
    void verifiesOnJdk17And21ThroughCiRun() throws IOException {
        Map<String, Object> verify = map(map(workflow.get("jobs")).get("verify"));
        assertThat(verify.get("runs-on")).isEqualTo("ubuntu-latest");
        assertThat((Integer) verify.get("timeout-minutes")).isBetween(1, 90);
        assertThat(map(map(verify.get("strategy")).get("matrix")).get("java"))
                .isEqualTo(List.of("17", "21"));

        List<Map<String, Object>> steps = steps(verify);
        assertThat(steps)
                .anySatisfy(
                        step -> {
                            assertThat(step.get("uses")).isEqualTo("actions/setup-java@v4");
                            assertThat(map(step.get("with")))
                                    .containsEntry("java-version", "${{ matrix.java }}");
                        });
        assertThat(steps)
                .filteredOn(step -> step.containsKey("run"))
                .extracting(step -> step.get("run"))
                .containsExactly("bash .ci/run");
        assertThat(read(".ci/run").lines()).last().isEqualTo(TEST_COMMAND);
        assertThat(read("README.md")).contains("```bash\n" + TEST_COMMAND + "\n```");
        assertThat(read("README.md")).contains("\n" + QUICKSTART + "\n");
        List<String> run = read(".ci/run").lines().toList();
        int quickstart =
                indexOf(
                        run,
                        line ->
                                line.startsWith("bin/dovetail-sql ")
                                        && line.contains("-f examples/quickstart.sql"));
        assertThat(quickstart).as("the quickstart command in .ci/run").isNotNegative();
        assertThat(indexOf(run, line -> line.equals("rm -rf \"$HOME/.m2/repository/io/dovetail\"")))
                .as("the project's artifacts are removed from the local Maven repository first")
                .isBetween(0, quickstart - 1);
    }

    private static int indexOf(List<String> lines, Predicate<String> matches) {
        for (int i = 0; i < lines.size(); i++) {
            if (matches.test(lines.get(i))) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void dockerJobBuildsTheQuickstartImageAndRunsTheDockerTest() throws IOException {
        Map<String, Object> docker = map(map(workflow.get("jobs")).get("docker"));
        assertThat(docker.get("runs-on")).isEqualTo("ubuntu-latest");
        assertThat((Integer) docker.get("timeout-minutes")).isBetween(1, 90);
        assertThat(docker).doesNotContainKey("env");

        String testClass = DOCKER_TEST.substring(DOCKER_TEST.lastIndexOf('.') + 1);
        assertThat(steps(docker))
                .filteredOn(step -> step.containsKey("run"))
                .extracting(step -> step.get("run"))
                .containsExactly(
                        "docker compose -f docker/docker-compose.yml build",
                        "./mvnw -B -ntp -pl e2e -am verify -Dtest="
                                + testClass
                                + " -Dsurefire.failIfNoSpecifiedTests=false",
                        "grep -q 'skipped=\"0\" failures=\"0\"'"
                                + " e2e/target/surefire-reports/TEST-"
                                + DOCKER_TEST
                                + ".xml");
        assertThat(read("e2e/src/test/java/" + DOCKER_TEST.replace('.', '/') + ".java"))
                .contains("\"" + DOCKER_TEST_SKIP + "\"");
        assertThat(map(map(map(workflow.get("jobs")).get("verify")).get("env")))
                .containsExactly(Map.entry(DOCKER_TEST_SKIP, "skip"));
    }

    @Test
    void pinsEveryActionToAMajorVersion() {
        map(workflow.get("jobs"))
                .values()
                .forEach(
                        job ->
                                steps(map(job)).stream()
                                        .filter(step -> step.containsKey("uses"))
                                        .forEach(
                                                step ->
                                                        assertThat((String) step.get("uses"))
                                                                .matches("[\\w-]+/[\\w-]+@v\\d+")));
    }

    @Test
    void uploadsJarsThatModulesOfTheBuildProduce() throws IOException {
        Map<String, Object> upload =
                steps(map(map(workflow.get("jobs")).get("verify"))).stream()
                        .filter(step -> "actions/upload-artifact@v4".equals(step.get("uses")))
                        .findFirst()
                        .orElseThrow();
        Map<String, Object> with = map(upload.get("with"));
        assertThat(with).containsEntry("if-no-files-found", "error");

        String modules = read("pom.xml");
        List<String> uploaded = new ArrayList<>();
        for (String path : ((String) with.get("path")).strip().split("\n")) {
            if (path.startsWith("!")) {
                continue;
            }
            Matcher jar = UPLOADED_JAR.matcher(path);
            assertThat(jar.matches()).as(path).isTrue();
            assertThat(modules).contains("<module>" + jar.group(1) + "</module>");
            assertThat(read(jar.group(1) + "/pom.xml"))
                    .contains("<artifactId>" + jar.group(2) + "</artifactId>");
            uploaded.add(jar.group(2));
        }
        assertThat(uploaded)
                .containsExactly(
                        "dovetail-flink-connector",
                        "dovetail-flink-sql-connector",
                        "dovetail-flink-actions");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> steps(Map<String, Object> job) {
        return (List<Map<String, Object>>) job.get("steps");
    }
}
