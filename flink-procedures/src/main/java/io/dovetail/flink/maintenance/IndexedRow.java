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
package io.dovetail.flink.maintenance;

import io.dovetail.table.index.BTreeKeys;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;

import javax.annotation.Nullable;

import java.nio.charset.StandardCharsets;

/**
 * One row of an index build on its way to the writer of its run: {@code (run, null key, key, row
 * id)}, sorted by all four fields ({@link GlobalIndexScanner} says why they order as the index).
 * Public with a public constructor for Flink's tuple serializer.
 */
public final class IndexedRow extends Tuple4<Integer, Boolean, String, Long> {

    private static final long serialVersionUID = 1L;

    static final TypeInformation<IndexedRow> TYPE =
            new TupleTypeInfo<>(
                    IndexedRow.class, Types.INT, Types.BOOLEAN, Types.STRING, Types.LONG);

    public IndexedRow() {}

    static IndexedRow ofKey(int run, BTreeKeys keys, @Nullable byte[] key, long rowId) {
        IndexedRow row = new IndexedRow();
        row.f0 = run;
        row.f1 = key == null;
        row.f2 = key == null ? "" : new String(keys.sortable(key), StandardCharsets.ISO_8859_1);
        row.f3 = rowId;
        return row;
    }

    int run() {
        return f0;
    }

    /** The key's bytes; null for a NULL value. */
    @Nullable
    byte[] key(BTreeKeys keys) {
        return f1 ? null : keys.fromSortable(f2.getBytes(StandardCharsets.ISO_8859_1));
    }

    long rowId() {
        return f3;
    }
}
