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
package io.dovetail.flink.dml;

import io.dovetail.table.TableLoader;
import io.dovetail.table.TableStore;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.RowGroups;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Gives each update of a stream of column updates ({@code _ROW_ID} first) the key of its row-range
 * group in the table's layout, the group's first row id, by which {@link
 * GroupPartitioner#byGroupKey} routes it to a writer. Chained to the updates' producer, in front of
 * the shuffle.
 *
 * <p>The layout follows the table: row ids beyond every known group make it learn the groups
 * appended since (known groups keep their keys), and before each checkpoint barrier, if a
 * compaction, materialization or overwrite committed since it was loaded, it is loaded again, so a
 * compaction that merged groups sends the whole merged group to one writer from the next checkpoint
 * on. The keys of existing rows change only at a barrier: the updates of a row that arrive along
 * one path between two barriers reach one writer, in order. A row id in no group (a stale one) is
 * its own key; the writer's flush reports it.
 */
final class ColumnUpdateRouter extends AbstractStreamOperator<Tuple2<Long, RowData>>
        implements OneInputStreamOperator<RowData, Tuple2<Long, RowData>> {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;

    private transient TableStore store;
    private transient TreeMap<Long, Long> groups; // first row id -> last row id
    private transient long knownUpTo; // the last row id of the known groups
    private transient long loaded; // the snapshot the layout was last loaded or extended from
    private transient long checked; // the snapshots up to this one did not change the layout

    ColumnUpdateRouter(TablePaths table) {
        this.table = TableLoader.of(table);
    }

    @Override
    public void open() throws Exception {
        super.open();
        store = table.open();
        load();
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        RowData row = element.getValue();
        long rowId = row.isNullAt(0) ? -1 : row.getLong(0);
        if (rowId > knownUpTo) {
            learnAppends();
        }
        Map.Entry<Long, Long> group = groups.floorEntry(rowId);
        long key = group != null && rowId <= group.getValue() ? group.getKey() : rowId;
        output.collect(element.replace(Tuple2.of(key, row)));
    }

    /** Between two checkpoints: a layout that compactions or overwrites changed is loaded again. */
    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) {
        long latest = store.snapshots().latestId().orElse(0);
        for (long id = checked + 1; id <= latest; id++) {
            if (!store.snapshots().exists(id) || changesLayout(store.snapshots().snapshot(id))) {
                load();
                return;
            }
        }
        checked = latest;
    }

    private static boolean changesLayout(Snapshot snapshot) {
        return snapshot.commitKind() == CommitKind.COMPACT
                || snapshot.commitKind() == CommitKind.OVERWRITE;
    }

    /** The groups of the latest snapshot, replacing the known ones. */
    private void load() {
        groups = new TreeMap<>();
        knownUpTo = -1;
        loaded = 0;
        learnAppends();
        checked = loaded;
    }

    /** Adds the groups of the latest snapshot beyond the known ones. */
    private void learnAppends() {
        Optional<Snapshot> latest = store.latestSnapshot();
        if (latest.isEmpty() || latest.get().id() == loaded) {
            return; // nothing new: a stale row id
        }
        loaded = latest.get().id();
        for (RowRange range : RowGroups.rangesOfLiveFiles(store.files(latest.get()).liveFiles())) {
            if (range.first() > knownUpTo) {
                groups.put(range.first(), range.last());
            }
        }
        if (!groups.isEmpty()) {
            knownUpTo = Math.max(knownUpTo, groups.lastEntry().getValue());
        }
    }
}
