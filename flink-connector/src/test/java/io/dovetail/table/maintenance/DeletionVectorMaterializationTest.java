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

import io.dovetail.table.maintenance.DeletionVectorMaterialization.Plan;
import io.dovetail.table.maintenance.DeletionVectorMaterialization.Rewritten;
import io.dovetail.table.testing.EvolvingTable;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The rewriter of a materialization plan: one read plan of the pinned snapshot for its groups. */
class DeletionVectorMaterializationTest {

    @TempDir java.nio.file.Path dir;

    private EvolvingTable table;
    private DeletionVectorMaterialization materialization;

    /** a: [0,9] (rows 2 and 5 deleted), [10,19] (no vector); b: [20,29] (every row deleted). */
    @BeforeEach
    void writeTable() {
        table = new EvolvingTable(dir.resolve("t"), true, Map.of());
        table.append("a", 0, 10);
        table.append("a", 10, 10);
        table.append("b", 20, 10);
        table.delete(2, 5, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29);
        materialization = new DeletionVectorMaterialization(table.store);
    }

    @Test
    void rewritesThePlannedGroupsInAnyOrder() {
        Plan plan = materialization.plan(p -> true).orElseThrow();
        assertThat(plan.groups()).extracting(g -> g.range().first()).containsExactly(0L, 20L);
        DeletionVectorMaterialization.Rewriter rewriter = materialization.rewriter(plan);

        Rewritten b = rewriter.rewrite(plan.groups().get(1));
        Rewritten a = rewriter.rewrite(plan.groups().get(0));

        assertThat(b.rowsKept()).isZero();
        assertThat(b.files()).isEmpty();
        assertThat(a.rowsKept()).isEqualTo(8);
        assertThat(a.files())
                .singleElement()
                .satisfies(f -> assertThat(f.file().rowCount()).isEqualTo(8));
        DeletionVectorMaterialization.Result result =
                materialization.commit("materializer", 1, plan, List.of(a, b));
        assertThat(result.rowsRemoved()).isEqualTo(12);
        assertThat(table.read("id", "_ROW_ID")) // survivors 0, 1, 3, ... 9 get 30 ... 37
                .hasSize(18)
                .contains("id=0, _ROW_ID=30", "id=3, _ROW_ID=32", "id=9, _ROW_ID=37")
                .contains("id=10, _ROW_ID=10", "id=19, _ROW_ID=19");
    }

    @Test
    void refusesAGroupOutsideItsPlanAndWritesNothing() {
        Plan all = materialization.plan(p -> true).orElseThrow();
        Plan onlyB = materialization.plan(p -> p.getString(0).toString().equals("b")).orElseThrow();
        DeletionVectorMaterialization.Rewriter rewriter = materialization.rewriter(onlyB);
        TreeSet<String> before = table.filesIn("dt=a/bucket-0");
        assertThat(before).hasSize(2);

        assertThatThrownBy(() -> rewriter.rewrite(all.groups().get(0)))
                .hasMessageContaining("has no planned row-range group [0, 9] to materialize");
        assertThat(table.filesIn("dt=a/bucket-0")).isEqualTo(before);
    }
}
