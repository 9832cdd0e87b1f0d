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

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

import java.nio.ByteBuffer;

import static io.dovetail.table.manifest.AvroSchemas.BYTES;
import static io.dovetail.table.manifest.AvroSchemas.INT;
import static io.dovetail.table.manifest.AvroSchemas.TOP_RECORD;
import static io.dovetail.table.manifest.AvroSchemas.record;
import static io.dovetail.table.manifest.AvroSchemas.required;

/** Avro form of {@link ManifestEntry}: one record of a manifest file, {@code _VERSION} 2. */
final class ManifestEntryAvro {

    static final int VERSION = 2;

    private static final String VERSION_FIELD = "_VERSION";
    private static final String KIND = "_KIND";
    private static final String PARTITION = "_PARTITION";
    private static final String BUCKET = "_BUCKET";
    private static final String TOTAL_BUCKETS = "_TOTAL_BUCKETS";
    private static final String FILE = "_FILE";

    static final Schema SCHEMA =
            record(
                    TOP_RECORD,
                    required(VERSION_FIELD, INT),
                    required(KIND, INT),
                    required(PARTITION, BYTES),
                    required(BUCKET, INT),
                    required(TOTAL_BUCKETS, INT),
                    required(FILE, DataFileMetaAvro.schema(TOP_RECORD)));

    private ManifestEntryAvro() {}

    static GenericRecord toRecord(ManifestEntry entry) {
        GenericRecord record = new GenericData.Record(SCHEMA);
        record.put(VERSION_FIELD, VERSION);
        record.put(KIND, entry.kind().value());
        record.put(PARTITION, ByteBuffer.wrap(entry.partition()));
        record.put(BUCKET, entry.bucket());
        record.put(TOTAL_BUCKETS, entry.totalBuckets());
        record.put(FILE, DataFileMetaAvro.toRecord(SCHEMA.getField(FILE).schema(), entry.file()));
        return record;
    }

    static ManifestEntry fromRecord(AvroRecordView view) {
        view.requireVersion(
                VERSION_FIELD,
                VERSION,
                "manifest entry",
                " (tables with version-1 manifests must be recreated)");
        byte[] partition = view.requiredBytes(PARTITION);
        BinaryRowCodec.arity(partition, view.source() + "." + PARTITION);
        return new ManifestEntry(
                FileKind.fromValue(view.requiredInt(KIND), view.source()),
                partition,
                view.requiredInt(BUCKET),
                view.requiredInt(TOTAL_BUCKETS),
                DataFileMetaAvro.fromRecord(view.requiredRecord(FILE)));
    }
}
