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
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.predicate.ColumnBounds;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.stats.ColumnStats;
import io.dovetail.table.stats.SimpleStatsConverter;
import io.dovetail.table.stats.StatsWidening;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.types.TypeRoot;

import org.apache.flink.table.types.logical.LogicalType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.UnaryOperator;

/**
 * The column bounds of row-range groups for statistics pruning (data-evolution semantics §4.1 step
 * 4). A group is judged as a whole: each column's bounds come only from the file that provides the
 * column to readers ({@link ProviderSelection.Providers}), never from an older file whose values
 * were overwritten. That file's value statistics are decoded under its own schema ({@code
 * valueStatsCols}, or null for all the columns it wrote) and used only when its stored type reads
 * as the requested type exactly and in order ({@link StatsWidening}). A nullable column no file
 * wrote is NULL in every row; a partition column holds the group's partition value, {@code _ROW_ID}
 * lies in the group range and {@code _SEQUENCE_NUMBER} is the group's. Deletion vectors only remove
 * rows, so the bounds stay true.
 */
final class GroupStatistics {

    private final LongFunction<TableSchema> schemas;
    private final Map<List<Object>, SimpleStatsConverter> converters = new HashMap<>();

    GroupStatistics(LongFunction<TableSchema> schemas) {
        this.schemas = schemas;
    }

    /** The bounds of the group's columns, computed once per column. */
    Function<DataField, ColumnBounds> of(ProviderSelection.Providers providers, RowRange range) {
        Map<Integer, ColumnBounds> bounds = new HashMap<>();
        Map<String, List<ColumnStats>> decoded = new HashMap<>();
        return field ->
                bounds.computeIfAbsent(field.id(), id -> bounds(field, providers, range, decoded));
    }

    private ColumnBounds bounds(
            DataField field,
            ProviderSelection.Providers providers,
            RowRange range,
            Map<String, List<ColumnStats>> decoded) {
        long rows = range.count();
        if (field.id() == SystemFields.ROW_ID_FIELD_ID) {
            return new ColumnBounds(range.first(), range.last(), 0L, rows);
        }
        if (field.id() == SystemFields.SEQUENCE_NUMBER_FIELD_ID) {
            long sequence = providers.sequenceNumber();
            return new ColumnBounds(sequence, sequence, 0L, rows);
        }
        if (providers.partition().contains(field)) {
            Object value = providers.partition().value(field);
            return value == null
                    ? ColumnBounds.allNull(rows)
                    : new ColumnBounds(value, value, 0L, rows);
        }
        if (providers.fromDedicatedFiles(field)) {
            return ColumnBounds.unknown(rows);
        }
        ProviderSelection.Provider provider = providers.provider(field);
        if (provider == null) {
            // a NOT NULL column without a provider is a broken layout the reader reports
            return field.type().nullable()
                    ? ColumnBounds.allNull(rows)
                    : ColumnBounds.unknown(rows);
        }
        Optional<UnaryOperator<Object>> cast =
                StatsWidening.exact(provider.stored().type(), field.type());
        DataFileMeta file = provider.file().meta();
        ColumnStats stats =
                cast.isEmpty() ? null : columnStats(file, provider.stored().name(), decoded);
        if (stats == null) {
            return ColumnBounds.unknown(rows);
        }
        return new ColumnBounds(
                stats.min() == null ? null : cast.get().apply(stats.min()),
                stats.max() == null ? null : cast.get().apply(stats.max()),
                stats.nullCount(),
                file.rowCount());
    }

    /** The statistics {@code file} holds for its column {@code name}, or null if none. */
    @Nullable
    private ColumnStats columnStats(
            DataFileMeta file, String name, Map<String, List<ColumnStats>> decoded) {
        TableSchema schema = schemas.apply(file.schemaId());
        List<String> columns = statsColumns(file, schema);
        int index = columns.indexOf(name);
        if (index < 0) {
            return null;
        }
        List<ColumnStats> all =
                decoded.computeIfAbsent(
                        file.fileName(),
                        f -> {
                            SimpleStatsConverter converter = converter(file, schema, columns);
                            return converter == null
                                    ? null
                                    : converter.fromStats(file.valueStats(), file.fileName());
                        });
        return all == null ? null : all.get(index);
    }

    /** The columns {@code valueStats} covers: {@code valueStatsCols}, else every written one. */
    private static List<String> statsColumns(DataFileMeta file, TableSchema schema) {
        if (file.valueStatsCols() != null) {
            return file.valueStatsCols();
        }
        return file.writeCols() != null ? file.writeCols() : schema.fieldNames();
    }

    /** The decoder of the file's statistics rows, or null when a column has no stats encoding. */
    @Nullable
    private SimpleStatsConverter converter(
            DataFileMeta file, TableSchema schema, List<String> columns) {
        List<Object> key = List.of(schema.id(), columns);
        if (converters.containsKey(key)) {
            return converters.get(key);
        }
        List<LogicalType> types = new ArrayList<>();
        for (String column : columns) {
            DataType type = statsType(file, schema, column);
            if (!(type instanceof AtomicType atomic)
                    || atomic.root() == TypeRoot.VARIANT
                    || atomic.root() == TypeRoot.BLOB) {
                types = null;
                break;
            }
            types.add(FlinkTypes.toFlink(type));
        }
        SimpleStatsConverter converter = types == null ? null : new SimpleStatsConverter(types);
        converters.put(key, converter);
        return converter;
    }

    private static DataType statsType(DataFileMeta file, TableSchema schema, String column) {
        if (SystemFields.isSystemName(column)) {
            return SystemFields.ROW_ID.type(); // both system columns are BIGINT NOT NULL
        }
        return schema.field(column)
                .orElseThrow(
                        () ->
                                Errors.corruptFile(
                                        file.fileName(),
                                        "its statistics name column '"
                                                + column
                                                + "' which schema "
                                                + schema.id()
                                                + " (the file's schema) does not have"))
                .type();
    }
}
