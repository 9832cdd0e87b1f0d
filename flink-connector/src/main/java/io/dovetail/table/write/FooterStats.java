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
package io.dovetail.table.write;

import io.dovetail.table.stats.ColumnStats;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Exact column statistics of a written file taken from its Parquet footer, as Paimon takes them
 * (metadata format section 5.5): per top-level primitive column the minimum, maximum and null count
 * merged over row groups and converted to Flink internal values. Columns without a top-level
 * Parquet column (ROW, ARRAY, MAP, MULTISET) get no statistics at all; BINARY/VARBINARY/BLOB
 * columns and INT96 timestamps (precision above 6) only a null count. Bounds are left unknown when
 * a row group holds values but the footer has no bounds for it (NaN, very long values), so they are
 * always true bounds.
 */
final class FooterStats {

    private FooterStats() {}

    /** The statistics of {@code columns} (the file's columns, in order). */
    static List<ColumnStats> of(ParquetMetadata footer, List<DataField> columns) {
        Map<String, Merged> byColumn = new HashMap<>();
        for (BlockMetaData block : footer.getBlocks()) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                if (chunk.getPath().size() == 1) {
                    byColumn.computeIfAbsent(chunk.getPath().toDotString(), k -> new Merged())
                            .add(chunk);
                }
            }
        }
        List<ColumnStats> result = new ArrayList<>(columns.size());
        for (DataField column : columns) {
            Merged merged = byColumn.get(column.name());
            result.add(
                    merged == null || !(column.type() instanceof AtomicType atomic)
                            ? ColumnStats.NONE
                            : merged.toColumnStats(atomic));
        }
        return result;
    }

    /** Statistics of one column merged over row groups. */
    private static final class Merged {
        private long nullCount;
        private boolean boundsUnknown;
        private Statistics<?> bounds;

        void add(ColumnChunkMetaData chunk) {
            Statistics<?> stats = chunk.getStatistics();
            nullCount += stats.getNumNulls();
            if (!stats.hasNonNullValue()) {
                boundsUnknown |= stats.getNumNulls() < chunk.getValueCount();
                return;
            }
            if (bounds == null) {
                bounds = stats.copy();
            } else {
                bounds.mergeStatistics(stats);
            }
        }

        ColumnStats toColumnStats(AtomicType type) {
            if (boundsUnknown || bounds == null || !hasBounds(type)) {
                return new ColumnStats(null, null, nullCount);
            }
            return new ColumnStats(
                    value(type, bounds.genericGetMin()),
                    value(type, bounds.genericGetMax()),
                    nullCount);
        }
    }

    private static boolean hasBounds(AtomicType type) {
        switch (type.root()) {
            case BINARY:
            case VARBINARY:
            case BLOB: // inline descriptors
                return false;
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return ParquetSchemas.timestampUnit(type.precision())
                        != ParquetSchemas.TimestampUnit.INT96;
            default:
                return true;
        }
    }

    /** Converts a Parquet statistics value to the Flink internal value of the column type. */
    private static Object value(AtomicType type, Object parquetValue) {
        switch (type.root()) {
            case CHAR:
            case VARCHAR:
                return StringData.fromString(((Binary) parquetValue).toStringUsingUTF8());
            case TINYINT:
                return (byte) (int) (Integer) parquetValue;
            case SMALLINT:
                return (short) (int) (Integer) parquetValue;
            case DECIMAL:
                return decimal(type, parquetValue);
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                long stored = (Long) parquetValue;
                return ParquetSchemas.timestampUnit(type.precision())
                                == ParquetSchemas.TimestampUnit.MILLIS
                        ? TimestampData.fromEpochMillis(stored)
                        : TimestampData.fromEpochMillis(
                                Math.floorDiv(stored, 1000L),
                                (int) Math.floorMod(stored, 1000L) * 1000);
            default:
                // BOOLEAN, INT, DATE, TIME, BIGINT, FLOAT, DOUBLE: already the internal value
                return parquetValue;
        }
    }

    private static DecimalData decimal(AtomicType type, Object parquetValue) {
        int precision = type.precision();
        int scale = type.scale();
        if (parquetValue instanceof Binary binary) {
            return DecimalData.fromBigDecimal(
                    new BigDecimal(new BigInteger(binary.getBytes()), scale), precision, scale);
        }
        return DecimalData.fromUnscaledLong(((Number) parquetValue).longValue(), precision, scale);
    }
}
