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

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The shaded SQL connector jar as a user installs it: its entries, its service files, and Flink SQL
 * on a classpath of Flink's own jars plus this jar alone (failsafe leaves every bundled dependency
 * off the test classpath).
 */
class SqlConnectorJarIT {

    /**
     * What stays unrelocated: zstd-jni, whose native methods are bound by class name, with its
     * libraries; Hadoop's version file, which ORC reads by that name.
     */
    private static final Pattern UNRELOCATED =
            Pattern.compile(
                    "com/(github/(luben/(zstd/.*)?)?)?"
                            + "|(aix|darwin|freebsd|linux|win)/([^/]+/((lib)?zstd-jni-[0-9.-]+\\.(so|dylib|dll))?)?"
                            + "|common-version-info\\.properties");

    private static Map<String, byte[]> entries;

    @BeforeAll
    static void readJar() throws IOException {
        entries = new TreeMap<>();
        try (JarFile jar = new JarFile(System.getProperty("dovetail.sql.connector.jar"))) {
            for (JarEntry entry : java.util.Collections.list(jar.entries())) {
                entries.put(entry.getName(), jar.getInputStream(entry).readAllBytes());
            }
        }
    }

    @Test
    void holdsOnlyDovetailPackagesRelocatedOnesAndMetaInf() {
        List<String> foreign = new ArrayList<>();
        for (String name : entries.keySet()) {
            String path = name.replaceFirst("^META-INF/versions/\\d+/", "");
            boolean ours = path.startsWith("io/dovetail/") || path.equals("io/");
            boolean meta = path.startsWith("META-INF/") && !name.startsWith("META-INF/versions/");
            if (!ours && !meta && !UNRELOCATED.matcher(path).matches()) {
                foreign.add(name);
            }
        }
        assertThat(foreign).isEmpty();
        assertThat(entries)
                .containsKeys(
                        "io/dovetail/flink/catalog/DovetailCatalogFactory.class",
                        "io/dovetail/flink/procedure/DovetailProcedures.class",
                        "io/dovetail/shaded/org/apache/avro/Schema.class",
                        "io/dovetail/shaded/org/apache/parquet/hadoop/ParquetFileReader.class",
                        "io/dovetail/shaded/org/apache/orc/OrcFile.class",
                        "io/dovetail/shaded/org/apache/hadoop/conf/Configuration.class",
                        "com/github/luben/zstd/Zstd.class",
                        "linux/amd64/libzstd-jni-1.5.7-28.so");
    }

    @Test
    void serviceFilesNameClassesOfTheJar() throws IOException {
        Map<String, List<String>> services = new TreeMap<>();
        for (String name : entries.keySet()) {
            if (name.startsWith("META-INF/services/") && !name.endsWith("/")) {
                services.put(name.substring("META-INF/services/".length()), lines(name));
            }
        }
        assertThat(services)
                .containsEntry(
                        "org.apache.flink.table.factories.Factory",
                        List.of("io.dovetail.flink.catalog.DovetailCatalogFactory"))
                .containsEntry(
                        "io.dovetail.flink.catalog.ProcedureProvider",
                        List.of("io.dovetail.flink.procedure.DovetailProcedures"));
        services.forEach(
                (service, implementations) -> {
                    assertThat(classExists(service)).as("service %s", service).isTrue();
                    for (String implementation : implementations) {
                        assertThat(entries).containsKey(classFile(implementation));
                    }
                });
    }

    @Test
    void testClasspathHasFlinkAndTheJarOnly() throws ClassNotFoundException {
        Class.forName("io.dovetail.flink.catalog.DovetailCatalogFactory");
        assertThatThrownBy(() -> Class.forName("org.apache.avro.Schema"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("org.apache.parquet.hadoop.ParquetFileReader"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void flinkSqlCreatesWritesUpdatesCompactsAndReadsParquetAndOrcTables(@TempDir Path warehouse) {
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        sql.useCatalog("dt");
        for (String format : List.of("parquet", "orc")) {
            String table = "media_" + format;
            sql.executeSql(
                    "CREATE TABLE "
                            + table
                            + " (id BIGINT, caption STRING, dt STRING) PARTITIONED BY (dt) WITH ("
                            + "'file.format' = '"
                            + format
                            + "', 'row-tracking.enabled' = 'true',"
                            + " 'data-evolution.enabled' = 'true')");
            run(
                    sql,
                    "INSERT INTO "
                            + table
                            + " VALUES (1, 'a bicycle', 'd1'), (2, CAST(NULL AS STRING), 'd1'),"
                            + " (3, 'a lighthouse', 'd2')");
            run(sql, "INSERT INTO " + table + " VALUES (4, 'two cats', 'd2')");
            run(sql, "UPDATE " + table + " SET caption = 'a boat' WHERE id = 2");
            List<Row> compacted =
                    rows(
                            sql,
                            "CALL dt.sys.compact(`table` => 'default."
                                    + table
                                    + "', compact_strategy => 'full')");
            assertThat(compacted).hasSize(1);

            assertThat(rows(sql, "SELECT _ROW_ID, id, caption, dt FROM " + table + " ORDER BY id"))
                    .extracting(Row::toString)
                    .as(format)
                    .containsExactly(
                            "+I[0, 1, a bicycle, d1]",
                            "+I[1, 2, a boat, d1]",
                            "+I[2, 3, a lighthouse, d2]",
                            "+I[3, 4, two cats, d2]");
        }
    }

    private static void run(TableEnvironment sql, String statement) {
        try {
            sql.executeSql(statement).await();
        } catch (Exception e) {
            throw new IllegalStateException(statement, e);
        }
    }

    private static List<Row> rows(TableEnvironment sql, String query) {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
            it.forEachRemaining(rows::add);
        } catch (Exception e) {
            throw new IllegalStateException(query, e);
        }
        return rows;
    }

    private static List<String> lines(String entry) throws IOException {
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader =
                new BufferedReader(
                        new InputStreamReader(
                                new java.io.ByteArrayInputStream(entries.get(entry)),
                                StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                String name = line.replaceFirst("#.*", "").trim();
                if (!name.isEmpty()) {
                    lines.add(name);
                }
            }
        }
        return lines;
    }

    private static boolean classExists(String name) {
        if (entries.containsKey(classFile(name))) {
            return true;
        }
        try {
            Class.forName(name, false, SqlConnectorJarIT.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static String classFile(String className) {
        return className.replace('.', '/') + ".class";
    }
}
