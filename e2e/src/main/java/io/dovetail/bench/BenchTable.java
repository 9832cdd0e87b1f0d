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
package io.dovetail.bench;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

/**
 * An unpartitioned data-evolution table of {@code cols} columns ({@code id BIGINT}, then DOUBLE,
 * BIGINT and STRING columns in turn) for benchmarks, with row-range groups of {@link
 * #ROWS_PER_FILE} rows.
 */
final class BenchTable {

    static final int ROWS_PER_FILE = 500_000;
    private static final String USER = "dovetail-bench";
    private static final GenericRowData UNPARTITIONED = new GenericRowData(0);

    final TableStore store;
    private long identifier;

    private BenchTable(TableStore store) {
        this.store = store;
    }

    static BenchTable create(java.nio.file.Path dir, int cols) {
        TableStore store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        List<DataField> fields = new ArrayList<>();
        fields.add(new DataField(0, "id", DataTypes.BIGINT(), null, null));
        for (int c = 1; c < cols; c++) {
            fields.add(new DataField(c, "c" + c, typeOf(c), null, null));
        }
        Map<String, String> options = new LinkedHashMap<>();
        options.put("row-tracking.enabled", "true");
        options.put("data-evolution.enabled", "true");
        options.put("file.format", "parquet");
        options.put("target-file-row-num", String.valueOf(ROWS_PER_FILE));
        store.schemas().createTable(fields, List.of(), List.of(), options, null);
        return new BenchTable(store);
    }

    private static DataType typeOf(int column) {
        switch (column % 3) {
            case 0:
                return DataTypes.STRING();
            case 1:
                return DataTypes.DOUBLE();
            default:
                return DataTypes.BIGINT();
        }
    }

    /** Appends {@code rows} rows in one commit; returns the bytes written. */
    long append(long rows) {
        TableSchema schema = store.latestSchema();
        int cols = schema.fields().size();
        List<ManifestEntry> files;
        try (DataFileWriter writer =
                DataFileWriter.forAppend(store.paths(), schema, UNPARTITIONED)) {
            GenericRowData row = new GenericRowData(cols);
            for (long id = 0; id < rows; id++) {
                row.setField(0, id);
                for (int c = 1; c < cols; c++) {
                    row.setField(c, value(c, id));
                }
                writer.write(row);
            }
            files = writer.finish();
        }
        commit(files);
        return bytes(files);
    }

    /**
     * Rewrites column {@code column} for every row: one partial-column file per row-range group.
     * Returns the bytes written.
     */
    long updateWholeColumn(String column, double newValueBase) {
        TableSchema schema = store.latestSchema();
        Snapshot latest = store.latestSnapshot().orElseThrow();
        List<ManifestEntry> updates = new ArrayList<>();
        GenericRowData row = new GenericRowData(1);
        for (ManifestEntry group : store.files(latest).liveFiles()) {
            if (group.file().writeCols() != null) {
                continue;
            }
            long first = group.file().firstRowId();
            try (DataFileWriter writer =
                    DataFileWriter.forPartialColumns(
                            store.paths(), schema, List.of(column), UNPARTITIONED)) {
                for (long r = 0; r < group.file().rowCount(); r++) {
                    row.setField(0, newValueBase + first + r);
                    writer.write(row);
                }
                for (ManifestEntry file : writer.finish()) {
                    updates.add(withFirstRowId(file, first));
                }
            }
        }
        new TableCommit(store)
                .commit(CommitRequest.columnUpdate(USER, ++identifier, latest.id(), updates));
        return bytes(updates);
    }

    /**
     * Rewrites {@code columns} for every row, one partial-column file per row-range group, with
     * values derived from {@code salt}.
     */
    void updateColumns(List<String> columns, long salt) {
        TableSchema schema = store.latestSchema();
        Snapshot latest = store.latestSnapshot().orElseThrow();
        int[] indexes = columns.stream().mapToInt(c -> schema.fieldNames().indexOf(c)).toArray();
        List<ManifestEntry> updates = new ArrayList<>();
        GenericRowData row = new GenericRowData(columns.size());
        for (ManifestEntry group : store.files(latest).liveFiles()) {
            if (group.file().writeCols() != null) {
                continue;
            }
            long first = group.file().firstRowId();
            try (DataFileWriter writer =
                    DataFileWriter.forPartialColumns(
                            store.paths(), schema, columns, UNPARTITIONED)) {
                for (long r = 0; r < group.file().rowCount(); r++) {
                    for (int c = 0; c < indexes.length; c++) {
                        row.setField(c, value(indexes[c], first + r + salt));
                    }
                    writer.write(row);
                }
                for (ManifestEntry file : writer.finish()) {
                    updates.add(withFirstRowId(file, first));
                }
            }
        }
        new TableCommit(store)
                .commit(CommitRequest.columnUpdate(USER, ++identifier, latest.id(), updates));
    }

    private static ManifestEntry withFirstRowId(ManifestEntry file, long first) {
        return new ManifestEntry(
                file.kind(),
                file.partition(),
                file.bucket(),
                file.totalBuckets(),
                file.file().toBuilder().firstRowId(first).build());
    }

    /**
     * Sets DOUBLE column {@code column} of {@code count} random rows through {@link ColumnUpdater}
     * (one partial-column file per touched group, untouched values read back) and commits it.
     * Returns the bytes written.
     */
    long updateRandomRows(String column, long count, long seed) {
        Snapshot latest = store.latestSnapshot().orElseThrow();
        ColumnUpdater updater = ColumnUpdater.on(store, latest, List.of(column));
        List<ManifestEntry> files =
                updater.write(randomRows(latest.nextRowId(), count, new SplittableRandom(seed)));
        new TableCommit(store)
                .commit(CommitRequest.columnUpdate(USER, ++identifier, latest.id(), files));
        return bytes(files);
    }

    /**
     * {@code count} distinct row ids below {@code rows}, each subset equally likely, in ascending
     * order (selection sampling), each with a new value; the value row is reused.
     */
    private static Iterator<RowUpdate> randomRows(long rows, long count, SplittableRandom random) {
        GenericRowData values = new GenericRowData(1);
        return new Iterator<>() {
            private long rowId = -1;
            private long left = count;

            @Override
            public boolean hasNext() {
                return left > 0;
            }

            @Override
            public RowUpdate next() {
                if (left == 0) {
                    throw new NoSuchElementException();
                }
                do {
                    rowId++;
                } while (random.nextLong(rows - rowId) >= left);
                left--;
                values.setField(0, random.nextDouble());
                return new RowUpdate(rowId, values);
            }
        };
    }

    private void commit(List<ManifestEntry> files) {
        new TableCommit(store).commit(CommitRequest.append(USER, ++identifier, files));
    }

    private static Object value(int column, long id) {
        switch (column % 3) {
            case 0:
                return StringData.fromString("value-" + (id * 31 + column) % 100_000);
            case 1:
                return id * 0.5 + column;
            default:
                return id * column;
        }
    }

    private static long bytes(List<ManifestEntry> files) {
        return files.stream().mapToLong(f -> f.file().fileSize()).sum();
    }
}
