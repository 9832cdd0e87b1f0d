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
package io.dovetail.table.maintenance;

import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TestTable;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.RenderedReads;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link OrphanFiles}: files no snapshot or tag references and older than the given time are
 * removed from the data, manifest and index directories; referenced files (also those only an old
 * snapshot still references), young files and metadata directories stay, and every snapshot reads
 * as before.
 */
class OrphanFilesTest {

    private static final long HOUR = 3_600_000;

    @TempDir Path dir;

    private TestTable table;
    private final List<List<String>> before = new ArrayList<>();

    @BeforeEach
    void aTableWithHistory() {
        table = new TestTable(dir.resolve("t"), true);
        table.commit(CommitRequest.append("writer", 1, List.of(table.writeAppend("p1", 20))));
        table.commit(CommitRequest.append("writer", 2, List.of(table.writeAppend("p1", 10))));
        Snapshot base = table.latest();
        table.commit(
                CommitRequest.delete(
                        "deleter",
                        3,
                        base.id(),
                        new DeletionVectorWriter(table.store).deleteRows(base, List.of(3L))));
        new DataEvolutionCompaction(table.store)
                .compact("compactor", 4, p -> true, new CompactionConfig(256 << 20, 4 << 20, 2));
        GlobalIndexBuild.Plan plan =
                GlobalIndexBuild.plan(table.store, "a", "btree", p -> true, Map.of()).orElseThrow();
        GlobalIndexBuild.commit(
                table.store, "builder", plan, GlobalIndexBuildTest.write(table.store, plan));
        for (long id : table.snapshotIds()) {
            before.add(rows(table.store.snapshots().snapshot(id)));
        }
        makeOld(dir.resolve("t"));
    }

    @Test
    void oldUnreferencedFilesGoAndEverythingReferencedOrYoungStays() throws IOException {
        Path table = dir.resolve("t");
        Path orphanDataFile = find(table, this.table.writeAppend("p1", 5).file().fileName());
        Path orphanManifest = Files.writeString(table.resolve("manifest/manifest-orphan-0"), "x");
        Path orphanIndex = Files.writeString(table.resolve("index/index-orphan-0"), "x");
        Path young = Files.writeString(table.resolve("manifest/manifest-young-0"), "x");
        for (Path old : List.of(orphanDataFile, orphanManifest, orphanIndex)) {
            old.toFile().setLastModified(System.currentTimeMillis() - 2 * HOUR);
        }
        Path schema = table.resolve("schema/schema-0");

        OrphanFiles.Result dryRun =
                new OrphanFiles(this.table.store).remove(System.currentTimeMillis() - HOUR, true);

        assertThat(names(dryRun.files()))
                .containsExactlyInAnyOrder(
                        orphanDataFile.getFileName().toString(),
                        "manifest-orphan-0",
                        "index-orphan-0");
        assertThat(orphanDataFile).exists();

        OrphanFiles.Result removed =
                new OrphanFiles(this.table.store).remove(System.currentTimeMillis() - HOUR, false);

        assertThat(removed.files()).hasSize(3);
        assertThat(removed.bytes()).isPositive();
        assertThat(orphanDataFile).doesNotExist();
        assertThat(orphanManifest).doesNotExist();
        assertThat(orphanIndex).doesNotExist();
        assertThat(young).exists();
        assertThat(schema).exists();
        List<List<String>> after = new ArrayList<>();
        for (long id : this.table.snapshotIds()) {
            after.add(rows(this.table.store.snapshots().snapshot(id)));
        }
        assertThat(after).as("every snapshot reads as before").isEqualTo(before);
    }

    private List<String> rows(Snapshot snapshot) {
        return RenderedReads.read(
                new ReadPlanner(table.store)
                        .plan(snapshot, ReadRequest.allColumns(table.store.latestSchema())));
    }

    private static List<String> names(List<org.apache.flink.core.fs.Path> files) {
        return files.stream().map(org.apache.flink.core.fs.Path::getName).toList();
    }

    private static Path find(Path root, String name) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.getFileName().toString().equals(name))
                    .findFirst()
                    .orElseThrow();
        }
    }

    private static void makeOld(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            files.map(Path::toFile)
                    .filter(File::isFile)
                    .forEach(f -> f.setLastModified(System.currentTimeMillis() - 2 * HOUR));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
