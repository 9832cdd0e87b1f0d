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

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

import static io.dovetail.table.manifest.AvroSchemas.INT;
import static io.dovetail.table.manifest.AvroSchemas.LONG;
import static io.dovetail.table.manifest.AvroSchemas.STRING;
import static io.dovetail.table.manifest.AvroSchemas.TOP_RECORD;
import static io.dovetail.table.manifest.AvroSchemas.nestedName;
import static io.dovetail.table.manifest.AvroSchemas.optional;
import static io.dovetail.table.manifest.AvroSchemas.record;
import static io.dovetail.table.manifest.AvroSchemas.required;

/** Avro form of {@link ManifestFileMeta}: one record of a manifest list, {@code _VERSION} 2. */
final class ManifestFileMetaAvro {

    static final int VERSION = 2;

    private static final String VERSION_FIELD = "_VERSION";
    private static final String FILE_NAME = "_FILE_NAME";
    private static final String FILE_SIZE = "_FILE_SIZE";
    private static final String NUM_ADDED_FILES = "_NUM_ADDED_FILES";
    private static final String NUM_DELETED_FILES = "_NUM_DELETED_FILES";
    private static final String PARTITION_STATS = "_PARTITION_STATS";
    private static final String SCHEMA_ID = "_SCHEMA_ID";
    private static final String MIN_BUCKET = "_MIN_BUCKET";
    private static final String MAX_BUCKET = "_MAX_BUCKET";
    private static final String MIN_LEVEL = "_MIN_LEVEL";
    private static final String MAX_LEVEL = "_MAX_LEVEL";
    private static final String MIN_ROW_ID = "_MIN_ROW_ID";
    private static final String MAX_ROW_ID = "_MAX_ROW_ID";

    static final Schema SCHEMA =
            record(
                    TOP_RECORD,
                    required(VERSION_FIELD, INT),
                    required(FILE_NAME, STRING),
                    required(FILE_SIZE, LONG),
                    required(NUM_ADDED_FILES, LONG),
                    required(NUM_DELETED_FILES, LONG),
                    required(
                            PARTITION_STATS,
                            SimpleStatsAvro.schema(nestedName(TOP_RECORD, PARTITION_STATS))),
                    required(SCHEMA_ID, LONG),
                    optional(MIN_BUCKET, INT),
                    optional(MAX_BUCKET, INT),
                    optional(MIN_LEVEL, INT),
                    optional(MAX_LEVEL, INT),
                    optional(MIN_ROW_ID, LONG),
                    optional(MAX_ROW_ID, LONG));

    private ManifestFileMetaAvro() {}

    static GenericRecord toRecord(ManifestFileMeta meta) {
        GenericRecord record = new GenericData.Record(SCHEMA);
        record.put(VERSION_FIELD, VERSION);
        record.put(FILE_NAME, meta.fileName());
        record.put(FILE_SIZE, meta.fileSize());
        record.put(NUM_ADDED_FILES, meta.numAddedFiles());
        record.put(NUM_DELETED_FILES, meta.numDeletedFiles());
        record.put(
                PARTITION_STATS,
                SimpleStatsAvro.toRecord(
                        SCHEMA.getField(PARTITION_STATS).schema(), meta.partitionStats()));
        record.put(SCHEMA_ID, meta.schemaId());
        record.put(MIN_BUCKET, meta.minBucket());
        record.put(MAX_BUCKET, meta.maxBucket());
        record.put(MIN_LEVEL, meta.minLevel());
        record.put(MAX_LEVEL, meta.maxLevel());
        record.put(MIN_ROW_ID, meta.minRowId());
        record.put(MAX_ROW_ID, meta.maxRowId());
        return record;
    }

    static ManifestFileMeta fromRecord(AvroRecordView view) {
        view.requireVersion(VERSION_FIELD, VERSION, "manifest list", "");
        return new ManifestFileMeta(
                view.requiredString(FILE_NAME),
                view.requiredLong(FILE_SIZE),
                view.requiredLong(NUM_ADDED_FILES),
                view.requiredLong(NUM_DELETED_FILES),
                SimpleStatsAvro.fromRecord(view.requiredRecord(PARTITION_STATS)),
                view.requiredLong(SCHEMA_ID),
                view.optionalInt(MIN_BUCKET),
                view.optionalInt(MAX_BUCKET),
                view.optionalInt(MIN_LEVEL),
                view.optionalInt(MAX_LEVEL),
                view.optionalLong(MIN_ROW_ID),
                view.optionalLong(MAX_ROW_ID));
    }
}
