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

import io.dovetail.table.TableStore;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import javax.annotation.Nullable;

import java.util.List;

/**
 * A metadata table of a Dovetail table, read as {@code t$<name>}: its columns and how its rows
 * follow from the table's metadata files. Rows are computed when the job runs, never planned ahead.
 */
public interface SystemTable {

    /** The name after the {@code $}. */
    String name();

    /** The columns as Flink sees them. */
    RowType rowType();

    /**
     * The rows for {@code snapshot}: the latest snapshot when the job started, or the one {@code
     * scan.snapshot-id} names; null when the table has no snapshot yet. Tables about the table's
     * history or schema ignore it.
     */
    List<RowData> rows(TableStore store, @Nullable Snapshot snapshot);
}
