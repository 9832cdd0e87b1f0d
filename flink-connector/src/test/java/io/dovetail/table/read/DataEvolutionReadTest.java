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
package io.dovetail.table.read;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.index.DeletionVectorIndexFile;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.schema.ColumnPosition;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.RenderedReads;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataEvolutionReadTest {

    private static final GenericRowData NO_PARTITION = GenericRowData.of();

    @TempDir java.nio.file.Path dir;

    private TestTable table() {
        return new TestTable(
                dir,
                List.of(
                        new DataField(0, "id", DataTypes.INT()),
                        new DataField(1, "b", DataTypes.STRING()),
                        new DataField(2, "c", DataTypes.INT())),
                List.of());
    }

    private static GenericRowData row(Object... values) {
        Object[] converted = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            converted[i] = values[i] instanceof String s ? StringData.fromString(s) : values[i];
        }
        return GenericRowData.of(converted);
    }

    /** The worked example of the spec (section 4.4), shifted to row ids 0..3. */
    private TestTable workedExample() {
        TestTable t = table();
        t.append(
                NO_PARTITION,
                List.of(row(1, "p", 10), row(2, "q", 20), row(3, "r", 30), row(4, "s", 40)));
        t.update(NO_PARTITION, 0, List.of("b"), List.of(row("P"), row("q"), row("R"), row("s")));
        t.update(
                NO_PARTITION,
                0,
                List.of("c"),
                List.of(row(11), row((Object) null), row(30), row(41)));
        return t;
    }

    @Test
    void newestProviderPerColumnAndExplicitNullDoesNotFallBack() {
        TestTable t = workedExample();
        assertThat(t.read(t.request().withRowTracking()))
                .containsExactly(
                        "id=1, b=P, c=11, _ROW_ID=0, _SEQUENCE_NUMBER=3",
                        "id=2, b=q, c=null, _ROW_ID=1, _SEQUENCE_NUMBER=3",
                        "id=3, b=R, c=30, _ROW_ID=2, _SEQUENCE_NUMBER=3",
                        "id=4, b=s, c=41, _ROW_ID=3, _SEQUENCE_NUMBER=3");
    }

    @Test
    void sequenceNumberIsTheNewestFileEvenWhenProjectionSkipsIt() {
        TestTable t = workedExample();
        assertThat(t.read(t.request().withColumns("b", "_SEQUENCE_NUMBER")))
                .containsExactly(
                        "b=P, _SEQUENCE_NUMBER=3",
                        "b=R, _SEQUENCE_NUMBER=3",
                        "b=q, _SEQUENCE_NUMBER=3",
                        "b=s, _SEQUENCE_NUMBER=3");
        ReadPlan plan = new ReadPlanner(t.store()).planLatest(t.request().withColumns("b"));
        FileGroup group = plan.splits().get(0).groups().get(0);
        assertThat(group.files()).hasSize(1);
        assertThat(group.files().get(0).meta().writeCols()).containsExactly("b");
        assertThat(group.anchor().writeCols()).isNull();
    }

    @Test
    void onlyNewlyAddedColumnReturnsEveryRowAsNull() {
        TestTable t = workedExample();
        t.alter(SchemaChange.addColumn("d", DataTypes.STRING()));
        assertThat(t.read(t.request().withColumns("d", "_ROW_ID")))
                .containsExactly(
                        "d=null, _ROW_ID=0",
                        "d=null, _ROW_ID=1",
                        "d=null, _ROW_ID=2",
                        "d=null, _ROW_ID=3");
        assertThat(t.read(t.request().withColumns("d"))).hasSize(4);
        assertThat(t.read(t.request().withColumns())).hasSize(4);
    }

    @Test
    void schemaEvolutionIsResolvedByFieldIdThroughEachFilesSchema() {
        TestTable t = workedExample();
        t.alter(SchemaChange.renameColumn("b", "label"));
        t.alter(SchemaChange.dropColumn("c"));
        t.alter(SchemaChange.addColumn("c", DataTypes.STRING())); // new id, old data stays dead
        t.alter(SchemaChange.moveColumn("c", ColumnPosition.first()));
        t.alter(SchemaChange.updateColumnType("id", DataTypes.BIGINT()));
        t.update(
                NO_PARTITION,
                0,
                List.of("label"),
                List.of(row("L0"), row((Object) null), row("L2"), row("L3")));
        t.append(NO_PARTITION, List.of(row("new", 5_000_000_000L, "x")));
        assertThat(t.read(t.request().withRowTracking()))
                .containsExactly(
                        "c=new, id=5000000000, label=x, _ROW_ID=4, _SEQUENCE_NUMBER=5",
                        "c=null, id=1, label=L0, _ROW_ID=0, _SEQUENCE_NUMBER=4",
                        "c=null, id=2, label=null, _ROW_ID=1, _SEQUENCE_NUMBER=4",
                        "c=null, id=3, label=L2, _ROW_ID=2, _SEQUENCE_NUMBER=4",
                        "c=null, id=4, label=L3, _ROW_ID=3, _SEQUENCE_NUMBER=4");
    }

    @Test
    void typeChangesCastOldFilesPerTheMatrix() {
        TestTable t =
                new TestTable(
                        dir,
                        List.of(
                                new DataField(0, "i", DataTypes.INT()),
                                new DataField(1, "f", DataTypes.FLOAT()),
                                new DataField(2, "s", DataTypes.STRING()),
                                new DataField(3, "d", DataTypes.DECIMAL(10, 2)),
                                new DataField(4, "n", DataTypes.INT())),
                        List.of());
        t.append(
                NO_PARTITION,
                List.of(
                        row(
                                -2147483648,
                                300.9f,
                                "42",
                                org.apache.flink.table.data.DecimalData.fromBigDecimal(
                                        new java.math.BigDecimal("12345678.91"), 10, 2),
                                7)));
        t.alter(SchemaChange.updateColumnType("i", DataTypes.SMALLINT()));
        t.alter(SchemaChange.updateColumnType("f", DataTypes.TINYINT()));
        t.alter(SchemaChange.updateColumnType("s", DataTypes.INT()));
        t.alter(SchemaChange.updateColumnType("d", DataTypes.DECIMAL(5, 1)));
        t.alter(SchemaChange.updateColumnType("n", DataTypes.STRING()));
        assertThat(t.read(t.request())).containsExactly("i=0, f=44, s=42, d=null, n=7");
    }

    @Test
    void rowRangesSelectExactRowsWithTheirOwnRowIds() {
        TestTable t = workedExample();
        t.append(NO_PARTITION, List.of(row(5, "t", 50), row(6, "u", 60)));
        ReadRequest request =
                t.request()
                        .withColumns("_ROW_ID", "b")
                        .withRowRanges(List.of(new RowRange(1, 1), new RowRange(3, 4)));
        assertThat(t.read(request))
                .containsExactly("_ROW_ID=1, b=q", "_ROW_ID=3, b=s", "_ROW_ID=4, b=t");
        assertThat(t.read(t.request().withRowRanges(List.of(new RowRange(100, 200))))).isEmpty();
    }

    @Test
    void partitionFilterAndSplitsPackWholeGroups() {
        TestTable t =
                new TestTable(
                        dir,
                        List.of(
                                new DataField(0, "id", DataTypes.INT()),
                                new DataField(1, "dt", DataTypes.STRING())),
                        List.of("dt"));
        for (String dt : List.of("a", "b", "a")) {
            t.append(row(dt), List.of(row(1, dt), row(2, dt)));
        }
        t.update(row("a"), 0, List.of("id"), List.of(row(10), row(20)));
        ReadRequest onlyA =
                t.request().withPartitionFilter(p -> p.getString(0).toString().equals("a"));
        assertThat(t.read(onlyA))
                .containsExactly("id=1, dt=a", "id=10, dt=a", "id=2, dt=a", "id=20, dt=a");
        ReadPlan tiny = new ReadPlanner(t.store()).planLatest(onlyA.withSplitSizes(1, 1));
        assertThat(tiny.splits()).hasSize(2);
        assertThat(tiny.splits().get(0).groups()).hasSize(1);
        assertThat(RenderedReads.read(tiny)).hasSize(4);
        ReadPlan one = new ReadPlanner(t.store()).planLatest(t.request());
        assertThat(one.splits()).hasSize(2); // one per partition
    }

    @Test
    void parallelReadersShareASmallReadByWholeGroups() {
        TestTable t = table();
        for (int group = 0; group < 4; group++) {
            t.append(NO_PARTITION, List.of(row(group, "x", 1), row(group, "y", 2)));
        }
        t.update(NO_PARTITION, 0, List.of("c"), List.of(row(10), row(20)));
        ReadPlanner planner = new ReadPlanner(t.store());
        Snapshot latest = t.store().latestSnapshot().orElseThrow();
        assertThat(planner.plan(latest, t.request()).splits())
                .as("far below the target size: one split")
                .hasSize(1);
        assertThat(planner.plan(latest, t.request(), 1).splits()).hasSize(1);
        assertThat(planner.plan(latest, t.request(), 2).splits())
                .extracting(split -> split.groups().size())
                .as("an even share of the four groups' weight each")
                .containsExactly(2, 2);
        ReadPlan spread = planner.plan(latest, t.request(), 8);
        assertThat(spread.splits())
                .as("groups are not cut: four splits for eight readers")
                .hasSize(4);
        assertThat(RenderedReads.read(spread))
                .containsExactlyInAnyOrderElementsOf(
                        RenderedReads.read(planner.plan(latest, t.request())));
    }

    @Test
    void deletionVectorOfTheAnchorDropsTheSamePositionsFromEveryFile() {
        TestTable t = workedExample();
        ReadPlan plan = new ReadPlanner(t.store()).planLatest(t.request().withRowTracking());
        FileGroup g = plan.splits().get(0).groups().get(0);
        Path indexDir = t.store().paths().indexDir();
        IndexFileMeta index =
                new DeletionVectorIndexFile(indexDir)
                        .write(Map.of(g.anchor().fileName(), DeletionVector.of(1, 2)))
                        .get(0);
        FileGroup withDv =
                new FileGroup(
                        g.partition(),
                        g.range(),
                        g.anchor(),
                        g.files(),
                        g.sources(),
                        new DeletionFile(index.path(indexDir), index.deletionVectors().get(0)),
                        null);
        ReadPlan deleted = new ReadPlan(plan.fields(), List.of(new ReadSplit(List.of(withDv))));
        assertThat(RenderedReads.read(deleted))
                .containsExactly(
                        "id=1, b=P, c=11, _ROW_ID=0, _SEQUENCE_NUMBER=3",
                        "id=4, b=s, c=41, _ROW_ID=3, _SEQUENCE_NUMBER=3");
    }

    private static ManifestEntry file(String name, long first, long rows, long seq) {
        return new ManifestEntry(
                FileKind.ADD,
                BinaryRowCodec.emptyRow(),
                0,
                -1,
                DataFileMeta.builder(name)
                        .rowCount(rows)
                        .firstRowId(first)
                        .sequenceNumbers(seq, seq)
                        .build());
    }

    @Test
    void groupsAreTransitiveOverlapsInInputOrder() {
        ManifestEntry a = file("data-a-0.parquet", 10, 10, 2);
        ManifestEntry b = file("data-b-0.parquet", 0, 5, 1);
        ManifestEntry c = file("data-c-0.parquet", 10, 10, 1);
        ManifestEntry blob = file("data-d-0.blob", 12, 3, 1);
        ManifestEntry vectors = file("data-e-0.vector.avro", 12, 3, 1);
        assertThat(RowGroups.of(List.of(a, b, c))).containsExactly(List.of(b), List.of(a, c));
        assertThat(RowGroups.of(List.of(a, blob, b, c)))
                .containsExactly(List.of(b), List.of(a, blob, c));
        assertThat(RowGroups.of(List.of(a, vectors, b)))
                .containsExactly(List.of(b), List.of(a, vectors));
    }

    @Test
    void unequalOverlappingNormalRangesAreAnInvalidLayoutNamingTheFiles() {
        ManifestEntry a = file("data-a-0.parquet", 10, 10, 1);
        ManifestEntry sameStart = file("data-b-0.parquet", 10, 5, 2);
        ManifestEntry straddling = file("data-c-0.parquet", 18, 5, 2);
        assertThatThrownBy(() -> RowGroups.of(List.of(a, sameStart)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("data-a-0.parquet [10, 19]")
                .hasMessageContaining("data-b-0.parquet [10, 14]")
                .hasMessageContaining("equal or disjoint");
        assertThatThrownBy(() -> RowGroups.of(List.of(straddling, a)))
                .hasMessageContaining("data-c-0.parquet");
    }

    @Test
    void dedicatedFileOutsideOneNormalRangeIsAnInvalidLayout() {
        ManifestEntry g1 = file("data-a-0.parquet", 10, 10, 1);
        ManifestEntry g2 = file("data-b-0.parquet", 20, 5, 1);
        ManifestEntry spanning = file("data-x-1.blob", 17, 5, 2);
        ManifestEntry orphan = file("data-y-1.vector.lance", 25, 3, 2);
        assertThatThrownBy(() -> RowGroups.of(List.of(g1, g2, spanning)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("data-x-1.blob [17, 21]")
                .hasMessageContaining("data-a-0.parquet [10, 19] without lying inside it");
        assertThatThrownBy(() -> RowGroups.of(List.of(g1, orphan)))
                .hasMessageContaining("data-y-1.vector.lance")
                .hasMessageContaining("no normal data file");
    }

    @Test
    void notNullColumnWithoutProviderIsAClearError() {
        TestTable t = workedExample();
        DataField strict = new DataField(9, "strict", DataTypes.STRING().withNullable(false));
        List<ManifestEntry> live =
                t.store().files(t.store().latestSnapshot().orElseThrow()).liveFiles();
        List<ProviderSelection.Candidate> files =
                live.stream()
                        .map(e -> new ProviderSelection.Candidate(new Path("/x"), e.file()))
                        .toList();
        PartitionValues partition =
                PartitionValues.decoder(t.schema()).apply(live.get(0).partition());
        assertThatThrownBy(
                        () ->
                                ProviderSelection.of(
                                                files,
                                                List.of(),
                                                partition,
                                                t.store().schemas()::schema)
                                        .select(List.of(strict)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("'strict' is NOT NULL but no file");
    }
}
