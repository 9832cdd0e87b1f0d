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

import io.dovetail.table.format.DataFileFormat;
import io.dovetail.table.manifest.RowRange;

import org.apache.flink.table.data.columnar.vector.ColumnVector;

import javax.annotation.Nullable;

import java.util.List;

/**
 * Reads some columns of one data file into reusable column vectors, a caller-chosen number of rows
 * at a time. A file is cut into blocks (Parquet row groups, ORC stripes) that no read may cross, so
 * callers reading several files in lockstep take the minimum of {@link #rowsLeftInBlock()} over the
 * files. The columns are the file's {@link GroupFile#columns()}, in that order.
 */
interface FileColumnsReader extends AutoCloseable {

    /**
     * Opens {@code file} with the reader of its format (decided by its name).
     *
     * @param selection the positions (from 0, the file's first row) the caller reads (sorted,
     *     disjoint; null: any); a reader may leave out the parts of its blocks holding none, so
     *     every read starts at one of them or where the previous read ended
     */
    static FileColumnsReader open(
            GroupFile file, int batchSize, @Nullable List<RowRange> selection) {
        DataFileFormat format = DataFileFormat.ofFileName(file.meta().fileName());
        switch (format) {
            case ORC:
                return new OrcColumnsReader(file, batchSize);
            default:
                return new ParquetColumnsReader(file, batchSize, selection);
        }
    }

    /** The vector of column {@code column}, refilled by every {@link #read}. */
    ColumnVector vector(int column);

    /** Rows left in the current block, moving to the next block when it is used up. */
    long rowsLeftInBlock();

    /** Reads the next {@code rows} rows (at most {@link #rowsLeftInBlock()}). */
    void read(int rows);

    /**
     * Moves past the next {@code rows} rows, which must leave at least one row to read. Blocks
     * wholly inside them are not decoded; the rows before the target inside its block may be
     * decoded and discarded, overwriting the vectors.
     */
    void skip(long rows);

    @Override
    void close();
}
