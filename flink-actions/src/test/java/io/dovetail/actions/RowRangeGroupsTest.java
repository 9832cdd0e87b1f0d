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
package io.dovetail.actions;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RowRangeGroupsTest {

    @Test
    void groupsFilesByExactRangeAndReportsOverlapsAndUntrackedFiles() {
        RowRangeGroups groups =
                new RowRangeGroups(
                        List.of(
                                file("a", 0L, 5),
                                file("b", 8L, 2),
                                file("c", 0L, 5),
                                file("d", 3L, 5),
                                file("e", null, 7)));

        assertThat(groups.groups().keySet())
                .containsExactly(new RowRange(0, 5), new RowRange(3, 5), new RowRange(8, 2));
        assertThat(groups.groups().get(new RowRange(0, 5)))
                .extracting(e -> e.file().fileName())
                .containsExactly("a", "c");
        assertThat(groups.logicalRows()).isEqualTo(12);
        assertThat(groups.overlaps()).containsExactly("[0, 5) and [3, 8)");
        assertThat(groups.filesWithoutRowIds()).isEqualTo(1);
    }

    @Test
    void adjacentRangesDoNotOverlap() {
        RowRangeGroups groups =
                new RowRangeGroups(List.of(file("a", 0L, 3), file("b", 3L, 4), file("c", 7L, 1)));

        assertThat(groups.overlaps()).isEmpty();
        assertThat(groups.logicalRows()).isEqualTo(8);
    }

    private static ManifestEntry file(String name, Long firstRowId, long rows) {
        return new ManifestEntry(
                FileKind.ADD,
                BinaryRowCodec.emptyRow(),
                0,
                -1,
                DataFileMeta.builder(name).rowCount(rows).firstRowId(firstRowId).build());
    }
}
