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
package io.dovetail.e2e.interop;

import io.dovetail.e2e.paimon.PaimonWorkbench;
import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dovetail creates a data-evolution table, writes Parquet files into it and commits appends,
 * partial-column updates and schema changes; Paimon 1.4.2 must open it, list the same files with
 * the same metadata, and read the rows (with {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}) the
 * model predicts. Paimon then appends and updates on top, and Dovetail must see exactly what Paimon
 * sees.
 */
class DovetailToPaimonTest {

    private static final String TABLE = "made_by_dovetail";
    private static final String USER = "dovetail-interop";

    @TempDir java.nio.file.Path warehouse;

    /** Expected table state: row id to column values, and the last snapshot writing each row. */
    private final Map<Long, Rows.Row> model = new TreeMap<>();

    private final Map<Long, Long> sequence = new TreeMap<>();

    private TableStore store;
    private long identifier;

    @Test
    void paimonReadsWhatDovetailWrites() throws Exception {
        TablePaths paths = new Warehouse(new Path(warehouse.toUri())).table("default", TABLE);
        store = TableStore.at(paths);
        store.schemas()
                .createTable(
                        List.of(
                                field(0, "id", DataTypes.BIGINT()),
                                field(1, "name", DataTypes.STRING()),
                                field(2, "score", DataTypes.DOUBLE()),
                                field(3, "flag", DataTypes.BOOLEAN()),
                                field(4, "amount", DataTypes.DECIMAL(10, 2)),
                                field(5, "ts", DataTypes.TIMESTAMP(3)),
                                field(6, "day", DataTypes.DATE()),
                                field(7, "region", DataTypes.STRING()),
                                field(8, "shard", DataTypes.INT())),
                        List.of("region", "shard"),
                        List.of(),
                        Map.of(
                                "row-tracking.enabled", "true",
                                "data-evolution.enabled", "true",
                                "file.format", "parquet"),
                        "made by dovetail");

        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            append(paimon, 0, 6);
            append(paimon, 6, 4);
            updateEveryGroup(paimon, List.of("name"), rowId -> Map.of("name", "upd-" + rowId), 2);

            store.schemas()
                    .commitChanges(
                            SchemaChange.addColumn("note", DataTypes.STRING()),
                            SchemaChange.renameColumn("score", "rating"));
            model.values()
                    .forEach(r -> r.set("rating", r.values.remove("score")).set("note", null));
            updateEveryGroup(
                    paimon,
                    List.of("rating", "note"),
                    rowId -> {
                        Map<String, Object> v = new LinkedHashMap<>();
                        v.put("rating", rowId % 2 == 0 ? null : rowId * 10.0);
                        v.put("note", "note-" + rowId);
                        return v;
                    },
                    1);
            append(paimon, 10, 2);

            assertThat(model.keySet())
                    .as("row ids are assigned contiguously from 0")
                    .containsExactlyElementsOf(
                            java.util.stream.LongStream.range(0, 12).boxed().toList());
            assertThat(paimon.readRowsWithRowTracking(TABLE)).isEqualTo(expectedRows(paimon));
            assertSameMetadata(paimon.table(TABLE));

            // Paimon continues on the table Dovetail made; Dovetail must follow.
            paimon.append(
                    TABLE,
                    List.of(
                            GenericRow.of(
                                    100L,
                                    BinaryString.fromString("from-paimon"),
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    BinaryString.fromString("eu"),
                                    1,
                                    null)));
            paimon.updateColumns(
                    TABLE,
                    List.of("note"),
                    (rowId, row) -> new Object[] {BinaryString.fromString("paimon-" + rowId)});
            assertSameMetadata(paimon.table(TABLE));
            assertThat(store.latestSnapshot().orElseThrow().nextRowId()).isEqualTo(13L);
        }
    }

    private void append(PaimonWorkbench paimon, long firstId, int count) throws Exception {
        TableSchema schema = store.latestSchema();
        Map<GenericRowData, List<Rows.Row>> byPartition = new LinkedHashMap<>();
        for (long id = firstId; id < firstId + count; id++) {
            Rows.Row row = sampleRow(id, schema);
            byPartition.computeIfAbsent(partitionOf(row), k -> new ArrayList<>()).add(row);
        }
        List<ManifestEntry> entries = new ArrayList<>();
        for (Map.Entry<GenericRowData, List<Rows.Row>> e : byPartition.entrySet()) {
            entries.addAll(write(schema, e.getKey(), null, e.getValue(), null));
        }
        Snapshot committed =
                new TableCommit(store).commit(CommitRequest.append(USER, ++identifier, entries));
        // learn the assigned row ids from what was committed
        List<ManifestEntry> assigned = store.files(committed).deltaEntries();
        for (int i = 0; i < assigned.size(); i++) {
            List<Rows.Row> rows = byPartition.get(partitionOf(byPartition, assigned.get(i)));
            long first = assigned.get(i).file().firstRowId();
            for (int r = 0; r < rows.size(); r++) {
                model.put(first + r, rows.get(r));
                sequence.put(first + r, committed.id());
            }
        }
    }

    /** Writes one partial-column file per group (the first {@code groups} groups). */
    private void updateEveryGroup(
            PaimonWorkbench paimon,
            List<String> columns,
            java.util.function.LongFunction<Map<String, Object>> values,
            int groups)
            throws Exception {
        TableSchema schema = store.latestSchema();
        Snapshot base = store.latestSnapshot().orElseThrow();
        SnapshotFiles files = store.files(base);
        TreeMap<Long, ManifestEntry> byFirstRow = new TreeMap<>();
        files.liveFiles().forEach(e -> byFirstRow.putIfAbsent(e.file().firstRowId(), e));
        List<ManifestEntry> entries = new ArrayList<>();
        List<Long> touched = new ArrayList<>();
        for (ManifestEntry group :
                new ArrayList<>(byFirstRow.values())
                        .subList(0, Math.min(groups, byFirstRow.size()))) {
            long first = group.file().firstRowId();
            List<Rows.Row> rows = new ArrayList<>();
            for (long rowId = first; rowId < first + group.file().rowCount(); rowId++) {
                Rows.Row update = Rows.row();
                values.apply(rowId).forEach(update::set);
                rows.add(update);
                update.values.forEach(model.get(rowId)::set);
                touched.add(rowId);
            }
            entries.addAll(write(schema, partitionRow(schema, group), columns, rows, first));
        }
        Snapshot committed =
                new TableCommit(store)
                        .commit(CommitRequest.columnUpdate(USER, ++identifier, base.id(), entries));
        touched.forEach(rowId -> sequence.put(rowId, committed.id()));
    }

    /**
     * Writes {@code rows} into one Parquet file of {@code writeCols} (null = all columns) with
     * Dovetail's writer; a partial-column file gets {@code firstRowId}.
     */
    private List<ManifestEntry> write(
            TableSchema schema,
            GenericRowData partition,
            List<String> writeCols,
            List<Rows.Row> rows,
            Long firstRowId) {
        List<String> columns = writeCols == null ? schema.fieldNames() : writeCols;
        List<ManifestEntry> entries;
        try (DataFileWriter writer =
                writeCols == null
                        ? DataFileWriter.forAppend(store.paths(), schema, partition)
                        : DataFileWriter.forPartialColumns(
                                store.paths(), schema, writeCols, partition)) {
            rows.forEach(row -> writer.write(row.flink(columns)));
            entries = writer.finish();
        }
        return entries.stream()
                .map(
                        e ->
                                new ManifestEntry(
                                        e.kind(),
                                        e.partition(),
                                        e.bucket(),
                                        e.totalBuckets(),
                                        e.file().toBuilder().firstRowId(firstRowId).build()))
                .toList();
    }

    private List<String> expectedRows(PaimonWorkbench paimon) throws Exception {
        FileStoreTable table = paimon.table(TABLE);
        RowType readType = SpecialFields.rowTypeWithRowTracking(table.rowType());
        List<String> columns = table.rowType().getFieldNames();
        List<String> out = new ArrayList<>();
        for (Map.Entry<Long, Rows.Row> e : model.entrySet()) {
            GenericRow values = e.getValue().paimon(columns);
            GenericRow row = new GenericRow(readType.getFieldCount());
            for (int i = 0; i < columns.size(); i++) {
                row.setField(i, values.getField(i));
            }
            row.setField(columns.size(), e.getKey());
            row.setField(columns.size() + 1, sequence.get(e.getKey()));
            out.add(PaimonWorkbench.render(readType, row));
        }
        out.sort(null);
        return out;
    }

    /** Every snapshot, manifest list and live file set as Paimon reads it equals Dovetail's. */
    private void assertSameMetadata(FileStoreTable table) {
        PaimonSide paimon = new PaimonSide(table);
        for (long id : paimon.snapshotIds()) {
            Snapshot ours = store.snapshots().snapshot(id);
            assertThat(DovetailSide.snapshot(ours))
                    .isEqualTo(PaimonSide.snapshot(paimon.snapshot(id)));
            SnapshotFiles files = store.files(ours);
            assertThat(DovetailSide.manifests(files.baseManifests()))
                    .isEqualTo(paimon.baseManifests(paimon.snapshot(id)));
            assertThat(DovetailSide.manifests(files.deltaManifests()))
                    .isEqualTo(paimon.deltaManifests(paimon.snapshot(id)));
            assertThat(DovetailSide.entries(files.liveFiles()))
                    .containsExactlyInAnyOrderElementsOf(paimon.liveFiles(id));
            files.verifyLiveFiles();
        }
    }

    private static Rows.Row sampleRow(long id, TableSchema schema) {
        String[] regions = {"eu", "us/west", null};
        int p = (int) (id % 3);
        Rows.Row row =
                Rows.row()
                        .set("id", id)
                        .set("name", id % 4 == 0 ? null : "name-" + id)
                        .set(schema.fieldNames().contains("rating") ? "rating" : "score", id * 0.25)
                        .set("flag", id % 2 == 0)
                        .set("amount", new BigDecimal(id + ".5").setScale(2))
                        .set("ts", LocalDateTime.of(2024, 1, 1, 0, 0).plusSeconds(id * 3601))
                        .set("day", (int) (19_000 + id))
                        .set("region", regions[p])
                        .set("shard", p == 2 ? null : p + 1);
        if (schema.fieldNames().contains("note")) {
            row.set("note", "new-" + id);
        }
        return row;
    }

    private static GenericRowData partitionOf(Rows.Row row) {
        Object region = row.values.get("region");
        return GenericRowData.of(
                region == null ? null : StringData.fromString((String) region),
                row.values.get("shard"));
    }

    private GenericRowData partitionOf(
            Map<GenericRowData, List<Rows.Row>> byPartition, ManifestEntry entry) {
        GenericRowData decoded = partitionRow(store.latestSchema(), entry);
        return byPartition.keySet().stream()
                .filter(k -> k.equals(decoded))
                .findFirst()
                .orElseThrow();
    }

    private static GenericRowData partitionRow(TableSchema schema, ManifestEntry entry) {
        return BinaryRowCodec.of(schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList())
                .deserialize(entry.partition());
    }

    private static DataField field(int id, String name, io.dovetail.table.types.DataType type) {
        return new DataField(id, name, type, null, null);
    }
}
