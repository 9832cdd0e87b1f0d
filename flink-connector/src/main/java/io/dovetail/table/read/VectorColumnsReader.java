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

import io.dovetail.table.error.Errors;
import io.dovetail.table.format.vector.VectorFileFormat;
import io.dovetail.table.format.vector.VectorFileReader;
import io.dovetail.table.manifest.RowRange;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.columnar.vector.ArrayColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The VECTOR columns of one bunch of a group's vector-store files (the files that wrote one set of
 * columns), read over the group's range as a chain: at each position the newest file starting there
 * (by {@code maxSequenceNumber}; older files at that start are skipped), then the position after
 * it, until the range ends. A read restricted to some rows gets only the files overlapping them, so
 * the chain may have gaps; reading a row of a gap, or a chain running past the range, is an invalid
 * layout naming the files. Each file (and gap) is a block, so reads in lockstep with the group's
 * other files never cross one, and a file is opened only when a row of it is read.
 */
final class VectorColumnsReader implements FileColumnsReader {

    private final List<Segment> chain = new ArrayList<>();
    private final List<String> fileNames;
    private final int batchSize;
    private final List<CurrentVector> vectors = new ArrayList<>();
    private int segment;
    private long positionInSegment;
    @Nullable private VectorFileReader reader;

    /**
     * Reads {@code files} (of one bunch, possibly only those overlapping the rows a read selects)
     * over the range of {@code rows} from {@code firstRowId}.
     */
    VectorColumnsReader(List<GroupFile> files, long firstRowId, long rows, int batchSize) {
        this.batchSize = batchSize;
        List<GroupFile> sorted = new ArrayList<>(files);
        sorted.sort(
                Comparator.comparingLong((GroupFile f) -> f.meta().firstRowId())
                        .thenComparing(
                                Comparator.comparingLong(
                                                (GroupFile f) -> f.meta().maxSequenceNumber())
                                        .reversed()));
        this.fileNames = sorted.stream().map(f -> f.meta().fileName()).toList();
        long end = firstRowId + rows;
        long position = firstRowId;
        for (GroupFile candidate : sorted) {
            long start = candidate.meta().firstRowId();
            if (start < position) {
                continue; // an older file at a start already taken, or inside a chosen file
            }
            if (start > position) {
                chain.add(new Segment(null, position, start - position));
            }
            chain.add(new Segment(candidate, start, candidate.meta().rowCount()));
            position = start + candidate.meta().rowCount();
        }
        if (position > end) {
            throw Errors.invalidLayout(
                    "The vector-store files "
                            + fileNames
                            + " of the row range "
                            + RowRange.ofCount(firstRowId, rows)
                            + " run past its end to row id "
                            + (position - 1)
                            + "; vector-store files must tile their row range.");
        }
        if (position < end) {
            chain.add(new Segment(null, position, end - position));
        }
        for (int c = 0; c < files.get(0).columns().size(); c++) {
            vectors.add(new CurrentVector(c));
        }
    }

    @Override
    public ColumnVector vector(int column) {
        return vectors.get(column);
    }

    @Override
    public long rowsLeftInBlock() {
        while (segment < chain.size() && positionInSegment == chain.get(segment).rows()) {
            nextSegment();
        }
        return segment == chain.size() ? 0 : chain.get(segment).rows() - positionInSegment;
    }

    @Override
    public void read(int rows) {
        rowsLeftInBlock();
        Segment current = chain.get(segment);
        if (current.file() == null) {
            throw Errors.invalidLayout(
                    "No vector-store file of "
                            + fileNames
                            + " holds row ids "
                            + RowRange.ofCount(current.first(), current.rows())
                            + "; vector-store files must tile their row range.");
        }
        if (reader == null) {
            GroupFile file = current.file();
            reader =
                    VectorFileFormat.ofFileName(file.meta().fileName())
                            .open(file.path(), file.meta().fileSize(), file.columns(), batchSize);
            if (positionInSegment > 0) {
                reader.skip(positionInSegment);
            }
        }
        reader.read(rows);
        positionInSegment += rows;
    }

    @Override
    public void skip(long rows) {
        long left = rows;
        while (left > 0) {
            long inSegment = rowsLeftInBlock();
            if (left >= inSegment) {
                left -= inSegment;
                positionInSegment += inSegment;
                nextSegment();
            } else {
                positionInSegment += left;
                if (reader != null) {
                    reader.skip(left);
                }
                left = 0;
            }
        }
    }

    private void nextSegment() {
        closeReader();
        segment++;
        positionInSegment = 0;
    }

    private void closeReader() {
        if (reader != null) {
            VectorFileReader closing = reader;
            reader = null;
            closing.close();
        }
    }

    @Override
    public void close() {
        closeReader();
    }

    /** Rows {@code first ..} of the range, held by {@code file} (null: a gap no file covers). */
    private record Segment(@Nullable GroupFile file, long first, long rows) {}

    /** Column {@code column} of the file being read: the group's readers hold it once. */
    private final class CurrentVector implements ArrayColumnVector {

        private final int column;

        CurrentVector(int column) {
            this.column = column;
        }

        @Override
        public boolean isNullAt(int i) {
            return reader.vector(column).isNullAt(i);
        }

        @Override
        public ArrayData getArray(int i) {
            return ((ArrayColumnVector) reader.vector(column)).getArray(i);
        }
    }
}
