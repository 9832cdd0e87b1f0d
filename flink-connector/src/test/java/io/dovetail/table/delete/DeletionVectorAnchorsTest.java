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
package io.dovetail.table.delete;

import io.dovetail.table.commit.TestTable;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DeletionVectorAnchorsTest {

    @Test
    void theAnchorIsTheOldestNormalFileByMaxSequenceThenName() {
        ManifestEntry newer = file("data-7f1-0.parquet", 0, 10, 8);
        ManifestEntry older = file("data-e55-0.parquet", 0, 10, 4);
        ManifestEntry tie = file("data-0ac-1.parquet", 0, 10, 4);
        ManifestEntry blob = file("data-91b-2.blob", 5, 5, 2);
        ManifestEntry nextGroup = file("data-aaa-0.parquet", 10, 5, 1);

        DeletionVectorAnchors anchors =
                DeletionVectorAnchors.of(List.of(newer, blob, older, nextGroup, tie));

        DeletionVectorAnchors.Group group = anchors.groupOfRow(7).orElseThrow();
        assertThat(group.range()).isEqualTo(new RowRange(0, 9));
        assertThat(group.anchor()).isEqualTo(tie);
        assertThat(group.files()).hasSize(4);
        assertThat(anchors.groupOfAnchor("data-0ac-1.parquet")).contains(group);
        assertThat(anchors.groupOfAnchor("data-e55-0.parquet")).isEmpty();
        assertThat(anchors.groupOfRow(10).orElseThrow().anchor()).isEqualTo(nextGroup);
        assertThat(anchors.groupOfRow(15)).isEmpty();
    }

    private static ManifestEntry file(String name, long firstRowId, long rows, long sequence) {
        DataFileMeta meta =
                DataFileMeta.builder(name)
                        .rowCount(rows)
                        .firstRowId(firstRowId)
                        .sequenceNumbers(sequence, sequence)
                        .build();
        return new ManifestEntry(FileKind.ADD, TestTable.partitionBytes("x"), 0, -1, meta);
    }
}
