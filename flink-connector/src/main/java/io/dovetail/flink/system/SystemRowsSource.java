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
package io.dovetail.flink.system;

import io.dovetail.table.TableLoader;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.lib.util.IteratorSourceEnumerator;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;

/**
 * A bounded FLIP-27 source of one system table's rows. The job graph carries only the table, the
 * system table's name and the requested snapshot; the enumerator fixes the snapshot when the job
 * starts (the latest, unless one was requested) and hands out one split, whose reader computes the
 * rows from the table's metadata then.
 */
public final class SystemRowsSource
        implements Source<RowData, SystemRowsSplit, Collection<SystemRowsSplit>> {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final String systemTable;
    @Nullable private final Long snapshotId;

    SystemRowsSource(TablePaths table, SystemTable systemTable, @Nullable Long snapshotId) {
        this.table = TableLoader.of(table);
        this.systemTable = systemTable.name();
        this.snapshotId = snapshotId;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<RowData, SystemRowsSplit> createReader(SourceReaderContext context) {
        return new SystemRowsReader(context);
    }

    @Override
    public SplitEnumerator<SystemRowsSplit, Collection<SystemRowsSplit>> createEnumerator(
            SplitEnumeratorContext<SystemRowsSplit> context) {
        Long snapshot = snapshotId;
        if (snapshot == null) {
            OptionalLong latest = table.open().snapshots().latestId();
            snapshot = latest.isPresent() ? latest.getAsLong() : null;
        }
        return new IteratorSourceEnumerator<>(
                context, List.of(new SystemRowsSplit(table, systemTable, snapshot, 0)));
    }

    @Override
    public SplitEnumerator<SystemRowsSplit, Collection<SystemRowsSplit>> restoreEnumerator(
            SplitEnumeratorContext<SystemRowsSplit> context, Collection<SystemRowsSplit> state) {
        return new IteratorSourceEnumerator<>(context, state);
    }

    @Override
    public SimpleVersionedSerializer<SystemRowsSplit> getSplitSerializer() {
        return new SystemRowsSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Collection<SystemRowsSplit>>
            getEnumeratorCheckpointSerializer() {
        return new SystemRowsStateSerializer();
    }
}
