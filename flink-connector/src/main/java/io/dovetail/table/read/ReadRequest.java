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
package io.dovetail.table.read;

import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;

import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What to read from one snapshot: the output columns (table columns of {@code schema} and the
 * {@link SystemFields}, in output order), a predicate on partition values, optional row-id ranges,
 * an optional row filter, and the split target size.
 *
 * @param partitionFilter tested on the partition values (a row of the partition columns)
 * @param rowRanges only rows with these ids; null reads all rows
 * @param filter over columns of {@code schema} and the system fields; groups it proves empty are
 *     skipped and rows outside the row ids its {@code _ROW_ID} predicates allow are not read, other
 *     rows are returned unfiltered (null: no filter)
 * @param blobsAsDescriptors BLOB values of {@code .blob} files are read as serialized descriptors
 *     of their bytes ({@code blob-as-descriptor}), not as the bytes
 * @param globalIndexes the filter's equalities and INs on columns with B-tree global indexes read
 *     only the rows the indexes name, and the rows they do not cover ({@code global-index.enabled},
 *     {@link GlobalIndexRowIds})
 */
public record ReadRequest(
        TableSchema schema,
        List<DataField> fields,
        java.util.function.Predicate<RowData> partitionFilter,
        @Nullable List<RowRange> rowRanges,
        @Nullable Predicate filter,
        long targetSplitSize,
        long openFileCost,
        boolean blobsAsDescriptors,
        boolean globalIndexes) {

    public static final long DEFAULT_TARGET_SPLIT_SIZE = 128L * 1024 * 1024;
    public static final long DEFAULT_OPEN_FILE_COST = 4L * 1024 * 1024;

    public ReadRequest {
        fields = List.copyOf(fields);
        Set<Integer> ids = new HashSet<>();
        for (DataField field : fields) {
            if (!isColumn(schema, field)) {
                throw Errors.invalidArgument(
                        "Cannot read column "
                                + field
                                + ": it is neither a column of schema "
                                + schema.id()
                                + " "
                                + schema.fieldNames()
                                + " nor _ROW_ID / _SEQUENCE_NUMBER.");
            }
            if (!ids.add(field.id())) {
                throw Errors.invalidArgument("Column " + field.name() + " is requested twice.");
            }
        }
        rowRanges = rowRanges == null ? null : RowRange.normalize(rowRanges);
        if (filter != null) {
            for (DataField field : filter.fields()) {
                if (!isColumn(schema, field)) {
                    throw Errors.invalidArgument(
                            "Cannot filter on column "
                                    + field
                                    + ": it is neither a column of schema "
                                    + schema.id()
                                    + " "
                                    + schema.fieldNames()
                                    + " nor _ROW_ID / _SEQUENCE_NUMBER.");
                }
            }
        }
        if (targetSplitSize <= 0 || openFileCost <= 0) {
            throw Errors.invalidArgument(
                    "Split target size and open-file cost must be positive, got "
                            + targetSplitSize
                            + " and "
                            + openFileCost);
        }
    }

    /**
     * Whether global indexes may narrow this read: they are enabled and the filter has an equality
     * or an IN.
     */
    public boolean mayUseGlobalIndexes() {
        return globalIndexes && filter != null && GlobalIndexRowIds.hasLookup(filter);
    }

    /** A request using the global indexes. */
    public ReadRequest(
            TableSchema schema,
            List<DataField> fields,
            java.util.function.Predicate<RowData> partitionFilter,
            @Nullable List<RowRange> rowRanges,
            @Nullable Predicate filter,
            long targetSplitSize,
            long openFileCost,
            boolean blobsAsDescriptors) {
        this(
                schema,
                fields,
                partitionFilter,
                rowRanges,
                filter,
                targetSplitSize,
                openFileCost,
                blobsAsDescriptors,
                true);
    }

    /** A request reading BLOB values as their bytes. */
    public ReadRequest(
            TableSchema schema,
            List<DataField> fields,
            java.util.function.Predicate<RowData> partitionFilter,
            @Nullable List<RowRange> rowRanges,
            @Nullable Predicate filter,
            long targetSplitSize,
            long openFileCost) {
        this(
                schema,
                fields,
                partitionFilter,
                rowRanges,
                filter,
                targetSplitSize,
                openFileCost,
                false);
    }

    private static boolean isColumn(TableSchema schema, DataField field) {
        return field.equals(SystemFields.ROW_ID)
                || field.equals(SystemFields.SEQUENCE_NUMBER)
                || schema.fields().contains(field);
    }

    /** Every column of {@code schema}, no filter, default split sizes. */
    public static ReadRequest allColumns(TableSchema schema) {
        return new ReadRequest(
                schema,
                schema.fields(),
                p -> true,
                null,
                null,
                DEFAULT_TARGET_SPLIT_SIZE,
                DEFAULT_OPEN_FILE_COST);
    }

    /** Columns of the schema by name; {@code _ROW_ID} and {@code _SEQUENCE_NUMBER} allowed. */
    public ReadRequest withColumns(String... names) {
        List<DataField> selected = new ArrayList<>();
        for (String name : names) {
            if (name.equals(SystemFields.ROW_ID.name())) {
                selected.add(SystemFields.ROW_ID);
            } else if (name.equals(SystemFields.SEQUENCE_NUMBER.name())) {
                selected.add(SystemFields.SEQUENCE_NUMBER);
            } else {
                selected.add(
                        schema.field(name)
                                .orElseThrow(
                                        () ->
                                                Errors.invalidArgument(
                                                        "No column '"
                                                                + name
                                                                + "' in schema "
                                                                + schema.id()
                                                                + " "
                                                                + schema.fieldNames())));
            }
        }
        return withFields(selected);
    }

    /** All table columns followed by {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}. */
    public ReadRequest withRowTracking() {
        List<DataField> all = new ArrayList<>(schema.fields());
        all.add(SystemFields.ROW_ID);
        all.add(SystemFields.SEQUENCE_NUMBER);
        return withFields(all);
    }

    public ReadRequest withFields(List<DataField> newFields) {
        return new ReadRequest(
                schema,
                newFields,
                partitionFilter,
                rowRanges,
                filter,
                targetSplitSize,
                openFileCost,
                blobsAsDescriptors,
                globalIndexes);
    }

    public ReadRequest withPartitionFilter(java.util.function.Predicate<RowData> newFilter) {
        return new ReadRequest(
                schema,
                fields,
                newFilter,
                rowRanges,
                filter,
                targetSplitSize,
                openFileCost,
                blobsAsDescriptors,
                globalIndexes);
    }

    public ReadRequest withRowRanges(@Nullable List<RowRange> ranges) {
        return new ReadRequest(
                schema,
                fields,
                partitionFilter,
                ranges,
                filter,
                targetSplitSize,
                openFileCost,
                blobsAsDescriptors,
                globalIndexes);
    }

    /**
     * Skips row-range groups whose statistics prove that no row passes {@code newFilter}, and rows
     * its {@code _ROW_ID} predicates exclude.
     */
    public ReadRequest withFilter(@Nullable Predicate newFilter) {
        return new ReadRequest(
                schema,
                fields,
                partitionFilter,
                rowRanges,
                newFilter,
                targetSplitSize,
                openFileCost,
                blobsAsDescriptors,
                globalIndexes);
    }

    public ReadRequest withSplitSizes(long target, long openCost) {
        return new ReadRequest(
                schema,
                fields,
                partitionFilter,
                rowRanges,
                filter,
                target,
                openCost,
                blobsAsDescriptors,
                globalIndexes);
    }

    /** The same request, reading BLOB values as descriptors when {@code asDescriptors}. */
    public ReadRequest withBlobsAsDescriptors(boolean asDescriptors) {
        return new ReadRequest(
                schema,
                fields,
                partitionFilter,
                rowRanges,
                filter,
                targetSplitSize,
                openFileCost,
                asDescriptors,
                globalIndexes);
    }

    /** The same request, using the global indexes for its filter when {@code use}. */
    public ReadRequest withGlobalIndexes(boolean use) {
        return new ReadRequest(
                schema,
                fields,
                partitionFilter,
                rowRanges,
                filter,
                targetSplitSize,
                openFileCost,
                blobsAsDescriptors,
                use);
    }
}
