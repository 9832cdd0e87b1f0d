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

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.columnar.ColumnarRowData;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;

/**
 * One batch of stitched rows: column vectors borrowed from the files that provide each column, and
 * the selected positions (rows not deleted and inside the requested row ranges). Valid until the
 * reader produces the next batch; copy rows that must outlive it.
 */
public final class ReadBatch {

    private final VectorizedColumnBatch columns;
    private final int[] selected;
    private final ColumnarRowData row;
    private int size;
    private boolean allSelected;

    ReadBatch(VectorizedColumnBatch columns, int capacity) {
        this.columns = columns;
        this.selected = new int[capacity];
        this.row = new ColumnarRowData(columns);
    }

    void reset(int rows) {
        columns.setNumRows(rows);
        size = 0;
        allSelected = false;
    }

    /** Selects every decoded position. */
    void selectAll() {
        size = columns.getNumRows();
        allSelected = true;
    }

    void select(int position) {
        selected[size++] = position;
    }

    /** Number of selected rows. */
    public int size() {
        return size;
    }

    /** The vector position of selected row {@code i}. */
    public int position(int i) {
        return allSelected ? i : selected[i];
    }

    /**
     * Whether every decoded position is selected ({@code position(i) == i}), so consumers may
     * process the vectors densely.
     */
    public boolean allSelected() {
        return allSelected;
    }

    /** The stitched column vectors, one per output column, holding every decoded position. */
    public VectorizedColumnBatch columns() {
        return columns;
    }

    /** Selected row {@code i} as a reused view (each call repositions the same object). */
    public RowData row(int i) {
        row.setRowId(position(i));
        return row;
    }
}
