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
package io.dovetail.table.manifest;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.Errors;
import io.dovetail.table.stats.SimpleStats;

import javax.annotation.Nullable;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * Metadata of one data file, the {@code _FILE} record of a manifest entry: Paimon's 20 fields in
 * their stored order. Serialized rows ({@code minKey}, {@code maxKey}) are kept as bytes.
 *
 * @param fileName file name only; the path is the bucket directory plus this name, unless {@code
 *     externalPath} is set
 * @param creationTime epoch milliseconds of the local wall-clock time read as if it were UTC
 *     (Paimon's convention, see {@link #localNowAsUtcMillis()}); null if unknown
 * @param valueStatsCols columns covered by {@code valueStats}; null means all written columns
 * @param firstRowId row id of the file's first row; null only before the commit assigns it
 * @param writeCols columns stored in the file; null means all columns of schema {@code schemaId}
 */
public record DataFileMeta(
        String fileName,
        long fileSize,
        long rowCount,
        byte[] minKey,
        byte[] maxKey,
        SimpleStats keyStats,
        SimpleStats valueStats,
        long minSequenceNumber,
        long maxSequenceNumber,
        long schemaId,
        int level,
        List<String> extraFiles,
        @Nullable Long creationTime,
        @Nullable Long deleteRowCount,
        @Nullable byte[] embeddedFileIndex,
        @Nullable FileSource fileSource,
        @Nullable List<String> valueStatsCols,
        @Nullable String externalPath,
        @Nullable Long firstRowId,
        @Nullable List<String> writeCols) {

    public DataFileMeta {
        if (fileName == null || fileName.isEmpty()) {
            throw Errors.invalidArgument("A data file meta needs a file name");
        }
        check(fileSize >= 0, fileName, "negative file size " + fileSize);
        check(rowCount >= 0, fileName, "negative row count " + rowCount);
        check(level >= 0, fileName, "negative level " + level);
        check(
                minKey != null && maxKey != null && keyStats != null && valueStats != null,
                fileName,
                "missing keys or statistics");
        check(extraFiles != null, fileName, "missing extra files list");
        check(
                firstRowId == null || firstRowId >= 0,
                fileName,
                "negative first row id " + firstRowId);
        check(
                deleteRowCount == null || (deleteRowCount >= 0 && deleteRowCount <= rowCount),
                fileName,
                "delete row count " + deleteRowCount + " outside [0, " + rowCount + "]");
        minKey = minKey.clone();
        maxKey = maxKey.clone();
        extraFiles = copyOfNames(extraFiles, fileName, "extra files");
        embeddedFileIndex = embeddedFileIndex == null ? null : embeddedFileIndex.clone();
        valueStatsCols =
                valueStatsCols == null ? null : copyOfNames(valueStatsCols, fileName, "stats cols");
        writeCols = writeCols == null ? null : copyOfNames(writeCols, fileName, "write cols");
    }

    /** Paimon's creation time for "now": local wall-clock millis as if the zone were UTC. */
    public static long localNowAsUtcMillis() {
        return LocalDateTime.now().toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    /**
     * A builder preset with what an append or data-evolution file stores: empty keys and key stats,
     * no value stats, level 0, no extra files, delete row count 0, file source APPEND.
     */
    public static Builder builder(String fileName) {
        return new Builder(fileName);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    @Override
    public byte[] minKey() {
        return minKey.clone();
    }

    @Override
    public byte[] maxKey() {
        return maxKey.clone();
    }

    @Override
    @Nullable
    public byte[] embeddedFileIndex() {
        return embeddedFileIndex == null ? null : embeddedFileIndex.clone();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DataFileMeta)) {
            return false;
        }
        DataFileMeta that = (DataFileMeta) o;
        return fileSize == that.fileSize
                && rowCount == that.rowCount
                && minSequenceNumber == that.minSequenceNumber
                && maxSequenceNumber == that.maxSequenceNumber
                && schemaId == that.schemaId
                && level == that.level
                && fileName.equals(that.fileName)
                && Arrays.equals(minKey, that.minKey)
                && Arrays.equals(maxKey, that.maxKey)
                && keyStats.equals(that.keyStats)
                && valueStats.equals(that.valueStats)
                && extraFiles.equals(that.extraFiles)
                && Objects.equals(creationTime, that.creationTime)
                && Objects.equals(deleteRowCount, that.deleteRowCount)
                && Arrays.equals(embeddedFileIndex, that.embeddedFileIndex)
                && fileSource == that.fileSource
                && Objects.equals(valueStatsCols, that.valueStatsCols)
                && Objects.equals(externalPath, that.externalPath)
                && Objects.equals(firstRowId, that.firstRowId)
                && Objects.equals(writeCols, that.writeCols);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fileName, fileSize, rowCount, schemaId, level, firstRowId);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "DataFileMeta{"
                + fileName
                + ", size="
                + fileSize
                + ", rows="
                + rowCount
                + ", minKey="
                + hex.formatHex(minKey)
                + ", maxKey="
                + hex.formatHex(maxKey)
                + ", keyStats="
                + keyStats
                + ", valueStats="
                + valueStats
                + ", seq="
                + minSequenceNumber
                + ".."
                + maxSequenceNumber
                + ", schemaId="
                + schemaId
                + ", level="
                + level
                + ", extraFiles="
                + extraFiles
                + ", creationTime="
                + creationTime
                + ", deleteRowCount="
                + deleteRowCount
                + ", embeddedFileIndex="
                + (embeddedFileIndex == null ? null : hex.formatHex(embeddedFileIndex))
                + ", fileSource="
                + fileSource
                + ", valueStatsCols="
                + valueStatsCols
                + ", externalPath="
                + externalPath
                + ", firstRowId="
                + firstRowId
                + ", writeCols="
                + writeCols
                + '}';
    }

    private static void check(boolean condition, String fileName, String problem) {
        if (!condition) {
            throw Errors.invalidArgument(
                    "Invalid metadata for data file " + fileName + ": " + problem);
        }
    }

    private static List<String> copyOfNames(List<String> names, String fileName, String what) {
        check(names.stream().noneMatch(Objects::isNull), fileName, "null element in " + what);
        return List.copyOf(names);
    }

    /** Builds a {@link DataFileMeta}; see {@link DataFileMeta#builder(String)} for defaults. */
    public static final class Builder {
        private String fileName;
        private long fileSize;
        private long rowCount;
        private byte[] minKey = BinaryRowCodec.emptyRow();
        private byte[] maxKey = BinaryRowCodec.emptyRow();
        private SimpleStats keyStats = SimpleStats.EMPTY;
        private SimpleStats valueStats = SimpleStats.EMPTY;
        private long minSequenceNumber;
        private long maxSequenceNumber;
        private long schemaId;
        private int level;
        private List<String> extraFiles = List.of();
        private Long creationTime;
        private Long deleteRowCount = 0L;
        private byte[] embeddedFileIndex;
        private FileSource fileSource = FileSource.APPEND;
        private List<String> valueStatsCols;
        private String externalPath;
        private Long firstRowId;
        private List<String> writeCols;

        private Builder(String fileName) {
            this.fileName = fileName;
        }

        private Builder(DataFileMeta meta) {
            fileName = meta.fileName;
            fileSize = meta.fileSize;
            rowCount = meta.rowCount;
            minKey = meta.minKey;
            maxKey = meta.maxKey;
            keyStats = meta.keyStats;
            valueStats = meta.valueStats;
            minSequenceNumber = meta.minSequenceNumber;
            maxSequenceNumber = meta.maxSequenceNumber;
            schemaId = meta.schemaId;
            level = meta.level;
            extraFiles = meta.extraFiles;
            creationTime = meta.creationTime;
            deleteRowCount = meta.deleteRowCount;
            embeddedFileIndex = meta.embeddedFileIndex;
            fileSource = meta.fileSource;
            valueStatsCols = meta.valueStatsCols;
            externalPath = meta.externalPath;
            firstRowId = meta.firstRowId;
            writeCols = meta.writeCols;
        }

        public Builder fileName(String value) {
            fileName = value;
            return this;
        }

        public Builder fileSize(long value) {
            fileSize = value;
            return this;
        }

        public Builder rowCount(long value) {
            rowCount = value;
            return this;
        }

        public Builder minKey(byte[] value) {
            minKey = value;
            return this;
        }

        public Builder maxKey(byte[] value) {
            maxKey = value;
            return this;
        }

        public Builder keyStats(SimpleStats value) {
            keyStats = value;
            return this;
        }

        public Builder valueStats(SimpleStats value) {
            valueStats = value;
            return this;
        }

        /** Sets both the minimum and the maximum sequence number. */
        public Builder sequenceNumbers(long min, long max) {
            minSequenceNumber = min;
            maxSequenceNumber = max;
            return this;
        }

        public Builder schemaId(long value) {
            schemaId = value;
            return this;
        }

        public Builder level(int value) {
            level = value;
            return this;
        }

        public Builder extraFiles(List<String> value) {
            extraFiles = value;
            return this;
        }

        public Builder creationTime(@Nullable Long value) {
            creationTime = value;
            return this;
        }

        public Builder deleteRowCount(@Nullable Long value) {
            deleteRowCount = value;
            return this;
        }

        public Builder embeddedFileIndex(@Nullable byte[] value) {
            embeddedFileIndex = value;
            return this;
        }

        public Builder fileSource(@Nullable FileSource value) {
            fileSource = value;
            return this;
        }

        public Builder valueStatsCols(@Nullable List<String> value) {
            valueStatsCols = value;
            return this;
        }

        public Builder externalPath(@Nullable String value) {
            externalPath = value;
            return this;
        }

        public Builder firstRowId(@Nullable Long value) {
            firstRowId = value;
            return this;
        }

        public Builder writeCols(@Nullable List<String> value) {
            writeCols = value;
            return this;
        }

        public DataFileMeta build() {
            return new DataFileMeta(
                    fileName,
                    fileSize,
                    rowCount,
                    minKey,
                    maxKey,
                    keyStats,
                    valueStats,
                    minSequenceNumber,
                    maxSequenceNumber,
                    schemaId,
                    level,
                    extraFiles,
                    creationTime,
                    deleteRowCount,
                    embeddedFileIndex,
                    fileSource,
                    valueStatsCols,
                    externalPath,
                    firstRowId,
                    writeCols);
        }
    }
}
