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
package io.dovetail.table;

import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.fs.Writers;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.ManifestFileMeta;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Damaged tables give clear errors naming the file and the problem, never partial results. */
class TableStoreBadInputTest {

    @TempDir java.nio.file.Path dir;

    private TablePaths paths;
    private TableStore store;
    private Snapshot snapshot;
    private java.nio.file.Path dataFile;

    @BeforeEach
    void tableWithOneFile() throws Exception {
        paths = new TablePaths(new Path(dir.toUri()));
        store = TableStore.at(paths);
        store.schemas()
                .createTable(
                        List.of(new DataField(0, "id", DataTypes.BIGINT(), null, null)),
                        List.of(),
                        List.of(),
                        Map.of("row-tracking.enabled", "true", "data-evolution.enabled", "true"),
                        null);
        dataFile = dir.resolve("bucket-0").resolve("data-1.parquet");
        Files.createDirectories(dataFile.getParent());
        Files.write(dataFile, new byte[42]);
        DataFileMeta meta = DataFileMeta.builder("data-1.parquet").fileSize(42).rowCount(3).build();
        ManifestEntry entry =
                new ManifestEntry(FileKind.ADD, BinaryRowCodec.emptyRow(), 0, -1, meta);
        snapshot = new TableCommit(store).commit(CommitRequest.append("u", 1, List.of(entry)));
        store = TableStore.open(paths);
    }

    @Test
    void intactTableVerifies() {
        SnapshotFiles files = store.files(snapshot);
        files.verifyLiveFiles();
        assertThat(files.dataFilePath(files.liveFiles().get(0)).toUri().getPath())
                .isEqualTo(dataFile.toUri().getPath());
    }

    @Test
    void missingDataFileIsNamed() throws Exception {
        Files.delete(dataFile);
        assertThatThrownBy(() -> store.files(snapshot).verifyLiveFiles())
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("data-1.parquet")
                .hasMessageContaining("snapshot 1");
    }

    @Test
    void truncatedDataFileIsNamed() throws Exception {
        Files.write(dataFile, new byte[40]);
        assertThatThrownBy(() -> store.files(snapshot).verifyLiveFiles())
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("data-1.parquet")
                .hasMessageContaining("40 bytes")
                .hasMessageContaining("42");
    }

    @Test
    void missingManifestIsNamed() throws Exception {
        ManifestFileMeta manifest = store.files(snapshot).deltaManifests().get(0);
        Files.delete(dir.resolve("manifest").resolve(manifest.fileName()));
        assertThatThrownBy(() -> store.files(snapshot).liveFiles())
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(manifest.fileName());
    }

    @Test
    void corruptManifestListIsNamed() throws Exception {
        java.nio.file.Path list = dir.resolve("manifest").resolve(snapshot.deltaManifestList());
        byte[] bytes = Files.readAllBytes(list);
        bytes[bytes.length - 8] ^= 0x5a; // inside the sync marker that ends the data block
        Files.write(list, bytes);
        assertThatThrownBy(() -> store.files(snapshot).liveFiles())
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(snapshot.deltaManifestList());
    }

    @Test
    void snapshotReferringToMissingSchemaIsNamed() {
        Snapshot broken = snapshot.toBuilder().id(2).schemaId(7).build();
        assertThat(store.snapshots().tryCommit(broken, Writers.CONCURRENT)).isTrue();
        assertThatThrownBy(() -> store.files(store.snapshots().snapshot(2)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("schema-7");
    }

    @Test
    void directoryWithoutSchemasIsNotATable() {
        TablePaths empty = new TablePaths(new Path(dir.resolve("nothing").toUri()));
        assertThatThrownBy(() -> TableStore.open(empty))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("no schema files");
    }
}
