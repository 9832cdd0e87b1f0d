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

import io.dovetail.table.path.TablePaths;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;

import javax.annotation.Nullable;

/**
 * The scan of a metadata system table ({@code t$snapshots}, {@code t$files} ...): one reader
 * computes the rows when the job runs. {@code scan.snapshot-id} picks the snapshot of the
 * snapshot-scoped tables.
 */
public final class SystemTableSource implements ScanTableSource {

    private final TablePaths table;
    private final SystemTable systemTable;
    @Nullable private final Long snapshotId;

    /**
     * @param snapshotId the snapshot to describe, checked to exist; null for the latest when the
     *     job starts
     */
    public SystemTableSource(TablePaths table, SystemTable systemTable, @Nullable Long snapshotId) {
        this.table = table;
        this.systemTable = systemTable;
        this.snapshotId = snapshotId;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        return SourceProvider.of(new SystemRowsSource(table, systemTable, snapshotId), 1);
    }

    @Override
    public DynamicTableSource copy() {
        return new SystemTableSource(table, systemTable, snapshotId);
    }

    @Override
    public String asSummaryString() {
        return "Dovetail " + systemTable.name();
    }
}
