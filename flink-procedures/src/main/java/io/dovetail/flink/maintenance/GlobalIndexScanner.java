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

import io.dovetail.table.TableStore;
import io.dovetail.table.index.BTreeKeys;
import io.dovetail.table.maintenance.GlobalIndexBuild;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.Collector;

import java.util.HexFormat;

/**
 * Reads the rows of one run of an index build at the build's snapshot and emits {@code (run, 1 for
 * NULL else 0, the key's sortable bytes as hex, row id)}: hex strings order as the unsigned bytes
 * they spell, so Flink's sort puts the keys in index order ({@link BTreeKeys#sortable}).
 */
final class GlobalIndexScanner
        extends RichFlatMapFunction<Integer, Tuple4<Integer, Integer, String, Long>> {

    private static final long serialVersionUID = 1L;

    private final String table;
    private final GlobalIndexBuild.Plan plan;

    private transient TableStore store;
    private transient BTreeKeys keys;

    GlobalIndexScanner(TablePaths table, GlobalIndexBuild.Plan plan) {
        this.table = table.root().toString();
        this.plan = plan;
    }

    @Override
    public void open(OpenContext context) {
        store = TableStore.open(new TablePaths(new Path(table)));
        keys = GlobalIndexBuild.keys(store, plan);
    }

    @Override
    public void flatMap(Integer run, Collector<Tuple4<Integer, Integer, String, Long>> out) {
        HexFormat hex = HexFormat.of();
        GlobalIndexBuild.scan(
                store,
                plan,
                plan.runs().get(run),
                (key, rowId) ->
                        out.collect(
                                key == null
                                        ? Tuple4.of(run, 1, "", rowId)
                                        : Tuple4.of(
                                                run, 0, hex.formatHex(keys.sortable(key)), rowId)));
    }
}
