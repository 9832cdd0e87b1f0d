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

import io.dovetail.table.TableLoader;
import io.dovetail.table.TableStore;
import io.dovetail.table.index.BTreeKeys;
import io.dovetail.table.maintenance.GlobalIndexBuild;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.util.Collector;

import java.util.HexFormat;

/**
 * Reads the rows of one run of an index build at the build's snapshot and emits {@code (run, sort
 * key)}, the sort key a string whose order is the index's: the run as 8 hex digits, {@code 0} and
 * the key's sortable bytes ({@link BTreeKeys#sortable}) in hex ({@code 1} and nothing for NULL), a
 * space, and the row id as 16 hex digits. Hex digits order as the unsigned bytes they spell, and
 * the space before the row id orders a key before every longer key it starts.
 */
final class GlobalIndexScanner extends RichFlatMapFunction<Integer, Tuple2<Integer, String>> {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final GlobalIndexBuild.Plan plan;

    private transient TableStore store;
    private transient BTreeKeys keys;

    GlobalIndexScanner(TablePaths table, GlobalIndexBuild.Plan plan) {
        this.table = TableLoader.of(table);
        this.plan = plan;
    }

    @Override
    public void open(OpenContext context) {
        store = table.open();
        keys = GlobalIndexBuild.keys(store, plan);
    }

    @Override
    public void flatMap(Integer run, Collector<Tuple2<Integer, String>> out) {
        HexFormat hex = HexFormat.of();
        String prefix = String.format("%08x", run);
        GlobalIndexBuild.scan(
                store,
                plan,
                plan.runs().get(run),
                (key, rowId) ->
                        out.collect(
                                Tuple2.of(
                                        run,
                                        prefix
                                                + (key == null
                                                        ? "1"
                                                        : "0" + hex.formatHex(keys.sortable(key)))
                                                + " "
                                                + String.format("%016x", rowId))));
    }

    /** The key bytes of a sort key; null for a NULL value. */
    static byte[] key(String sortKey, BTreeKeys keys) {
        if (sortKey.charAt(8) == '1') {
            return null;
        }
        return keys.fromSortable(HexFormat.of().parseHex(sortKey, 9, sortKey.length() - 17));
    }

    /** The row id of a sort key. */
    static long rowId(String sortKey) {
        return Long.parseUnsignedLong(sortKey.substring(sortKey.length() - 16), 16);
    }
}
