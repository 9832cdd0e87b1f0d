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
package io.dovetail.e2e.interop;

import io.dovetail.e2e.paimon.PaimonWorkbench;
import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.TestCompaction;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A column update staged before a compaction merged its row ranges and rebased at commit: Paimon
 * 1.4.2 must read exactly the rows Dovetail's read path returns, {@code _ROW_ID} and {@code
 * _SEQUENCE_NUMBER} included.
 */
class RebaseInteropTest {

    private static final String TABLE = "rebased_by_dovetail";
    private static final String USER = "dovetail-rebase-interop";

    @TempDir java.nio.file.Path warehouse;

    private TableStore store;
    private long identifier;

    @Test
    void paimonReadsARebasedUpdateAsDovetailDoes() throws Exception {
        store = DovetailTables.regionTable(warehouse, TABLE);
        append(0, 5, "eu");
        append(5, 4, "eu");
        append(9, 3, "us");
        Snapshot base = store.latestSnapshot().orElseThrow();
        List<ManifestEntry> staged =
                ColumnUpdater.on(store, base, List.of("name"))
                        .write(
                                List.of(
                                                new RowUpdate(1, GenericRowData.of(str("one"))),
                                                new RowUpdate(6, GenericRowData.of(str("six"))),
                                                new RowUpdate(10, GenericRowData.of(str("ten"))))
                                        .iterator());
        new TableCommit(store)
                .commit(TestCompaction.rewrite(store, "compactor", base, new RowRange(0, 8)));

        Snapshot committed =
                new TableCommit(store)
                        .commit(CommitRequest.columnUpdate(USER, ++identifier, base.id(), staged));

        assertThat(store.files(committed).deltaEntries())
                .extracting(e -> e.file().firstRowId() + "+" + e.file().rowCount())
                .containsExactlyInAnyOrder("0+9", "9+3");
        List<String> dovetail =
                TwoSidedReads.dovetail(
                        store, ReadRequest.allColumns(store.latestSchema()).withRowTracking());
        assertThat(dovetail)
                .contains(
                        "id=1, name=one, score=0.25, region=eu, _ROW_ID=1, _SEQUENCE_NUMBER="
                                + committed.id(),
                        "id=7, name=name-7, score=1.75, region=eu, _ROW_ID=7, _SEQUENCE_NUMBER="
                                + committed.id());
        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            assertThat(paimon.readRowsWithRowTracking(TABLE)).isEqualTo(dovetail);
        }
    }

    private void append(long first, int count, String region) {
        DovetailTables.appendToRegion(store, USER, ++identifier, first, count, region);
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
