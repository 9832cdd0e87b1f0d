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
package io.dovetail.table.commit;

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.EvolvingTable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** C9, materialize variant: a column update of a materialized group after the base conflicts. */
class MaterializeConflictCheckTest {

    @TempDir Path dir;

    @Test
    void aColumnUpdateOfARemovedGroupSinceTheBaseFailsTheMaterialization() {
        EvolvingTable table = new EvolvingTable(dir.resolve("t"), false, Map.of());
        table.append("a", 0, 10);
        table.append("a", 10, 10);
        Snapshot base = table.latest();
        CommitRequest removeFirstGroup =
                CommitRequest.materialize(
                        "materializer",
                        1,
                        base.id(),
                        table.liveAt(0),
                        List.of(),
                        IndexChanges.NONE);

        table.update("name", Map.of(3L, "three")); // rows [0, 9]
        table.append("a", 20, 10); // new rows: no conflict

        assertThatThrownBy(() -> table.commit(removeFirstGroup))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("Materialization conflict: snapshot 3 wrote file")
                .hasMessageContaining("for rows [0, 9]");
        assertThat(table.latest().id()).isEqualTo(4);

        CommitRequest removeSecondGroup =
                CommitRequest.materialize(
                        "materializer",
                        2,
                        base.id(),
                        table.liveAt(10),
                        List.of(),
                        IndexChanges.NONE);
        Snapshot committed = table.commit(removeSecondGroup);
        assertThat(committed.commitKind()).isEqualTo(CommitKind.COMPACT);
        assertThat(table.liveAt(10)).isEmpty();
        assertThat(table.liveAt(0)).hasSize(2);
    }
}
