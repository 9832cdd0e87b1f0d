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
package io.dovetail.table.manifest;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.stats.SimpleStats;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static io.dovetail.table.manifest.AvroSchemas.BYTES;
import static io.dovetail.table.manifest.AvroSchemas.LONG;
import static io.dovetail.table.manifest.AvroSchemas.arrayOf;
import static io.dovetail.table.manifest.AvroSchemas.nullable;
import static io.dovetail.table.manifest.AvroSchemas.optional;
import static io.dovetail.table.manifest.AvroSchemas.record;
import static io.dovetail.table.manifest.AvroSchemas.required;

/**
 * Avro form of {@link SimpleStats}: {@code _MIN_VALUES}, {@code _MAX_VALUES}, {@code _NULL_COUNTS}.
 */
final class SimpleStatsAvro {

    private static final String MIN_VALUES = "_MIN_VALUES";
    private static final String MAX_VALUES = "_MAX_VALUES";
    private static final String NULL_COUNTS = "_NULL_COUNTS";

    private SimpleStatsAvro() {}

    /** The stats record schema under the given (path-derived) record name. */
    static Schema schema(String recordName) {
        return record(
                recordName,
                required(MIN_VALUES, BYTES),
                required(MAX_VALUES, BYTES),
                optional(NULL_COUNTS, arrayOf(nullable(LONG))));
    }

    static GenericRecord toRecord(Schema schema, SimpleStats stats) {
        GenericRecord record = new GenericData.Record(schema);
        record.put(MIN_VALUES, ByteBuffer.wrap(stats.minValues()));
        record.put(MAX_VALUES, ByteBuffer.wrap(stats.maxValues()));
        record.put(NULL_COUNTS, stats.nullCounts());
        return record;
    }

    /** Decodes the stats, checking that both rows and the null counts agree on the arity. */
    static SimpleStats fromRecord(AvroRecordView view) {
        byte[] min = view.requiredBytes(MIN_VALUES);
        byte[] max = view.requiredBytes(MAX_VALUES);
        int arity = BinaryRowCodec.arity(min, view.source() + "." + MIN_VALUES);
        int maxArity = BinaryRowCodec.arity(max, view.source() + "." + MAX_VALUES);
        List<Object> counts = view.optionalList(NULL_COUNTS);
        if (maxArity != arity || (counts != null && counts.size() != arity)) {
            throw view.corrupt(
                    "statistics disagree on the column count (minimum row "
                            + arity
                            + ", maximum row "
                            + maxArity
                            + ", null counts "
                            + (counts == null ? "absent" : counts.size())
                            + ")");
        }
        List<Long> nullCounts = null;
        if (counts != null) {
            nullCounts = new ArrayList<>(counts.size());
            for (Object count : counts) {
                nullCounts.add((Long) count);
            }
        }
        return new SimpleStats(min, max, nullCounts);
    }
}
