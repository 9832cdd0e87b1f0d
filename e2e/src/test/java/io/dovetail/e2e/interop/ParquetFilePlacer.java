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

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.FileNameFactory;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.stats.StatsCollector;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.LogicalType;

import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.types.RowType;

import java.nio.file.Files;
import java.util.List;

/**
 * Places Parquet data files in a Dovetail table for interop tests and describes them with
 * Dovetail's metadata. The Parquet bytes come from Paimon's own format writer (Dovetail's data
 * writers are a later issue); everything else (directory, name, partition bytes, statistics, write
 * columns) is Dovetail's.
 */
final class ParquetFilePlacer {

    private final TablePaths paths;
    private final FileNameFactory names = new FileNameFactory();

    ParquetFilePlacer(TablePaths paths) {
        this.paths = paths;
    }

    /**
     * Writes one file holding {@code writeCols} (null = all columns) of {@code rows} into the
     * partition of {@code partition} and returns its ADD entry (row ids assigned at commit unless
     * {@code firstRowId} is given).
     *
     * @param paimonRowType the table's row type as Paimon parsed it from Dovetail's schema file
     * @param rows the rows as Paimon rows (for the Parquet writer) and as Flink rows (for stats)
     */
    ManifestEntry place(
            TableSchema schema,
            RowType paimonRowType,
            GenericRowData partition,
            List<String> writeCols,
            List<Rows.Row> rows,
            Long firstRowId)
            throws Exception {
        List<String> columns = writeCols == null ? schema.fieldNames() : writeCols;
        RowType fileType = paimonRowType.project(columns);
        List<LogicalType> partitionTypes =
                schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList();
        String partitionPath =
                PartitionPaths.fromOptions(schema.partitionKeys(), partitionTypes, schema.options())
                        .path(partition);
        String fileName = names.newDataFileName("parquet");
        java.nio.file.Path file =
                java.nio.file.Path.of(paths.dataFile(partitionPath, 0, fileName).toUri());
        Files.createDirectories(file.getParent());

        List<LogicalType> columnTypes =
                columns.stream()
                        .map(c -> FlinkTypes.toFlink(schema.field(c).orElseThrow().type()))
                        .toList();
        StatsCollector stats = new StatsCollector(columnTypes);
        FormatWriter writer =
                FileFormat.fromIdentifier("parquet", new Options())
                        .createWriterFactory(fileType)
                        .create(newStream(file), "zstd");
        for (Rows.Row row : rows) {
            writer.addElement(row.paimon(columns));
            stats.add(row.flink(columns));
        }
        writer.close();

        DataFileMeta meta =
                DataFileMeta.builder(fileName)
                        .fileSize(Files.size(file))
                        .rowCount(rows.size())
                        .valueStats(stats.toSimpleStats())
                        .schemaId(schema.id())
                        .creationTime(DataFileMeta.localNowAsUtcMillis())
                        .firstRowId(firstRowId)
                        .writeCols(writeCols)
                        .build();
        byte[] partitionBytes = BinaryRowCodec.of(partitionTypes).serialize(partition);
        return new ManifestEntry(FileKind.ADD, partitionBytes, 0, -1, meta);
    }

    private static PositionOutputStream newStream(java.nio.file.Path file) throws Exception {
        return LocalFileIO.create()
                .newOutputStream(new org.apache.paimon.fs.Path(file.toUri()), false);
    }
}
