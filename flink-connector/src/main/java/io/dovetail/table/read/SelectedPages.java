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

import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The data pages of one column of a Parquet row group read with page skipping ({@code
 * ParquetFileReader.readFilteredRowGroup}): only the pages overlapping the rows read, in order,
 * each with the rows it holds (from the column's offset index, as the filtered read chose them).
 * Flink's column readers read pages one after another as if they were contiguous, so a reader may
 * only read on while the next page continues its rows ({@link #reachable}); otherwise {@link
 * #dropBefore} moves past the pages before a row and a new reader starts at the page holding it.
 * The dictionary page is kept for every new reader.
 */
final class SelectedPages implements PageReader {

    private final PageReader pages;
    @Nullable private final DictionaryPage dictionary;
    private final long[] firstRows;
    private final long[] lastRows;
    private int next; // the next page handed to a reader

    SelectedPages(PageReader pages, OffsetIndex offsets, RowRanges read, long rowGroupRows)
            throws IOException {
        this.pages = pages;
        DictionaryPage page = pages.readDictionaryPage();
        this.dictionary = page == null ? null : page.copy();
        List<long[]> kept = new ArrayList<>();
        for (int p = 0; p < offsets.getPageCount(); p++) {
            long first = offsets.getFirstRowIndex(p);
            long last = offsets.getLastRowIndex(p, rowGroupRows);
            if (read.isOverlapping(first, last)) {
                kept.add(new long[] {first, last});
            }
        }
        this.firstRows = kept.stream().mapToLong(r -> r[0]).toArray();
        this.lastRows = kept.stream().mapToLong(r -> r[1]).toArray();
    }

    /** This column as the page store a Flink column reader is created from. */
    PageReadStore asStore(long rowGroupRows) {
        return new PageReadStore() {
            @Override
            public PageReader getPageReader(org.apache.parquet.column.ColumnDescriptor descriptor) {
                return SelectedPages.this;
            }

            @Override
            public long getRowCount() {
                return rowGroupRows;
            }
        };
    }

    /** The first row (in the row group) of the next page a reader gets. */
    long nextPageFirstRow() {
        if (next == firstRows.length) {
            throw new IllegalStateException("no page left");
        }
        return firstRows[next];
    }

    /**
     * Whether a reader whose next value is row {@code from} reaches row {@code to} by reading on:
     * every row between them is in the page it reads or in pages that follow without a gap.
     */
    boolean reachable(long from, long to) {
        long covered = from;
        int page = next > 0 && lastRows[next - 1] >= from ? next - 1 : next;
        for (; page < firstRows.length && covered <= to; page++) {
            if (firstRows[page] > covered) {
                return false;
            }
            covered = Math.max(covered, lastRows[page] + 1);
        }
        return covered > to;
    }

    /**
     * Drops the pages not yet handed out that end before {@code row}; returns the first row of the
     * page a new reader starts at, which holds {@code row}.
     */
    long dropBefore(long row) {
        while (next < firstRows.length && lastRows[next] < row) {
            pages.readPage();
            next++;
        }
        if (next == firstRows.length || firstRows[next] > row) {
            throw new IllegalStateException("row " + row + " is in no page read");
        }
        return firstRows[next];
    }

    @Override
    @Nullable
    public DictionaryPage readDictionaryPage() {
        return dictionary;
    }

    @Override
    public long getTotalValueCount() {
        return pages.getTotalValueCount();
    }

    @Override
    public DataPage readPage() {
        next++;
        return pages.readPage();
    }
}
