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

import io.dovetail.table.types.DataField;

import javax.annotation.Nullable;

import java.util.List;

/**
 * Reads one {@link ReadSplit} group by group, as batches of stitched rows with the columns of the
 * plan that produced the split. Not thread-safe; close it to release the open files.
 */
public final class SplitReader implements AutoCloseable {

    public static final int DEFAULT_BATCH_SIZE = 2048;

    private final List<DataField> fields;
    private final ReadSplit split;
    private final int batchSize;
    private int nextGroup;
    @Nullable private GroupReader current;

    private SplitReader(List<DataField> fields, ReadSplit split, int batchSize) {
        this.fields = List.copyOf(fields);
        this.split = split;
        this.batchSize = batchSize;
    }

    /** A reader of {@code split}, one of {@code plan}'s splits. */
    public static SplitReader open(ReadPlan plan, ReadSplit split) {
        return open(plan.fields(), split, DEFAULT_BATCH_SIZE);
    }

    public static SplitReader open(List<DataField> fields, ReadSplit split, int batchSize) {
        return new SplitReader(fields, split, batchSize);
    }

    /** The next non-empty batch, or null at the end of the split. */
    @Nullable
    public ReadBatch nextBatch() {
        while (true) {
            if (current == null) {
                if (nextGroup == split.groups().size()) {
                    return null;
                }
                current = new GroupReader(split.groups().get(nextGroup++), fields, batchSize);
            }
            ReadBatch batch = current.next();
            if (batch != null) {
                return batch;
            }
            current.close();
            current = null;
        }
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
