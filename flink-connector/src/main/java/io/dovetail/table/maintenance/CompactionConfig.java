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
package io.dovetail.table.maintenance;

import io.dovetail.table.error.Errors;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.write.DataFileWriterOptions;

import java.util.Map;
import java.util.Objects;

/**
 * How {@link CompactionPlanner} plans compaction tasks (data-evolution semantics §8.1). With {@link
 * Rewrite#FULL}, adjacent row-range groups are packed into bins: a bin is closed once its weight
 * exceeds {@code targetFileSize}, a group counts the sum over its files of {@code max(file size,
 * openFileCost)}, and a bin is compacted only when it holds at least {@code minFileNum} files. With
 * {@link Rewrite#COLUMNS}, each group of at least {@code minFileNum} files is compacted on its own.
 * With {@code dedicatedFiles}, the {@code .blob} files of each BLOB field and the vector-store
 * files of a group are folded too, either way (see {@link CompactionPlanner}).
 */
public record CompactionConfig(
        long targetFileSize,
        long openFileCost,
        int minFileNum,
        Rewrite rewrite,
        boolean dedicatedFiles) {

    public static final int DEFAULT_MIN_FILE_NUM = 5;

    /** What a compaction task rewrites. */
    public enum Rewrite {
        /**
         * Per row-range group, only the columns that more than one of its files holds (a caption
         * updated five times), into one partial-column file over the group's range; a column one
         * file alone holds (an image written once) is never read nor written, and that file stays,
         * as does a file holding the partition columns. Groups are not merged.
         */
        COLUMNS,
        /**
         * Every column and every row of adjacent groups, packed up to the target file size, into
         * one file per bin (merges small groups).
         */
        FULL
    }

    /** A config that leaves {@code .blob} and vector-store files alone (the default). */
    public CompactionConfig(
            long targetFileSize, long openFileCost, int minFileNum, Rewrite rewrite) {
        this(targetFileSize, openFileCost, minFileNum, rewrite, false);
    }

    public CompactionConfig {
        if (targetFileSize <= 0 || openFileCost <= 0) {
            throw Errors.invalidArgument(
                    "Compaction target file size and open-file cost must be positive, got "
                            + targetFileSize
                            + " and "
                            + openFileCost
                            + " bytes.");
        }
        Objects.requireNonNull(rewrite, "rewrite");
        if (minFileNum < 1) {
            throw Errors.invalidArgument(
                    "A compaction task needs at least one file, got a minimum of "
                            + minFileNum
                            + ".");
        }
    }

    /**
     * The table's {@code target-file-size} (256 MB for append tables), {@code
     * source.split.open-file-cost} (4 MB) and {@code compaction.min.file-num} (5), Paimon's
     * defaults where absent; column-selective ({@link Rewrite#COLUMNS}); dedicated files folded
     * when {@code compaction.dedicated-files.enabled} is true.
     */
    public static CompactionConfig fromOptions(Map<String, String> options) {
        return new CompactionConfig(
                DataFileWriterOptions.fromTableOptions(options).targetFileSize(),
                TableOptions.memorySizeValue(
                        options,
                        TableOptions.SOURCE_SPLIT_OPEN_FILE_COST,
                        ReadRequest.DEFAULT_OPEN_FILE_COST),
                TableOptions.intValue(
                        options, TableOptions.COMPACTION_MIN_FILE_NUM, DEFAULT_MIN_FILE_NUM, 1),
                Rewrite.COLUMNS,
                TableOptions.isTrue(options, TableOptions.COMPACTION_DEDICATED_FILES));
    }

    public CompactionConfig withTargetFileSize(long value) {
        return new CompactionConfig(value, openFileCost, minFileNum, rewrite, dedicatedFiles);
    }

    public CompactionConfig withOpenFileCost(long value) {
        return new CompactionConfig(targetFileSize, value, minFileNum, rewrite, dedicatedFiles);
    }

    public CompactionConfig withMinFileNum(int value) {
        return new CompactionConfig(targetFileSize, openFileCost, value, rewrite, dedicatedFiles);
    }

    public CompactionConfig withRewrite(Rewrite value) {
        return new CompactionConfig(
                targetFileSize, openFileCost, minFileNum, value, dedicatedFiles);
    }
}
