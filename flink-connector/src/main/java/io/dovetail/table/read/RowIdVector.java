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

import org.apache.flink.table.data.columnar.vector.LongColumnVector;

import javax.annotation.Nullable;

/**
 * {@code _ROW_ID} of a batch: the physical value where the file stores a non-null one, otherwise
 * the row id of the batch's first position plus the index.
 */
final class RowIdVector implements LongColumnVector {

    @Nullable private final LongColumnVector physical;
    private long firstRowId;

    RowIdVector(@Nullable LongColumnVector physical) {
        this.physical = physical;
    }

    void setFirstRowId(long value) {
        firstRowId = value;
    }

    @Override
    public boolean isNullAt(int i) {
        return false;
    }

    @Override
    public long getLong(int i) {
        if (physical != null && !physical.isNullAt(i)) {
            return physical.getLong(i);
        }
        return firstRowId + i;
    }
}
