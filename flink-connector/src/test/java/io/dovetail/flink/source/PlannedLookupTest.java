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
package io.dovetail.flink.source;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads with an equality or IN are planned where the query is planned and, when they come to one
 * split, run from that split: a table of two files ({@code k0..k9} and {@code k10..k19}, split size
 * one byte) is read by {@code k = 'k3'} from one planned split, which the planned source's
 * enumerator hands out as it is; an IN naming both files, a range condition or no filter leave the
 * plan to the enumerator.
 */
class PlannedLookupTest {

    @TempDir java.nio.file.Path dir;

    private TableStore store;
    private TableSchema schema;

    @BeforeEach
    void twoFiles() {
        store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        schema =
                store.schemas()
                        .createTable(
                                List.of(
                                        new DataField(0, "id", DataTypes.BIGINT()),
                                        new DataField(1, "k", DataTypes.STRING())),
                                List.of(),
                                List.of(),
                                Map.of(
                                        "row-tracking.enabled", "true",
                                        "data-evolution.enabled", "true"),
                                null);
        List<ManifestEntry> files = new ArrayList<>();
        for (int file = 0; file < 2; file++) {
            try (DataFileWriter writer =
                    DataFileWriter.forAppend(store.paths(), schema, GenericRowData.of())) {
                for (long id = file * 10L; id < file * 10L + 10; id++) {
                    writer.write(GenericRowData.of(id, str("k" + id)));
                }
                files.addAll(writer.finish());
            }
        }
        new TableCommit(store).commit(CommitRequest.append("test", 1, files));
    }

    @Test
    void anEqualityOfOneSplitIsPlannedOnceAndRunFromItsSplit() throws Exception {
        ReadSpec spec = spec(Predicate.equal(k(), str("k3")));

        ReadPlan plan = spec.planLookup().orElseThrow();

        assertThat(plan.splits()).hasSize(1);
        try (MockSplitEnumeratorContext<DovetailSplit> context =
                        new MockSplitEnumeratorContext<>(2);
                SplitEnumerator<DovetailSplit, PendingSplits> enumerator =
                        DovetailSource.planned(spec, plan).createEnumerator(context)) {
            enumerator.handleSplitRequest(0, null);
            enumerator.handleSplitRequest(1, null);
            List<DovetailSplit> assigned = new ArrayList<>();
            context.getSplitsAssignmentSequence()
                    .forEach(a -> a.assignment().values().forEach(assigned::addAll));
            assertThat(assigned).hasSize(1);
            assertThat(assigned.get(0).split().groups())
                    .extracting(g -> g.range())
                    .containsExactlyElementsOf(
                            plan.splits().get(0).groups().stream().map(g -> g.range()).toList());
        }
    }

    @Test
    void otherReadsAreLeftToTheEnumerator() {
        assertThat(spec(new Predicate.In(k(), List.of(str("k3"), str("k15")))).planLookup())
                .isEmpty();
        assertThat(spec(Predicate.greaterThan(k(), str("k3"))).planLookup()).isEmpty();
        assertThat(spec(null).planLookup()).isEmpty();
    }

    private ReadSpec spec(Predicate filter) {
        return new ReadSpec(store.paths(), schema, 1L, schema.fields(), filter, 1, 1, false, true);
    }

    private DataField k() {
        return schema.fields().get(1);
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
