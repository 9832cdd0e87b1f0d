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
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.dovetail.packaging.RepositoryFiles.list;
import static io.dovetail.packaging.RepositoryFiles.map;
import static io.dovetail.packaging.RepositoryFiles.read;
import static io.dovetail.packaging.RepositoryFiles.yaml;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Docker quick start's files agree with the build and with each other, checked without a Docker
 * daemon (e2e's DockerQuickstartTest runs them where one is reachable): the image is the official
 * Flink image of the build's Flink version plus this module's shaded jar, built from the
 * repository; every service runs that image with the warehouse volume at the path the quick-start
 * script's catalog uses; the SQL client runs the mounted script; the README gives the two commands.
 */
class DockerQuickstartFilesTest {

    private static final String COMPOSE_FILE = "docker/docker-compose.yml";
    private static final List<String> SERVICES = List.of("jobmanager", "taskmanager", "sql-client");
    private static final String WAREHOUSE_MOUNT = "warehouse:/warehouse";

    private static Map<String, Object> compose;

    @BeforeAll
    static void parse() throws IOException {
        compose = yaml(COMPOSE_FILE);
    }

    @Test
    void imageIsTheBuildsFlinkVersionWithTheShadedJarBuiltFromTheRepository() throws IOException {
        String dockerfile = read("docker/Dockerfile");
        assertThat(dockerfile)
                .containsOnlyOnce("./mvnw -B -ntp -pl flink-sql-connector -am package")
                .contains(
                        "cp flink-sql-connector/target/"
                                + tag(read("flink-sql-connector/pom.xml"), "artifactId", 1)
                                + "-*.jar /jars/")
                .contains("COPY --from=build --chown=flink:flink /jars/ /opt/flink/lib/")
                .contains("\nFROM flink:" + tag(read("pom.xml"), "flink.version", 0) + "-java17\n");
        assertThat(read(".dockerignore").lines()).contains(".git", "**/target");

        Map<String, Object> image = map(compose.get("x-dovetail-flink"));
        assertThat(map(image.get("build")))
                .containsEntry("context", "..")
                .containsEntry("dockerfile", "docker/Dockerfile");
        for (String service : SERVICES) {
            assertThat(service(service).get("<<")).as(service).isSameAs(image);
        }
    }

    @Test
    void everyServiceMountsTheWarehouseTheQuickstartCatalogUses() throws IOException {
        assertThat(map(compose.get("volumes"))).containsOnlyKeys("warehouse");
        for (String service : SERVICES) {
            Map<String, Object> definition = service(service);
            Object volumes =
                    definition.getOrDefault("volumes", map(definition.get("<<")).get("volumes"));
            assertThat(list(volumes)).as(service).contains(WAREHOUSE_MOUNT);
        }
        String warehousePath = WAREHOUSE_MOUNT.substring(WAREHOUSE_MOUNT.indexOf(':') + 1);
        assertThat(read("docker/quickstart.sql"))
                .contains("'warehouse' = 'file://" + warehousePath + "'");
    }

    @Test
    void sqlClientRunsTheMountedQuickstartAndTheReadmeGivesTheTwoCommands() throws IOException {
        Map<String, Object> client = service("sql-client");
        assertThat(client.get("command"))
                .isEqualTo("sql-client.sh -f /opt/dovetail/quickstart.sql");
        assertThat(list(client.get("volumes")))
                .contains("./quickstart.sql:/opt/dovetail/quickstart.sql:ro");
        assertThat(map(client.get("depends_on")))
                .containsEntry("jobmanager", Map.of("condition", "service_healthy"));
        assertThat(map(service("jobmanager").get("healthcheck"))).containsKey("test");

        assertThat(read("README.md"))
                .contains(
                        "```bash\n"
                                + "docker compose -f "
                                + COMPOSE_FILE
                                + " up -d --build\n"
                                + "docker compose -f "
                                + COMPOSE_FILE
                                + " run --rm sql-client\n"
                                + "```");
    }

    private static Map<String, Object> service(String name) {
        return map(map(compose.get("services")).get(name));
    }

    /** The text of the n-th (0-based) element named {@code name} in a pom. */
    private static String tag(String pom, String name, int n) {
        Matcher element = Pattern.compile("<" + name + ">([^<]+)</" + name + ">").matcher(pom);
        for (int i = 0; i <= n; i++) {
            assertThat(element.find()).as("<%s> #%d", name, i).isTrue();
        }
        return element.group(1);
    }
}
