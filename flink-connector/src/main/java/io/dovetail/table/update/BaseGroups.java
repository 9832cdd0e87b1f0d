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
package io.dovetail.table.update;

import io.dovetail.table.TableStore;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.error.Errors;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The row-range groups of the base snapshot, planned once for reading the updated columns and
 * {@code _ROW_ID}. Planning reads metadata only (manifests, index manifest): no data file is opened
 * until a group is read, so untouched groups are never opened.
 */
final class BaseGroups {

    private final Snapshot base;
    private final List<DataField> readFields;
    private final TreeMap<Long, FileGroup> byFirstRowId = new TreeMap<>();

    private BaseGroups(Snapshot base, ReadPlan plan) {
        this.base = base;
        this.readFields = plan.fields();
        for (ReadSplit split : plan.splits()) {
            for (FileGroup group : split.groups()) {
                byFirstRowId.put(group.range().first(), group);
            }
        }
    }

    /**
     * Plans the read of {@code columns} (of {@code schema}), the {@code copied} ones and {@code
     * _ROW_ID} on {@code base}.
     */
    static BaseGroups plan(
            TableStore store,
            Snapshot base,
            TableSchema schema,
            List<String> columns,
            List<String> copied) {
        List<String> names = new ArrayList<>(columns);
        names.addAll(copied);
        names.add(SystemFields.ROW_ID.name());
        // the BLOB values a rewrite keeps are copied from descriptors of their .blob files,
        // streamed, never held whole
        ReadRequest request =
                ReadRequest.allColumns(schema)
                        .withColumns(names.toArray(String[]::new))
                        .withBlobsAsDescriptors(true);
        return new BaseGroups(base, new ReadPlanner(store).plan(base, request));
    }

    /**
     * The fields a group read produces: the updated columns, the copied ones, then {@code _ROW_ID}.
     */
    List<DataField> readFields() {
        return readFields;
    }

    /** The live group holding {@code rowId}; a row id outside every live range is stale. */
    FileGroup containing(long rowId) {
        FileGroup group = find(rowId);
        if (group == null) {
            throw staleRowId(base, rowId);
        }
        return group;
    }

    /** The live group holding {@code rowId}, or null if it is stale. */
    @Nullable
    FileGroup find(long rowId) {
        Map.Entry<Long, FileGroup> floor = byFirstRowId.floorEntry(rowId);
        return floor != null && floor.getValue().range().contains(rowId) ? floor.getValue() : null;
    }

    /** The error for {@code rowId}, which is in no live range of {@code base}. */
    static DovetailException staleRowId(Snapshot base, long rowId) {
        Long next = base.nextRowId();
        String why =
                next != null && (rowId < 0 || rowId >= next)
                        ? "; that snapshot has assigned only the row ids below " + next
                        : "; its range was removed (overwrite) or given new row ids";
        return Errors.staleRowId(
                rowId, base.id(), why, "Take the row ids from a read of the base snapshot.");
    }
}
