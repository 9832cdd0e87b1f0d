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
import io.dovetail.table.TableStore;

import org.apache.flink.api.connector.source.lib.util.IteratorSourceSplit;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * The one split of a system table read: which table, which system table, which snapshot (null: the
 * table had none when the job started) and how many rows were emitted before the last checkpoint.
 * The rows are computed when a reader opens the split.
 */
public final class SystemRowsSplit implements IteratorSourceSplit<RowData, SystemRowsSplit.Rows> {

    private final TableLoader table;
    private final String systemTable;
    @Nullable private final Long snapshotId;
    private final long emitted;

    public SystemRowsSplit(
            TableLoader table, String systemTable, @Nullable Long snapshotId, long emitted) {
        this.table = table;
        this.systemTable = systemTable;
        this.snapshotId = snapshotId;
        this.emitted = emitted;
    }

    public TableLoader table() {
        return table;
    }

    public String systemTable() {
        return systemTable;
    }

    @Nullable
    public Long snapshotId() {
        return snapshotId;
    }

    /** Rows already emitted (and checkpointed): a restored reader skips them. */
    public long emitted() {
        return emitted;
    }

    @Override
    public String splitId() {
        return "0";
    }

    @Override
    public Rows getIterator() {
        TableStore store = table.open();
        SystemTable metadata =
                SystemTables.metadata(systemTable)
                        .orElseThrow(
                                () ->
                                        SystemTables.unknown(
                                                new SystemTableName(
                                                        table.paths().root().getName(),
                                                        systemTable)));
        List<RowData> rows =
                metadata.rows(
                        store, snapshotId == null ? null : store.snapshots().snapshot(snapshotId));
        return new Rows(rows, emitted);
    }

    @Override
    public SystemRowsSplit getUpdatedSplitForIterator(Rows rows) {
        return new SystemRowsSplit(table, systemTable, snapshotId, rows.position);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SystemRowsSplit that
                && table.equals(that.table)
                && systemTable.equals(that.systemTable)
                && Objects.equals(snapshotId, that.snapshotId)
                && emitted == that.emitted;
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, systemTable, snapshotId, emitted);
    }

    @Override
    public String toString() {
        return "SystemRowsSplit{"
                + table
                + "$"
                + systemTable
                + ", snapshot="
                + snapshotId
                + ", emitted="
                + emitted
                + '}';
    }

    /** The split's rows from a position on, counting how far they were read. */
    static final class Rows implements Iterator<RowData> {

        private final List<RowData> rows;
        private long position;

        Rows(List<RowData> rows, long position) {
            this.rows = rows;
            this.position = position;
        }

        @Override
        public boolean hasNext() {
            return position < rows.size();
        }

        @Override
        public RowData next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return rows.get((int) position++);
        }
    }
}
