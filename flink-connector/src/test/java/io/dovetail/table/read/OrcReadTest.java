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

import io.dovetail.table.format.OrcFiles;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.testing.RenderedReads;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.write.DataFileRoundTripTest;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.apache.orc.Reader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** ORC data files: read alone, and stitched with Parquet files of the same groups. */
class OrcReadTest {

    private static final GenericRowData NO_PARTITION = GenericRowData.of();

    private static final List<DataField> FIELDS =
            List.of(
                    new DataField(0, "id", DataTypes.INT()),
                    new DataField(1, "name", DataTypes.STRING()),
                    new DataField(2, "score", DataTypes.DOUBLE()),
                    new DataField(3, "tags", DataTypes.ARRAY(DataTypes.STRING())));

    @TempDir java.nio.file.Path dir;

    @Test
    void everyTypeReadsFromOrcAsFromParquet() {
        List<String> parquet = everyType("parquet");
        List<String> orc = everyType("orc");

        assertThat(orc).hasSize(3);
        assertThat(orc.subList(0, 2)).isEqualTo(parquet.subList(0, 2));
        // ORC 1.9's writer (Paimon's too) stores a pre-1970 timestamp with a fraction of a second
        // one second later: what both write is what both read back
        assertThat(orc.get(2))
                .isEqualTo(
                        parquet.get(2)
                                .replace(
                                        "ts3=1969-12-31T23:59:59.999,",
                                        "ts3=1970-01-01T00:00:00.999,")
                                .replace(
                                        "ts6=1969-12-31T23:59:59.999999,",
                                        "ts6=1970-01-01T00:00:00.999999999,")
                                .replace(
                                        "ts9=1969-12-31T23:59:59.999999999,",
                                        "ts9=1970-01-01T00:00:00.999999999,"));
        assertThat(orc.get(0))
                .contains("c=ab,")
                .contains("ts9=2024-02-29T13:14:15.123456789")
                .contains("nested={x=5, y=inner}")
                .contains("arr=[1, null, 3]");
    }

    private List<String> everyType(String format) {
        TestTable t =
                new TestTable(
                        dir.resolve(format),
                        DataFileRoundTripTest.FIELDS,
                        List.of(),
                        Map.of("file.format", format));
        List<ManifestEntry> files =
                t.append(
                        NO_PARTITION,
                        List.of(
                                DataFileRoundTripTest.fullRow(),
                                DataFileRoundTripTest.nullRow(),
                                DataFileRoundTripTest.edgeRow()));
        assertThat(files).singleElement().satisfies(f -> assertFormat(f, format));
        return t.read(t.request());
    }

    @Test
    void groupsMixParquetAndOrcFiles() {
        TestTable t = new TestTable(dir, FIELDS, List.of(), Map.of("file.format", "parquet"));
        t.append(NO_PARTITION, List.of(row(1, "a", 1.0, "x"), row(2, "b", 2.0)));
        t.alter(SchemaChange.setOption("file.format", "orc"));
        t.append(NO_PARTITION, List.of(row(3, "c", 3.0), row(4, "d", 4.0, "y", "z")));
        List<ManifestEntry> orcUpdate =
                t.update(NO_PARTITION, 0, List.of("name"), names("A", null));
        t.alter(SchemaChange.setOption("file.format", "parquet"));
        List<ManifestEntry> parquetUpdate =
                t.update(NO_PARTITION, 2, List.of("score", "name"), scoresAndNames(30.5, "C"));

        assertThat(orcUpdate).singleElement().satisfies(f -> assertFormat(f, "orc"));
        assertThat(parquetUpdate).singleElement().satisfies(f -> assertFormat(f, "parquet"));
        assertThat(t.read(t.request()))
                .containsExactly(
                        "id=1, name=A, score=1.0, tags=[x]",
                        "id=2, name=null, score=2.0, tags=[]",
                        "id=3, name=C, score=30.5, tags=[]",
                        "id=4, name=C, score=30.5, tags=[y, z]");
    }

    @Test
    void filesWithUnalignedBlocksStayInLockstep() throws Exception {
        int rows = 16_000;
        TestTable t =
                new TestTable(
                        dir,
                        FIELDS,
                        List.of(),
                        Map.of(
                                "file.format", "parquet",
                                "parquet.block.size", "4096",
                                "orc.stripe.size", "4096"));
        List<GenericRowData> base = new ArrayList<>();
        List<GenericRowData> renamed = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            base.add(row(i, "n" + i, i));
            renamed.add(GenericRowData.of(StringData.fromString("r" + i)));
            expected.add("id=" + i + ", name=r" + i + ", score=" + (double) i + ", tags=[]");
        }
        DataFileMeta parquet = t.append(NO_PARTITION, base).get(0).file();
        t.alter(SchemaChange.setOption("file.format", "orc"));
        DataFileMeta orc = t.update(NO_PARTITION, 0, List.of("name"), renamed).get(0).file();

        Path bucket = t.store().paths().dataFile("", 0, "x").getParent();
        try (ParquetFileReader footer =
                ParquetFileReader.open(
                        HadoopInputFile.fromPath(
                                new org.apache.hadoop.fs.Path(
                                        new Path(bucket, parquet.fileName()).toUri()),
                                new org.apache.hadoop.conf.Configuration()))) {
            assertThat(footer.getRowGroups()).hasSizeGreaterThan(2);
        }
        try (Reader reader = OrcFiles.open(new Path(bucket, orc.fileName()), orc.fileSize())) {
            assertThat(reader.getStripes()).hasSizeGreaterThan(2);
        }
        expected.sort(null);
        ReadPlan plan = new ReadPlanner(t.store()).planLatest(t.request());
        for (int batchSize : new int[] {1000, 2048, 4999}) {
            List<String> read = new ArrayList<>();
            for (ReadSplit split : plan.splits()) {
                try (SplitReader reader = SplitReader.open(plan.fields(), split, batchSize)) {
                    for (ReadBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                        for (int i = 0; i < b.size(); i++) {
                            read.add(RenderedReads.render(plan.rowType(), b.row(i)));
                        }
                    }
                }
            }
            read.sort(null);
            assertThat(read).as("batch size %d", batchSize).isEqualTo(expected);
        }
    }

    private static void assertFormat(ManifestEntry file, String format) {
        assertThat(file.file().fileName()).matches("data-[0-9a-f-]{36}-0\\." + format);
    }

    private static GenericRowData row(int id, String name, double score, String... tags) {
        Object[] values = new Object[tags.length];
        for (int i = 0; i < tags.length; i++) {
            values[i] = StringData.fromString(tags[i]);
        }
        return GenericRowData.of(
                id, StringData.fromString(name), score, new GenericArrayData(values));
    }

    private static List<GenericRowData> names(String... names) {
        List<GenericRowData> rows = new ArrayList<>();
        for (String name : names) {
            rows.add(GenericRowData.of(name == null ? null : StringData.fromString(name)));
        }
        return rows;
    }

    private static List<GenericRowData> scoresAndNames(double score, String name) {
        return List.of(
                GenericRowData.of(score, StringData.fromString(name)),
                GenericRowData.of(score, StringData.fromString(name)));
    }
}
