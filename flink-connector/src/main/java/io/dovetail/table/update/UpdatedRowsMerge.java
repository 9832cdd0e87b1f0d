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
package io.dovetail.table.update;

import io.dovetail.table.TableStore;
import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.PartitionValues;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.read.StagedFiles;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.stream.IntStream;

/**
 * Merges partial-column files row by row onto snapshot L: each write (the partial-column files one
 * writer wrote over one row range against some earlier snapshot, with the row ids it gave new
 * values; its other positions hold that snapshot's values) contributes only the rows it updated, a
 * later write winning a row both updated, and every other position keeps its value in L. The result
 * is one new partial-column file per live range of L that a write touched ({@link ColumnUpdater},
 * on L), so writes that a compaction since their snapshot moved into one range, several writes of
 * one range, and writes that another commit of the same rows overtook all become files planned on
 * L.
 *
 * <p>Holds one read batch per write whose rows are being merged: the writes of one range at a time.
 */
public final class UpdatedRowsMerge {

    /**
     * Staged files of one write over one row range, all starting at the range's first row id and
     * covering it: a normal partial-column file with the {@code .blob} and vector-store files
     * written over the same rows, or only the latter (an update of BLOB or VECTOR columns alone);
     * and the row ids of the range it gave new values.
     */
    public record Write(List<ManifestEntry> files, Roaring64NavigableMap rows) {

        public Write {
            files = List.copyOf(files);
            if (files.isEmpty()) {
                throw Errors.invalidArgument("A staged write has at least one file.");
            }
            RowRange range = null;
            for (ManifestEntry file : files) {
                if (range == null && file.file().firstRowId() != null) {
                    range = RowRange.of(file.file());
                }
                if (file.file().firstRowId() == null || !RowRange.of(file.file()).equals(range)) {
                    throw Errors.invalidArgument(
                            "The files of a staged write cover one row range, "
                                    + range
                                    + ", but "
                                    + file.file().fileName()
                                    + " does not");
                }
            }
        }

        public RowRange range() {
            return RowRange.of(files.get(0).file());
        }

        /** The partition the write's files are in. */
        byte[] partition() {
            return files.get(0).partition();
        }
    }

    private final TableStore store;
    private final Snapshot latest;
    private final List<String> columns;

    private UpdatedRowsMerge(TableStore store, Snapshot latest, List<String> columns) {
        this.store = store;
        this.latest = latest;
        this.columns = List.copyOf(columns);
    }

    /** A merge of writes of {@code columns} onto {@code latest}. */
    public static UpdatedRowsMerge onto(TableStore store, Snapshot latest, List<String> columns) {
        return new UpdatedRowsMerge(store, latest, columns);
    }

    /**
     * Writes the merged files of {@code writes} (in the order they were written: a later one wins)
     * and returns their ADD entries, uncommitted. On failure nothing is left behind. A row id in no
     * live range of L is a stale row id.
     */
    public List<ManifestEntry> write(List<Write> writes) {
        TableSchema schema = store.latestSchema();
        List<DataField> fields = new ArrayList<>();
        columns.forEach(c -> fields.add(schema.field(c).orElseThrow()));
        fields.add(SystemFields.ROW_ID);
        List<Cursor> waiting = new ArrayList<>();
        for (int i = 0; i < writes.size(); i++) {
            waiting.add(new Cursor(writes.get(i), i, fields));
        }
        waiting.sort(Comparator.comparingLong((Cursor c) -> c.write.range().first()));
        PriorityQueue<Cursor> open =
                new PriorityQueue<>(
                        Comparator.comparingLong(Cursor::rowId)
                                .thenComparing(
                                        Comparator.comparingInt((Cursor c) -> c.order).reversed()));
        ProjectedRowData values =
                ProjectedRowData.from(IntStream.range(0, columns.size()).toArray());
        SnapshotFiles files = store.files(latest);
        try (ColumnUpdater.Writer writer = ColumnUpdater.on(store, latest, columns).writer()) {
            int next = 0;
            while (true) {
                long until = open.isEmpty() ? Long.MAX_VALUE : open.peek().rowId();
                while (next < waiting.size()
                        && (open.isEmpty() || waiting.get(next).write.range().first() <= until)) {
                    Cursor cursor = waiting.get(next++);
                    if (cursor.open(files, schema)) {
                        open.add(cursor);
                        until = open.peek().rowId();
                    }
                }
                if (open.isEmpty()) {
                    break;
                }
                Cursor winner = open.poll();
                long rowId = winner.rowId();
                writer.add(rowId, values.replaceRow(winner.row()));
                List<Cursor> advanced = new ArrayList<>();
                advanced.add(winner);
                while (!open.isEmpty() && open.peek().rowId() == rowId) {
                    advanced.add(open.poll());
                }
                for (Cursor cursor : advanced) {
                    if (cursor.advance()) {
                        open.add(cursor);
                    }
                }
            }
            return writer.finish();
        } finally {
            waiting.forEach(Cursor::close);
        }
    }

    /** The updated rows of one write, in row-id order. */
    private final class Cursor implements AutoCloseable {

        private final Write write;
        private final int order;
        private final List<DataField> fields;
        @Nullable private SplitReader reader;
        @Nullable private ReadBatch batch;
        private int position;

        Cursor(Write write, int order, List<DataField> fields) {
            this.write = write;
            this.order = order;
            this.fields = fields;
        }

        /** Opens the write's files; false if it updated no row. */
        boolean open(SnapshotFiles files, TableSchema schema) {
            FileGroup group =
                    StagedFiles.group(
                            files,
                            write.files(),
                            PartitionValues.decoder(schema).apply(write.partition()),
                            store.schemas()::schema,
                            fields);
            reader =
                    SplitReader.open(
                            fields, new ReadSplit(List.of(group)), SplitReader.DEFAULT_BATCH_SIZE);
            position = -1;
            return advance();
        }

        long rowId() {
            return batch.row(position).getLong(columns.size());
        }

        RowData row() {
            return batch.row(position);
        }

        /** Moves to the next updated row; false (and closed) after the last. */
        boolean advance() {
            while (true) {
                position++;
                while (batch == null || position >= batch.size()) {
                    batch = reader.nextBatch();
                    position = 0;
                    if (batch == null) {
                        close();
                        return false;
                    }
                }
                if (write.rows().contains(rowId())) {
                    return true;
                }
            }
        }

        @Override
        public void close() {
            if (reader != null) {
                reader.close();
                reader = null;
            }
        }
    }
}
