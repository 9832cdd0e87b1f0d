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
package io.dovetail.e2e.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The jars the build hands the cluster tests (system properties set in {@code e2e/pom.xml}): the
 * class path of Flink's own jars, the shaded SQL connector and the actions jar.
 */
final class ClusterJars {

    private ClusterJars() {}

    /**
     * Flink's jars plus the shaded SQL connector, as a distribution with the connector in {@code
     * lib/} has them. Refuses a class path holding a reactor module or Dovetail's or Paimon's
     * unshaded classes: the cluster must see the shaded jar only.
     */
    static String clusterClasspath() throws IOException {
        Path file = Path.of(property("dovetail.cluster.classpath"));
        List<String> entries =
                new ArrayList<>(List.of(Files.readString(file).trim().split(File.pathSeparator)));
        for (String entry : entries) {
            String path = entry.replace('\\', '/');
            if (path.endsWith("/classes")
                    || path.contains("/io/dovetail/")
                    || path.contains("/org/apache/paimon/")) {
                throw new IllegalStateException(
                        "Not a jar of a Flink installation: " + entry + " (in " + file + ")");
            }
        }
        entries.add(jar("dovetail.cluster.connector.jar").toString());
        return String.join(File.pathSeparator, entries);
    }

    /** The shaded actions jar, {@code flink run}'s job jar. */
    static Path actionsJar() {
        return jar("dovetail.cluster.actions.jar");
    }

    private static Path jar(String property) {
        Path jar = Path.of(property(property));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    jar
                            + " (system property "
                            + property
                            + ") is missing: package flink-sql-connector and flink-actions first"
                            + " (./mvnw -B package -DskipTests -pl flink-sql-connector,flink-actions"
                            + " -am)");
        }
        return jar;
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException(
                    "System property " + name + " is not set; run the cluster tests through Maven");
        }
        return value;
    }
}
