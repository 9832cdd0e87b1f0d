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
package io.dovetail.table.schema;

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.error.DovetailException.Kind;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FieldIds;

import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.dovetail.table.schema.SchemaChange.addColumn;
import static io.dovetail.table.schema.SchemaChange.renameColumn;
import static io.dovetail.table.schema.SchemaChange.setOption;
import static io.dovetail.table.types.DataTypes.BIGINT;
import static io.dovetail.table.types.DataTypes.INT;
import static io.dovetail.table.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaManagerTest {

    @TempDir java.nio.file.Path tempDir;

    private java.nio.file.Path schemaDir;
    private SchemaManager manager;
    private final AtomicLong clock = new AtomicLong(1000);

    @BeforeEach
    void setUp() {
        manager =
                new SchemaManager(
                        new TablePaths(new Path(tempDir.toUri())), clock::incrementAndGet);
        schemaDir = tempDir.resolve("schema");
    }

    private TableSchema create() {
        return manager.createTable(
                List.of(new DataField(0, "id", BIGINT()), new DataField(1, "dt", STRING())),
                List.of("dt"),
                List.of(),
                SchemaEvolutionTest.DE_OPTIONS,
                "events");
    }

    @Test
    void noTableMeansNoSchema() {
        assertThat(manager.tableExists()).isFalse();
        assertThat(manager.listIds()).isEmpty();
        assertThat(manager.latest()).isEmpty();
        assertThatThrownBy(() -> manager.commitChanges(addColumn("x", INT())))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("it does not exist");
    }

    @Test
    void createWritesSchemaZero() throws Exception {
        TableSchema created = create();
        assertThat(created.id()).isZero();
        assertThat(created.highestFieldId()).isEqualTo(1);
        assertThat(created.timeMillis()).isEqualTo(1001);
        assertThat(created.comment()).isEqualTo("events");
        byte[] onDisk = Files.readAllBytes(schemaDir.resolve("schema-0"));
        assertThat(onDisk).isEqualTo(TableSchemaJson.toBytes(created));
        assertThat(new String(onDisk, StandardCharsets.UTF_8))
                .startsWith("{\n  \"version\" : 3,\n  \"id\" : 0,\n  \"fields\" : [ {");
        assertThat(manager.tableExists()).isTrue();
        assertThat(manager.latest()).contains(created);
        assertThat(manager.schema(0)).isEqualTo(created);
        try (var files = Files.list(schemaDir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("schema-0");
        }
    }

    @Test
    void createFailsWhenTheTableExists() {
        create();
        assertThatThrownBy(this::create)
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("Cannot create table at")
                .hasMessageContaining("already exists");
    }

    @Test
    void createValidatesTheTable() {
        assertThatThrownBy(
                        () ->
                                manager.createTable(
                                        List.of(
                                                new DataField(
                                                        0, "id", BIGINT().withNullable(false))),
                                        List.of(),
                                        List.of("id"),
                                        SchemaEvolutionTest.DE_OPTIONS,
                                        null))
                .hasMessageContaining("cannot have a primary key");
        assertThat(manager.tableExists()).isFalse();
    }

    @Test
    void evolveAndReadEveryVersion() {
        create();
        TableSchema one = manager.commitChanges(addColumn("score", INT()));
        TableSchema two =
                manager.commitChanges(
                        renameColumn("score", "points"), setOption("file.format", "orc"));
        assertThat(one.id()).isEqualTo(1);
        assertThat(two.id()).isEqualTo(2);
        assertThat(manager.listIds()).containsExactly(0L, 1L, 2L);
        assertThat(manager.latest()).contains(two);
        assertThat(manager.schema(1)).isEqualTo(one);
        assertThat(two.field("points").orElseThrow().id()).isEqualTo(2);
        assertThat(two.options()).containsEntry("file.format", "orc");
        assertThat(two.timeMillis()).isGreaterThan(one.timeMillis());
    }

    @Test
    void refusedChangesWriteNothing() {
        create();
        assertThatThrownBy(() -> manager.commitChanges(setOption("bucket", "3")))
                .isInstanceOf(DovetailException.class);
        assertThat(manager.listIds()).containsExactly(0L);
    }

    @Test
    void concurrentChangesAreAllApplied() throws Exception {
        create();
        int threads = 4;
        int perThread = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<TableSchema>>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            results.add(
                    pool.submit(
                            () -> {
                                SchemaManager own =
                                        new SchemaManager(
                                                new TablePaths(new Path(tempDir.toUri())));
                                start.await();
                                List<TableSchema> committed = new ArrayList<>();
                                for (int i = 0; i < perThread; i++) {
                                    committed.add(
                                            own.commitChanges(
                                                    addColumn("t" + thread + "_" + i, INT()),
                                                    setOption("last-writer", "t" + thread)));
                                }
                                return committed;
                            }));
        }
        start.countDown();
        Set<Long> committedIds = new HashSet<>();
        for (Future<List<TableSchema>> result : results) {
            for (TableSchema schema : result.get(60, TimeUnit.SECONDS)) {
                assertThat(committedIds.add(schema.id())).isTrue();
            }
        }
        pool.shutdown();

        int total = threads * perThread;
        TableSchema latest = manager.latest().orElseThrow();
        assertThat(latest.id()).isEqualTo(total);
        assertThat(committedIds).hasSize(total);
        assertThat(latest.fields()).hasSize(2 + total);
        for (int t = 0; t < threads; t++) {
            List<String> own = new ArrayList<>();
            for (String name : latest.fieldNames()) {
                if (name.startsWith("t" + t + "_")) {
                    own.add(name);
                }
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < perThread; i++) {
                expected.add("t" + t + "_" + i);
            }
            assertThat(own).containsExactlyElementsOf(expected);
        }
        List<Integer> ids = FieldIds.all(latest.fields());
        assertThat(new HashSet<>(ids)).hasSize(ids.size());
        assertThat(latest.highestFieldId()).isEqualTo(1 + total);
        for (long id = 1; id <= total; id++) {
            assertThat(manager.schema(id).fields()).hasSize((int) (2 + id));
        }
    }

    @Test
    void corruptAndTruncatedSchemaFilesNameTheFile() throws Exception {
        create();
        byte[] good = Files.readAllBytes(schemaDir.resolve("schema-0"));
        Files.write(schemaDir.resolve("schema-1"), java.util.Arrays.copyOf(good, good.length / 3));
        assertThatThrownBy(() -> manager.schema(1))
                .isInstanceOfSatisfying(
                        DovetailException.class,
                        e -> assertThat(e.kind()).isEqualTo(Kind.CORRUPT_METADATA))
                .hasMessageContaining("schema-1")
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> manager.latest()).hasMessageContaining("schema-1");
        assertThatThrownBy(() -> manager.commitChanges(addColumn("x", INT())))
                .hasMessageContaining("schema-1");
    }

    @Test
    void aFileWhoseIdDiffersFromItsNameIsCorrupt() throws Exception {
        create();
        Files.copy(schemaDir.resolve("schema-0"), schemaDir.resolve("schema-5"));
        assertThatThrownBy(() -> manager.schema(5))
                .hasMessageContaining("schema-5")
                .hasMessageContaining("holds schema id 0 but is named for id 5");
    }

    @Test
    void missingSchemaIdNamesTheFile() {
        create();
        assertThatThrownBy(() -> manager.schema(3))
                .isInstanceOfSatisfying(
                        DovetailException.class,
                        e -> assertThat(e.kind()).isEqualTo(Kind.MISSING_FILE))
                .hasMessageContaining("schema-3")
                .hasMessageContaining("schema id 3 of table");
    }

    @Test
    void hiddenAndUnrelatedFilesAreIgnoredButBadSchemaNamesFail() throws Exception {
        create();
        Files.write(schemaDir.resolve(".schema-1.abc.tmp"), new byte[] {1});
        Files.write(schemaDir.resolve("README"), new byte[] {1});
        assertThat(manager.listIds()).containsExactly(0L);
        Files.write(schemaDir.resolve("schema-1.bak"), new byte[] {1});
        assertThatThrownBy(() -> manager.listIds())
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("schema-1.bak")
                .hasMessageContaining("does not end in a decimal schema id");
    }

    @Test
    void listingIsNumericNotLexicographic() throws Exception {
        TableSchema zero = create();
        TableSchema latest = zero;
        for (int i = 0; i < 11; i++) {
            latest = manager.commitChanges(addColumn("c" + i, INT()));
        }
        assertThat(manager.listIds()).hasSize(12).endsWith(10L, 11L);
        assertThat(manager.latest()).contains(latest);
        assertThat(latest.options()).isEqualTo(Map.copyOf(zero.options()));
    }
}
