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
package io.dovetail.table.write;

import io.dovetail.table.error.Errors;
import io.dovetail.table.format.DataFileFormat;
import io.dovetail.table.format.vector.VectorFileFormat;
import io.dovetail.table.schema.TableOptions;

import org.apache.flink.configuration.MemorySize;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Settings of a {@link DataFileWriter}, read from table options with Paimon's names and defaults.
 *
 * @param format the file format ({@code file.format}, default parquet)
 * @param compression the codec, lower case ({@code file.compression}, default zstd); each format
 *     checks it names one of its codecs
 * @param zstdLevel zstd level ({@code file.compression.zstd-level}, default 1)
 * @param targetFileSize roll to a new file once a file reaches this many bytes ({@code
 *     target-file-size}, default 256 MB)
 * @param targetRowCount roll once a file holds this many rows ({@code target-file-row-num}, default
 *     unlimited)
 * @param formatOptions the table options prefixed with the format's name and a dot ({@code
 *     parquet.*} or {@code orc.*}), handed to the format library unchanged
 * @param blobTargetFileSize roll {@code .blob} files once one reaches this many bytes ({@code
 *     blob.target-file-size}, default the target file size)
 * @param vectorFormat the format of vector-store files ({@code vector.file.format}), null when
 *     VECTOR columns are not stored in them
 * @param vectorTargetFileSize roll vector-store files once one reaches this many bytes ({@code
 *     vector.target-file-size}, default ten times the target file size)
 */
public record DataFileWriterOptions(
        DataFileFormat format,
        String compression,
        int zstdLevel,
        long targetFileSize,
        long targetRowCount,
        StatsMode defaultStatsMode,
        Map<String, StatsMode> fieldStatsModes,
        int statsKeepFirstNColumns,
        boolean statsDenseStore,
        Map<String, String> formatOptions,
        long blobTargetFileSize,
        @Nullable VectorFileFormat vectorFormat,
        long vectorTargetFileSize) {

    public static final String FILE_COMPRESSION = "file.compression";
    public static final String ZSTD_LEVEL = "file.compression.zstd-level";
    public static final String TARGET_FILE_SIZE = "target-file-size";
    public static final String TARGET_FILE_ROW_NUM = "target-file-row-num";
    public static final String STATS_MODE = "metadata.stats-mode";
    public static final String STATS_KEEP_FIRST_N_COLUMNS = "metadata.stats-keep-first-n-columns";
    public static final String STATS_DENSE_STORE = "metadata.stats-dense-store";
    public static final String FIELDS_PREFIX = "fields.";
    public static final String FIELD_STATS_MODE_SUFFIX = ".stats-mode";

    private static final String DEFAULT_COMPRESSION = "zstd";
    private static final int DEFAULT_ZSTD_LEVEL = 1;
    private static final long DEFAULT_TARGET_FILE_SIZE = MemorySize.parse("256 mb").getBytes();

    /** {@code vector.target-file-size} defaults to this many times {@code target-file-size}. */
    private static final long VECTOR_TARGET_MULTIPLE = 10;

    public DataFileWriterOptions {
        if (targetFileSize <= 0
                || targetRowCount <= 0
                || blobTargetFileSize <= 0
                || vectorTargetFileSize <= 0) {
            throw Errors.invalidArgument(
                    "Rolling targets must be positive, got "
                            + targetFileSize
                            + " bytes and "
                            + targetRowCount
                            + " rows.");
        }
        fieldStatsModes = Map.copyOf(fieldStatsModes);
        formatOptions = Map.copyOf(formatOptions);
        compression = compression.trim().toLowerCase(Locale.ROOT);
        OpenDataFile.checkCompression(format, compression);
    }

    /** Reads the options of a table (absent options take Paimon's defaults). */
    public static DataFileWriterOptions fromTableOptions(Map<String, String> options) {
        DataFileFormat format = DataFileFormat.ofTableOptions(options);
        String formatPrefix = format.extension() + ".";
        Map<String, StatsMode> fieldModes = new HashMap<>();
        Map<String, String> formatOptions = new HashMap<>();
        for (Map.Entry<String, String> option : options.entrySet()) {
            String key = option.getKey();
            if (key.startsWith(FIELDS_PREFIX) && key.endsWith(FIELD_STATS_MODE_SUFFIX)) {
                String field =
                        key.substring(
                                FIELDS_PREFIX.length(),
                                key.length() - FIELD_STATS_MODE_SUFFIX.length());
                fieldModes.put(field, StatsMode.parse(key, option.getValue()));
            } else if (key.startsWith(formatPrefix)) {
                formatOptions.put(key, option.getValue());
            }
        }
        String statsMode = options.get(STATS_MODE);
        long targetFileSize = sizeOption(options, TARGET_FILE_SIZE, DEFAULT_TARGET_FILE_SIZE);
        return new DataFileWriterOptions(
                format,
                options.getOrDefault(FILE_COMPRESSION, DEFAULT_COMPRESSION),
                (int) longOption(options, ZSTD_LEVEL, DEFAULT_ZSTD_LEVEL),
                targetFileSize,
                longOption(options, TARGET_FILE_ROW_NUM, Long.MAX_VALUE),
                statsMode == null ? StatsMode.DEFAULT : StatsMode.parse(STATS_MODE, statsMode),
                fieldModes,
                (int) longOption(options, STATS_KEEP_FIRST_N_COLUMNS, -1),
                booleanOption(options, STATS_DENSE_STORE, true),
                formatOptions,
                sizeOption(options, TableOptions.BLOB_TARGET_FILE_SIZE, targetFileSize),
                VectorFileFormat.ofTableOptions(options),
                sizeOption(
                        options,
                        TableOptions.VECTOR_TARGET_FILE_SIZE,
                        saturatedTimes(VECTOR_TARGET_MULTIPLE, targetFileSize)));
    }

    /**
     * The same options without rolling: one file takes every row written (partial-column files must
     * cover exactly one row range).
     */
    public DataFileWriterOptions withoutRolling() {
        return new DataFileWriterOptions(
                format,
                compression,
                zstdLevel,
                Long.MAX_VALUE,
                Long.MAX_VALUE,
                defaultStatsMode,
                fieldStatsModes,
                statsKeepFirstNColumns,
                statsDenseStore,
                formatOptions,
                Long.MAX_VALUE,
                vectorFormat,
                Long.MAX_VALUE);
    }

    /**
     * The stats mode of each column of a file, in file order: {@code fields.<col>.stats-mode} if
     * set, otherwise the default mode while fewer than {@code metadata.stats-keep-first-n-columns}
     * earlier columns kept statistics, else none.
     */
    public List<StatsMode> statsModes(List<String> columns) {
        List<StatsMode> modes = new ArrayList<>(columns.size());
        int withStats = 0;
        for (String column : columns) {
            StatsMode fieldMode = fieldStatsModes.get(column);
            if (fieldMode != null) {
                modes.add(fieldMode);
                withStats++;
            } else if (statsKeepFirstNColumns >= 0 && withStats >= statsKeepFirstNColumns) {
                modes.add(StatsMode.NONE);
            } else {
                modes.add(defaultStatsMode);
                withStats++;
            }
        }
        return modes;
    }

    private static long longOption(Map<String, String> options, String key, long defaultValue) {
        String value = options.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw Errors.invalidArgument(
                    "Option " + key + " must be a whole number, got '" + value + "'.");
        }
    }

    private static long saturatedTimes(long factor, long bytes) {
        return bytes > Long.MAX_VALUE / factor ? Long.MAX_VALUE : bytes * factor;
    }

    private static long sizeOption(Map<String, String> options, String key, long defaultValue) {
        String value = options.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return MemorySize.parseBytes(value);
        } catch (IllegalArgumentException e) {
            throw Errors.invalidArgument(
                    "Option "
                            + key
                            + " must be a memory size such as '128 mb', got '"
                            + value
                            + "'.");
        }
    }

    private static boolean booleanOption(
            Map<String, String> options, String key, boolean defaultValue) {
        String value = options.get(key);
        if (value == null) {
            return defaultValue;
        }
        String normalized = value.trim().toLowerCase(Locale.ROOT);
        if (!normalized.equals("true") && !normalized.equals("false")) {
            throw Errors.invalidArgument(
                    "Option " + key + " must be 'true' or 'false', got '" + value + "'.");
        }
        return normalized.equals("true");
    }
}
