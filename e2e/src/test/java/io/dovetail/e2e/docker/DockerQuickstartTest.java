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
package io.dovetail.e2e.docker;

import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ComposeContainer;
import org.testcontainers.containers.ContainerState;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Docker quick start end to end, as a user runs it: {@code docker/docker-compose.yml} builds
 * the image from this repository (the official Flink 2.3 image plus the shaded connector), starts
 * the JobManager and TaskManager, and its {@code sql-client} service runs {@code
 * docker/quickstart.sql} on that cluster; the rows the SQL client prints are checked exactly.
 *
 * <p>Needs a Docker daemon and the local Docker Compose v2 ({@code docker compose}, which
 * Testcontainers runs with the compose file's directory as project directory); where no daemon is
 * reachable the test is skipped, saying so. CI runs it in the workflow's {@code docker} job and
 * skips it in the JDK matrix ({@code DOVETAIL_DOCKER_QUICKSTART=skip}), which would only repeat it.
 */
class DockerQuickstartTest {

    private static final File COMPOSE_FILE =
            Path.of("").toAbsolutePath().resolveSibling("docker/docker-compose.yml").toFile();
    private static final Duration CLIENT_TIMEOUT = Duration.ofMinutes(10);
    private static final String SKIP_VARIABLE = "DOVETAIL_DOCKER_QUICKSTART";

    /**
     * The SQL client's table for the quick start's last statement, the SELECT with _ROW_ID, from
     * its top border to the row count: these four rows and no other.
     */
    private static final String ROWS =
            String.join(
                    "\n",
                    "+---------+----+----------------------+-------------+",
                    "| _ROW_ID | id |              caption | caption_len |",
                    "+---------+----+----------------------+-------------+",
                    "|       0 |  1 |        a red bicycle |          13 |",
                    "|       1 |  2 |   two cats on a sofa |          18 |",
                    "|       2 |  3 |      a bowl of ramen |          15 |",
                    "|       3 |  4 | a lighthouse at dusk |          20 |",
                    "+---------+----+----------------------+-------------+",
                    "4 rows in set");

    @Test
    void quickstartPrintsTheBackfilledRowsWithTheirRowIds() throws InterruptedException {
        assumeFalse(
                "skip".equals(System.getenv(SKIP_VARIABLE)),
                SKIP_VARIABLE
                        + "=skip: the Docker quick start test is skipped (CI runs it in its"
                        + " docker job)");
        assumeTrue(
                DockerClientFactory.instance().isDockerAvailable(),
                "No Docker daemon is reachable: the Docker quick start test is skipped");
        // Naming sql-client starts it although its profile is off, as `docker compose run` does;
        // compose starts it once the JobManager is healthy (a TaskManager has registered).
        try (ComposeContainer compose =
                new ComposeContainer("dovetail-quickstart-", COMPOSE_FILE)
                        .withBuild(true)
                        .withPull(false)
                        .withServices("jobmanager", "taskmanager", "sql-client")) {
            compose.start();
            ContainerState client = compose.getContainerByServiceName("sql-client").orElseThrow();
            long exitCode = awaitExit(client);
            String output = client.getLogs();
            String diagnostics = output + clusterLogs(compose);

            assertThat(exitCode).as(diagnostics).isZero();
            // Flink's SQL client stops a script at its first failing statement, yet exits with 0.
            assertThat(output.replace("\r\n", "\n"))
                    .as(diagnostics)
                    .doesNotContain("[ERROR]")
                    .contains(ROWS);
        }
    }

    private static long awaitExit(ContainerState container) throws InterruptedException {
        Instant deadline = Instant.now().plus(CLIENT_TIMEOUT);
        while (Boolean.TRUE.equals(container.getCurrentContainerInfo().getState().getRunning())) {
            if (Instant.now().isAfter(deadline)) {
                fail(
                        "The SQL client still runs after %s:%n%s",
                        CLIENT_TIMEOUT, container.getLogs());
            }
            Thread.sleep(1000);
        }
        return container.getCurrentContainerInfo().getState().getExitCodeLong();
    }

    private static String clusterLogs(ComposeContainer compose) {
        StringBuilder logs = new StringBuilder();
        for (String service : new String[] {"jobmanager", "taskmanager"}) {
            compose.getContainerByServiceName(service)
                    .ifPresent(
                            c ->
                                    logs.append("\n--- ")
                                            .append(service)
                                            .append(":\n")
                                            .append(c.getLogs()));
        }
        return logs.toString();
    }
}
