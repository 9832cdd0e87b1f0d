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
package io.dovetail.flink.source;

import io.dovetail.table.TableLoader;
import io.dovetail.table.TableStore;
import io.dovetail.table.json.Json;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.DataEvolutionTableValidator;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.TypeJson;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a read of a Dovetail table reads, small enough for a job graph: the table, the schema and
 * snapshot (null: the table had no snapshot, nothing to read), the output columns, the filter and
 * the split sizes, and whether BLOB values are read as descriptors. The split enumerator turns it
 * into a {@link ReadPlan} (a streaming read: into the requests of its snapshots).
 */
public final class ReadSpec implements Serializable {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final long schemaId;
    @Nullable private final Long snapshotId;
    private final byte[] fields;
    @Nullable private final byte[] filter;
    private final long targetSplitSize;
    private final long openFileCost;
    private final boolean blobsAsDescriptors;
    private final boolean globalIndexes;
    @Nullable private final String[] dereferenced;

    private transient List<DataField> decodedFields;

    public ReadSpec(
            TablePaths table,
            TableSchema schema,
            @Nullable Long snapshotId,
            List<DataField> fields,
            @Nullable Predicate filter,
            long targetSplitSize,
            long openFileCost,
            boolean blobsAsDescriptors,
            boolean globalIndexes) {
        // checks the columns, filter and sizes now, where the query is planned
        new ReadRequest(schema, fields, p -> true, null, filter, targetSplitSize, openFileCost);
        this.table = TableLoader.of(table);
        this.schemaId = schema.id();
        this.snapshotId = snapshotId;
        this.fields = Json.toBytes(TypeJson.writeFields(fields));
        this.filter = filter == null ? null : PredicateCodec.toBytes(filter);
        this.targetSplitSize = targetSplitSize;
        this.openFileCost = openFileCost;
        this.blobsAsDescriptors = blobsAsDescriptors;
        this.globalIndexes = globalIndexes;
        this.dereferenced = blobsAsDescriptors ? null : dereferenced(schema, fields);
    }

    /**
     * Per output column, the name of a BLOB column stored inline as descriptors whose values the
     * read returns as the bytes they reference, or null; null when there is none.
     */
    @Nullable
    public String[] dereferenced() {
        return dereferenced == null ? null : dereferenced.clone();
    }

    @Nullable
    private static String[] dereferenced(TableSchema schema, List<DataField> fields) {
        String[] names = new String[fields.size()];
        boolean any = false;
        for (int i = 0; i < fields.size(); i++) {
            DataField field = fields.get(i);
            if (DataEvolutionTableValidator.isBlobColumn(field.type())
                    && !DataEvolutionTableValidator.isDedicatedColumn(schema, field)) {
                names[i] = field.name();
                any = true;
            }
        }
        return any ? names : null;
    }

    /** The output columns, in output order. */
    public List<DataField> fields() {
        if (decodedFields == null) {
            try {
                decodedFields =
                        TypeJson.readFields(Json.parse(fields), table, "the read's columns");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return decodedFields;
    }

    /**
     * Plans the read for {@code readers} parallel readers ({@link
     * ReadPlanner#plan(io.dovetail.table.snapshot.Snapshot, ReadRequest, int)}): reads the
     * snapshot's manifests once.
     */
    public ReadPlan plan(int readers) {
        if (snapshotId == null) {
            return new ReadPlan(fields(), List.of());
        }
        TableStore store = store();
        return new ReadPlanner(store)
                .plan(store.snapshots().snapshot(snapshotId), request(store), readers);
    }

    /**
     * The plan of a read that global indexes may narrow, made now for one reader when it has at
     * most one split (an index lookup, run by one reader); empty otherwise, the enumerator plans it
     * for its readers.
     */
    public Optional<ReadPlan> planLookup() {
        if (snapshotId == null) {
            return Optional.empty();
        }
        TableStore store = store();
        ReadRequest request = request(store);
        if (!request.mayUseGlobalIndexes()) {
            return Optional.empty();
        }
        ReadPlan plan =
                new ReadPlanner(store).plan(store.snapshots().snapshot(snapshotId), request, 1);
        return plan.splits().size() <= 1 ? Optional.of(plan) : Optional.empty();
    }

    /** The snapshot to read; null when the table had none. */
    @Nullable
    public Long snapshotId() {
        return snapshotId;
    }

    public TableStore store() {
        return table.open();
    }

    /** The read of any snapshot of {@code store} with this spec's schema, columns and filter. */
    public ReadRequest request(TableStore store) {
        TableSchema schema = store.schemas().schema(schemaId);
        Map<Integer, DataField> columns = new HashMap<>();
        schema.fields().forEach(f -> columns.put(f.id(), f));
        columns.put(SystemFields.ROW_ID.id(), SystemFields.ROW_ID);
        columns.put(SystemFields.SEQUENCE_NUMBER.id(), SystemFields.SEQUENCE_NUMBER);
        Predicate predicate = filter == null ? null : PredicateCodec.fromBytes(filter, columns);
        return new ReadRequest(
                schema,
                fields().stream().map(f -> columns.get(f.id())).toList(),
                PartitionPruning.of(schema, predicate),
                null,
                predicate,
                targetSplitSize,
                openFileCost,
                blobsAsDescriptors,
                globalIndexes);
    }
}
