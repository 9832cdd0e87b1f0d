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
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.testing.RenderedReads;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Narrow row selections skip what they do not need: a group of a Parquet file and an ORC file with
 * small, unaligned blocks is read with random row ranges and {@code _ROW_ID} filters, and every
 * read equals the full read restricted to the selected rows; blocks holding no selected row are not
 * even read (a corrupted middle block does not disturb a read that skips it).
 */
class RowSelectionSkipTest {

    private static final int ROWS = 16_000;
    private static final int[] BATCH_SIZES = {1, 7, 1000, 2048, 4999};

    @TempDir java.nio.file.Path dir;

    private TestTable table;
    private DataFileMeta parquet;
    private DataFileMeta orc;

    @BeforeEach
    void writeGroupWithUnalignedBlocks() {
        table =
                new TestTable(
                        dir,
                        List.of(
                                new DataField(0, "id", DataTypes.INT()),
                                new DataField(1, "name", DataTypes.STRING()),
                                new DataField(2, "score", DataTypes.DOUBLE())),
                        List.of(),
                        Map.of(
                                "file.format", "parquet",
                                "parquet.block.size", "4096",
                                "orc.stripe.size", "4096"));
        List<GenericRowData> base = new ArrayList<>();
        List<GenericRowData> renamed = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            base.add(GenericRowData.of(i, StringData.fromString("n" + i), (double) i));
            renamed.add(GenericRowData.of(StringData.fromString("r" + i)));
        }
        parquet = table.append(GenericRowData.of(), base).get(0).file();
        table.alter(SchemaChange.setOption("file.format", "orc"));
        orc = table.update(GenericRowData.of(), 0, List.of("name"), renamed).get(0).file();
    }

    @Test
    void randomSelectionsReadExactlyTheSelectedRows() {
        Random random = new Random(7);
        for (int q = 0; q < 40; q++) {
            List<RowRange> ranges = new ArrayList<>();
            for (int i = 0, count = 1 + random.nextInt(4); i < count; i++) {
                long first = random.nextInt(ROWS);
                ranges.add(new RowRange(first, Math.min(ROWS - 1, first + random.nextInt(3000))));
            }
            ReadRequest request = table.request().withColumns("_ROW_ID", "name", "score");
            List<String> expected = new ArrayList<>();
            for (RowRange range : RowRange.normalize(ranges)) {
                for (long id = range.first(); id <= range.last(); id++) {
                    expected.add(row(id));
                }
            }
            expected.sort(null);
            int batchSize = BATCH_SIZES[random.nextInt(BATCH_SIZES.length)];
            assertThat(read(request.withRowRanges(ranges), batchSize))
                    .as("ranges %s, batch size %d", ranges, batchSize)
                    .isEqualTo(expected);
            long[] ids = random.longs(3, 0, ROWS).toArray();
            Predicate lookup =
                    new Predicate.In(
                            SystemFields.ROW_ID,
                            Arrays.stream(ids).boxed().map(x -> (Object) x).toList());
            assertThat(read(request.withFilter(lookup), batchSize))
                    .as("ids %s", Arrays.toString(ids))
                    .containsExactlyElementsOf(
                            Arrays.stream(ids)
                                    .distinct()
                                    .sorted()
                                    .mapToObj(this::row)
                                    .sorted()
                                    .toList());
        }
    }

    @Test
    void blocksWithoutSelectedRowsAreNotRead() throws IOException {
        Path bucket = table.store().paths().dataFile("", 0, "x").getParent();
        BlockMetaData rowGroup = corruptMiddleRowGroup(new Path(bucket, parquet.fileName()));
        StripeInformation stripe = corruptMiddleStripe(new Path(bucket, orc.fileName()));
        ReadRequest request = table.request().withColumns("_ROW_ID", "name", "score");

        assertThatThrownBy(() -> read(request, 2048)).isNotNull();
        assertThat(
                        read(
                                request.withRowRanges(
                                        List.of(
                                                new RowRange(0, 0),
                                                new RowRange(ROWS - 1, ROWS - 1))),
                                2048))
                .containsExactly(row(0), row(ROWS - 1));
        assertThat(rowGroup.getRowCount()).isPositive();
        assertThat(stripe.getNumberOfRows()).isPositive();
    }

    private String row(long id) {
        return "_ROW_ID=" + id + ", name=r" + id + ", score=" + (double) id;
    }

    private List<String> read(ReadRequest request, int batchSize) {
        return read(table, request, batchSize);
    }

    /** The rows {@code request} reads from {@code table}, rendered and sorted. */
    static List<String> read(TestTable table, ReadRequest request, int batchSize) {
        ReadPlan plan = new ReadPlanner(table.store()).planLatest(request);
        List<String> out = new ArrayList<>();
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan.fields(), split, batchSize)) {
                for (ReadBatch b = reader.nextBatch(); b != null; b = reader.nextBatch()) {
                    for (int i = 0; i < b.size(); i++) {
                        out.add(RenderedReads.render(plan.rowType(), b.row(i)));
                    }
                }
            }
        }
        out.sort(null);
        return out;
    }

    /** Overwrites the bytes of a row group that is neither the first nor the last. */
    private static BlockMetaData corruptMiddleRowGroup(Path file) throws IOException {
        List<BlockMetaData> rowGroups;
        try (ParquetFileReader footer =
                ParquetFileReader.open(
                        HadoopInputFile.fromPath(
                                new org.apache.hadoop.fs.Path(file.toUri()),
                                new org.apache.hadoop.conf.Configuration()))) {
            rowGroups = footer.getRowGroups();
        }
        assertThat(rowGroups).hasSizeGreaterThan(2);
        BlockMetaData middle = rowGroups.get(rowGroups.size() / 2);
        garble(file, middle.getStartingPos(), middle.getCompressedSize());
        return middle;
    }

    /** Overwrites the bytes of a stripe that is neither the first nor the last. */
    private static StripeInformation corruptMiddleStripe(Path file) throws IOException {
        List<StripeInformation> stripes;
        try (Reader reader = OrcFiles.open(file, new java.io.File(file.toUri()).length())) {
            stripes = reader.getStripes();
        }
        assertThat(stripes).hasSizeGreaterThan(2);
        StripeInformation middle = stripes.get(stripes.size() / 2);
        garble(file, middle.getOffset(), middle.getLength());
        return middle;
    }

    /** Overwrites {@code length} bytes of {@code file} at {@code offset}. */
    static void garble(Path file, long offset, long length) throws IOException {
        try (RandomAccessFile out = new RandomAccessFile(new java.io.File(file.toUri()), "rw")) {
            out.seek(offset);
            byte[] garbage = new byte[(int) length];
            Arrays.fill(garbage, (byte) 0xA5);
            out.write(garbage);
        }
    }
}
