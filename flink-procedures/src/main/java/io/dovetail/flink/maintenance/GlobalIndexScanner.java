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
import org.apache.flink.util.Collector;

/**
 * Reads the rows of one run of an index build at the build's snapshot and emits {@link IndexedRow}s
 * {@code (run, null key, key, row id)}, whose field order is the index's order: run, non-null keys
 * before NULL, the key's sortable bytes ({@link BTreeKeys#sortable}) unsigned, then row id. The key
 * travels as a Latin-1 string of those bytes, one char per byte: strings order by unsigned chars (a
 * key before every longer key it starts), and Flink's sort keys a string's leading chars
 * (normalized key), so most comparisons never deserialize a record.
 */
final class GlobalIndexScanner extends RichFlatMapFunction<Integer, IndexedRow> {

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
    public void flatMap(Integer run, Collector<IndexedRow> out) {
        GlobalIndexBuild.scan(
                store,
                plan,
                plan.runs().get(run),
                (key, rowId) -> out.collect(IndexedRow.ofKey(run, keys, key, rowId)));
    }
}
