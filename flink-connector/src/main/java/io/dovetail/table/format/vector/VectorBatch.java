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
package io.dovetail.table.format.vector;

import io.dovetail.table.types.DataField;
import io.dovetail.table.types.TypeRoot;
import io.dovetail.table.types.VectorType;

import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.AbstractHeapVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapArrayVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapBooleanVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapByteVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapDoubleVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapFloatVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapShortVector;

import java.util.List;

/**
 * The column vectors a vector-store reader fills, one batch at a time: per VECTOR column an array
 * vector whose row {@code r} is elements {@code r * n .. r * n + n - 1} of a heap vector of the
 * element type ({@code n} the dimension), so a batch holds its values in one primitive array per
 * column.
 */
final class VectorBatch {

    private final HeapArrayVector[] arrays;
    private final AbstractHeapVector[] elements;
    private final int[] dimensions;

    VectorBatch(List<DataField> columns, int capacity) {
        int n = columns.size();
        arrays = new HeapArrayVector[n];
        elements = new AbstractHeapVector[n];
        dimensions = new int[n];
        for (int c = 0; c < n; c++) {
            VectorType type = (VectorType) columns.get(c).type();
            dimensions[c] = type.length();
            elements[c] = heapVector(type.element().root(), capacity * type.length());
            arrays[c] = new HeapArrayVector(capacity, elements[c]);
            long[] offsets = arrays[c].getOffsets();
            long[] lengths = arrays[c].getLengths();
            for (int r = 0; r < capacity; r++) {
                offsets[r] = (long) r * type.length();
                lengths[r] = type.length();
            }
        }
    }

    ColumnVector vector(int column) {
        return arrays[column];
    }

    int dimension(int column) {
        return dimensions[column];
    }

    /** Clears the NULL marks of the last batch. */
    void reset() {
        for (HeapArrayVector array : arrays) {
            array.reset();
        }
    }

    void setNull(int column, int row) {
        arrays[column].setNullAt(row);
    }

    /** The element vector of {@code column}: row {@code r}'s values start at {@code r * n}. */
    AbstractHeapVector elements(int column) {
        return elements[column];
    }

    private static AbstractHeapVector heapVector(TypeRoot element, int size) {
        switch (element) {
            case BOOLEAN:
                return new HeapBooleanVector(size);
            case TINYINT:
                return new HeapByteVector(size);
            case SMALLINT:
                return new HeapShortVector(size);
            case INT:
                return new HeapIntVector(size);
            case BIGINT:
                return new HeapLongVector(size);
            case FLOAT:
                return new HeapFloatVector(size);
            case DOUBLE:
                return new HeapDoubleVector(size);
            default:
                throw new IllegalArgumentException("Not a VECTOR element type: " + element);
        }
    }
}
