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

import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.types.DataField;

import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.LongColumnVector;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one group: its files in lockstep, a batch at a time (never across a block of any file),
 * stitched by position at the column-vector level. Each output column borrows the vector of its
 * provider file (wrapped in a {@link CastVector} only when the column's type changed); a column no
 * file wrote is an all-NULL vector; a BLOB column of {@code .blob} files reads each value only when
 * asked for ({@link BlobColumnReader}); VECTOR columns of vector-store files come from one reader
 * per bunch ({@link VectorColumnsReader}); partition columns and {@code _SEQUENCE_NUMBER} are
 * constants ({@link ConstantVector}) and {@code _ROW_ID} is computed. The anchor's deletion vector
 * and the selected row ranges become the batch's selection, applied identically to every column so
 * all files stay aligned.
 */
final class GroupReader implements AutoCloseable {

    private static final ColumnVector NULLS = i -> true;

    private final FileGroup group;
    private final int batchSize;
    private final List<FileColumnsReader> readers = new ArrayList<>(); // read in lockstep
    // normal files; null: dedicated
    private final List<FileColumnsReader> byFile = new ArrayList<>();
    private final Map<List<Integer>, VectorColumnsReader> vectorBunches = new HashMap<>();
    private final List<CastVector> casts = new ArrayList<>();
    private final List<RowIdVector> rowIds = new ArrayList<>();
    @Nullable private final DeletionVector deletions;
    private final ReadBatch batch;
    private long position;
    private int nextRange; // the first selected range that may hold a position at or after position

    GroupReader(FileGroup group, List<DataField> fields, int batchSize) {
        this.group = group;
        this.batchSize = batchSize;
        List<RowRange> positions = null;
        if (group.selection() != null) {
            positions = new ArrayList<>();
            for (RowRange range : group.selection()) {
                positions.add(
                        new RowRange(
                                range.first() - group.range().first(),
                                range.last() - group.range().first()));
            }
        }
        try {
            for (GroupFile file : group.files()) {
                FileColumnsReader reader =
                        DataFileKinds.isDedicated(file.meta().fileName())
                                ? null
                                : FileColumnsReader.open(file, batchSize, positions);
                byFile.add(reader);
                if (reader != null) {
                    readers.add(reader);
                }
            }
            ColumnVector[] vectors = new ColumnVector[fields.size()];
            for (int i = 0; i < fields.size(); i++) {
                vectors[i] = vector(fields.get(i), group.sources().get(i));
            }
            this.deletions = group.deletionFile() == null ? null : group.deletionFile().read();
            this.batch = new ReadBatch(new VectorizedColumnBatch(vectors), batchSize);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private ColumnVector vector(DataField field, FieldSource source) {
        if (source instanceof FieldSource.FromFile f) {
            ColumnVector stored = byFile.get(f.file()).vector(f.column());
            ColumnVector v = CastVector.of(stored, f.stored().type(), field.type(), field.name());
            if (v instanceof CastVector cast) {
                casts.add(cast);
            }
            return v;
        } else if (source instanceof FieldSource.RowId r) {
            RowIdVector v =
                    new RowIdVector(
                            r.file() < 0
                                    ? null
                                    : (LongColumnVector)
                                            byFile.get(r.file()).vector(r.physicalColumn()));
            rowIds.add(v);
            return v;
        } else if (source instanceof FieldSource.FromBlobFiles b) {
            List<GroupFile> files = new ArrayList<>();
            b.files().forEach(i -> files.add(group.files().get(i)));
            BlobColumnReader reader =
                    new BlobColumnReader(
                            files, group.range().first(), group.range().count(), b.asDescriptors());
            readers.add(reader);
            return reader.vector(0);
        } else if (source instanceof FieldSource.FromVectorFiles v) {
            VectorColumnsReader reader = vectorBunches.get(v.files());
            if (reader == null) {
                List<GroupFile> files = new ArrayList<>();
                v.files().forEach(i -> files.add(group.files().get(i)));
                reader =
                        new VectorColumnsReader(
                                files, group.range().first(), group.range().count(), batchSize);
                vectorBunches.put(v.files(), reader);
                readers.add(reader);
            }
            return reader.vector(v.column());
        } else if (source instanceof FieldSource.SequenceNumber s) {
            return new ConstantVector(s.value());
        } else if (source instanceof FieldSource.PartitionValue p) {
            return new ConstantVector(p.value());
        }
        return NULLS;
    }

    /**
     * The next batch with at least one selected row, or null when the group is done. With selected
     * row ranges, the files skip to the next selected position together and a batch ends at the
     * last selected position it can reach.
     */
    @Nullable
    ReadBatch next() {
        long total = group.range().count();
        while (position < total) {
            long rows = Math.min(batchSize, total - position);
            if (group.selection() != null) {
                long next = nextSelected();
                if (next == total) {
                    position = total;
                    return null;
                }
                if (next > position) {
                    for (FileColumnsReader reader : readers) {
                        reader.skip(next - position);
                    }
                    position = next;
                    continue;
                }
                rows = lastSelectedBefore(position + rows) - position + 1;
            }
            for (FileColumnsReader reader : readers) {
                rows = Math.min(rows, reader.rowsLeftInBlock());
            }
            int n = (int) rows;
            for (FileColumnsReader reader : readers) {
                reader.read(n);
            }
            casts.forEach(CastVector::invalidate);
            long firstRowId = group.range().first() + position;
            rowIds.forEach(v -> v.setFirstRowId(firstRowId));
            batch.reset(n);
            select(firstRowId, n);
            position += n;
            if (batch.size() > 0) {
                return batch;
            }
        }
        return null;
    }

    /**
     * The first selected position at or after {@code position}, or the range's row count when none
     * is left; moves {@code nextRange} past the ranges before it.
     */
    private long nextSelected() {
        List<RowRange> selection = group.selection();
        long rowId = group.range().first() + position;
        while (nextRange < selection.size() && selection.get(nextRange).last() < rowId) {
            nextRange++;
        }
        return nextRange == selection.size()
                ? group.range().count()
                : Math.max(rowId, selection.get(nextRange).first()) - group.range().first();
    }

    /** The last selected position before {@code end}, given one at {@code position}. */
    private long lastSelectedBefore(long end) {
        List<RowRange> selection = group.selection();
        long endRowId = group.range().first() + end;
        long last = group.range().first() + position;
        for (int i = nextRange; i < selection.size() && selection.get(i).first() < endRowId; i++) {
            last = Math.min(selection.get(i).last(), endRowId - 1);
        }
        return last - group.range().first();
    }

    /**
     * Selects the batch's positions inside the selected row ranges (all without ranges) that the
     * deletion vector does not delete.
     */
    private void select(long firstRowId, int n) {
        if (deletions == null && group.selection() == null) {
            batch.selectAll();
            return;
        }
        RowRange decoded = RowRange.ofCount(firstRowId, n);
        for (RowRange range :
                group.selection() == null
                        ? List.of(decoded)
                        : decoded.intersect(group.selection())) {
            for (long rowId = range.first(); rowId <= range.last(); rowId++) {
                int i = (int) (rowId - firstRowId);
                if (deletions == null || !deletions.contains(position + i)) {
                    batch.select(i);
                }
            }
        }
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (FileColumnsReader reader : readers) {
            try {
                reader.close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        readers.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
