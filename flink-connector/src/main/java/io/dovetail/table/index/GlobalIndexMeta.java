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
package io.dovetail.table.index;

import javax.annotation.Nullable;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * Metadata of a global index file ({@code record__GLOBAL_INDEX}). Global indexes are not used by
 * Dovetail; the record is parsed and written back unchanged.
 */
public record GlobalIndexMeta(
        long rowRangeStart,
        long rowRangeEnd,
        int indexFieldId,
        @Nullable List<Integer> extraFieldIds,
        @Nullable byte[] indexMeta) {

    public GlobalIndexMeta {
        extraFieldIds = extraFieldIds == null ? null : List.copyOf(extraFieldIds);
        indexMeta = indexMeta == null ? null : indexMeta.clone();
    }

    @Override
    @Nullable
    public byte[] indexMeta() {
        return indexMeta == null ? null : indexMeta.clone();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof GlobalIndexMeta)) {
            return false;
        }
        GlobalIndexMeta that = (GlobalIndexMeta) o;
        return rowRangeStart == that.rowRangeStart
                && rowRangeEnd == that.rowRangeEnd
                && indexFieldId == that.indexFieldId
                && Objects.equals(extraFieldIds, that.extraFieldIds)
                && Arrays.equals(indexMeta, that.indexMeta);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rowRangeStart, rowRangeEnd, indexFieldId, extraFieldIds)
                + Arrays.hashCode(indexMeta);
    }

    @Override
    public String toString() {
        return "GlobalIndexMeta{rows="
                + rowRangeStart
                + ".."
                + rowRangeEnd
                + ", field="
                + indexFieldId
                + ", extraFields="
                + extraFieldIds
                + ", meta="
                + (indexMeta == null ? null : HexFormat.of().formatHex(indexMeta))
                + '}';
    }
}
