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

import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Parquet page skipping: a file of several row groups of many small pages, with columns whose page
 * boundaries differ (unique strings, a dictionary-encoded string, numbers), read with random row
 * selections equals the full read restricted to them; a page holding no selected row is not even
 * read (a corrupted middle page does not disturb a read that skips it).
 */
class PageSkipTest {

    private static final int ROWS = 12_000;
    private static final int[] BATCH_SIZES = {1, 5, 333, 2048};

    @TempDir java.nio.file.Path dir;

    private TestTable table;
    private DataFileMeta file;

    @BeforeEach
    void writeFileOfSmallPages() {
        table =
                new TestTable(
                        dir,
                        List.of(
                                new DataField(0, "id", DataTypes.INT()),
                                new DataField(1, "name", DataTypes.STRING()),
                                new DataField(2, "score", DataTypes.DOUBLE()),
                                new DataField(3, "tag", DataTypes.STRING())),
                        List.of(),
                        Map.of(
                                "file.format", "parquet",
                                "parquet.block.size", "32768",
                                "parquet.page.size", "512"));
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(
                    GenericRowData.of(
                            i,
                            StringData.fromString("name-" + i + "-" + "x".repeat(i % 13)),
                            (double) i / 4,
                            StringData.fromString("tag" + i % 5)));
        }
        file = table.append(GenericRowData.of(), rows).get(0).file();
    }

    @Test
    void randomSelectionsReadExactlyTheSelectedRows() throws IOException {
        List<BlockMetaData> rowGroups = rowGroups();
        assertThat(rowGroups).hasSizeGreaterThan(2);
        assertThat(offsets(rowGroups.get(1), 1).getPageCount()).isGreaterThan(3);
        Random random = new Random(11);
        ReadRequest request = table.request().withColumns("_ROW_ID", "name", "tag", "score", "id");
        for (int q = 0; q < 60; q++) {
            List<RowRange> ranges = new ArrayList<>();
            for (int i = 0, count = 1 + random.nextInt(6); i < count; i++) {
                long first = random.nextInt(ROWS);
                int length = random.nextBoolean() ? random.nextInt(3) : random.nextInt(2500);
                ranges.add(new RowRange(first, Math.min(ROWS - 1, first + length)));
            }
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
            long[] ids = random.longs(1 + random.nextInt(8), 0, ROWS).toArray();
            Predicate lookup =
                    new Predicate.In(
                            SystemFields.ROW_ID,
                            Arrays.stream(ids).boxed().map(x -> (Object) x).toList());
            assertThat(read(request.withFilter(lookup), batchSize))
                    .as("ids %s, batch size %d", Arrays.toString(ids), batchSize)
                    .containsExactlyElementsOf(
                            Arrays.stream(ids).distinct().mapToObj(this::row).sorted().toList());
        }
    }

    @Test
    void pagesWithoutSelectedRowsAreNotRead() throws IOException {
        BlockMetaData rowGroup = rowGroups().get(1);
        OffsetIndex names = offsets(rowGroup, 1);
        int middle = names.getPageCount() / 2;
        RowSelectionSkipTest.garble(
                path(), names.getOffset(middle), names.getCompressedPageSize(middle));
        long start = rowGroup.getRowIndexOffset();
        long last = start + rowGroup.getRowCount() - 1;
        long garbled = start + names.getFirstRowIndex(middle);
        ReadRequest request = table.request().withColumns("_ROW_ID", "name", "tag", "score", "id");

        assertThatThrownBy(() -> read(request, 2048)).isNotNull();
        assertThatThrownBy(
                        () ->
                                read(
                                        request.withRowRanges(
                                                List.of(new RowRange(garbled, garbled))),
                                        2048))
                .isNotNull();
        assertThat(
                        read(
                                request.withRowRanges(
                                        List.of(
                                                new RowRange(start, start + 1),
                                                new RowRange(last, last))),
                                2048))
                .containsExactlyInAnyOrder(row(start), row(start + 1), row(last));
    }

    private String row(long id) {
        return "_ROW_ID="
                + id
                + ", name=name-"
                + id
                + "-"
                + "x".repeat((int) (id % 13))
                + ", tag=tag"
                + id % 5
                + ", score="
                + (double) id / 4
                + ", id="
                + id;
    }

    private List<String> read(ReadRequest request, int batchSize) {
        return RowSelectionSkipTest.read(table, request, batchSize);
    }

    private Path path() {
        return new Path(table.store().paths().dataFile("", 0, "x").getParent(), file.fileName());
    }

    private List<BlockMetaData> rowGroups() throws IOException {
        try (ParquetFileReader reader = open()) {
            return reader.getRowGroups();
        }
    }

    private OffsetIndex offsets(BlockMetaData rowGroup, int column) throws IOException {
        try (ParquetFileReader reader = open()) {
            ColumnChunkMetaData chunk = rowGroup.getColumns().get(column);
            return reader.readOffsetIndex(chunk);
        }
    }

    private ParquetFileReader open() throws IOException {
        return ParquetFileReader.open(
                HadoopInputFile.fromPath(
                        new org.apache.hadoop.fs.Path(path().toUri()),
                        new org.apache.hadoop.conf.Configuration()));
    }
}
