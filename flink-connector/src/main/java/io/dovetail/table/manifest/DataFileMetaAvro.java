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
import static io.dovetail.table.manifest.AvroSchemas.LONG;
import static io.dovetail.table.manifest.AvroSchemas.STRING;
import static io.dovetail.table.manifest.AvroSchemas.arrayOf;
import static io.dovetail.table.manifest.AvroSchemas.nestedName;
import static io.dovetail.table.manifest.AvroSchemas.optional;
import static io.dovetail.table.manifest.AvroSchemas.record;
import static io.dovetail.table.manifest.AvroSchemas.required;
import static io.dovetail.table.manifest.AvroSchemas.timestampMillis;

/** Avro form of {@link DataFileMeta}: the 20 fields of the {@code _FILE} record, in order. */
final class DataFileMetaAvro {

    private static final String FILE_NAME = "_FILE_NAME";
    private static final String FILE_SIZE = "_FILE_SIZE";
    private static final String ROW_COUNT = "_ROW_COUNT";
    private static final String MIN_KEY = "_MIN_KEY";
    private static final String MAX_KEY = "_MAX_KEY";
    private static final String KEY_STATS = "_KEY_STATS";
    private static final String VALUE_STATS = "_VALUE_STATS";
    private static final String MIN_SEQUENCE_NUMBER = "_MIN_SEQUENCE_NUMBER";
    private static final String MAX_SEQUENCE_NUMBER = "_MAX_SEQUENCE_NUMBER";
    private static final String SCHEMA_ID = "_SCHEMA_ID";
    private static final String LEVEL = "_LEVEL";
    private static final String EXTRA_FILES = "_EXTRA_FILES";
    private static final String CREATION_TIME = "_CREATION_TIME";
    private static final String DELETE_ROW_COUNT = "_DELETE_ROW_COUNT";
    private static final String EMBEDDED_FILE_INDEX = "_EMBEDDED_FILE_INDEX";
    private static final String FILE_SOURCE = "_FILE_SOURCE";
    private static final String VALUE_STATS_COLS = "_VALUE_STATS_COLS";
    private static final String EXTERNAL_PATH = "_EXTERNAL_PATH";
    private static final String FIRST_ROW_ID = "_FIRST_ROW_ID";
    private static final String WRITE_COLS = "_WRITE_COLS";

    private DataFileMetaAvro() {}

    /** The {@code _FILE} record schema, nested in a record named {@code parent}. */
    static Schema schema(String parent) {
        String name = nestedName(parent, "_FILE");
        return record(
                name,
                required(FILE_NAME, STRING),
                required(FILE_SIZE, LONG),
                required(ROW_COUNT, LONG),
                required(MIN_KEY, BYTES),
                required(MAX_KEY, BYTES),
                required(KEY_STATS, SimpleStatsAvro.schema(nestedName(name, KEY_STATS))),
                required(VALUE_STATS, SimpleStatsAvro.schema(nestedName(name, VALUE_STATS))),
                required(MIN_SEQUENCE_NUMBER, LONG),
                required(MAX_SEQUENCE_NUMBER, LONG),
                required(SCHEMA_ID, LONG),
                required(LEVEL, INT),
                required(EXTRA_FILES, arrayOf(STRING)),
                optional(CREATION_TIME, timestampMillis()),
                optional(DELETE_ROW_COUNT, LONG),
                optional(EMBEDDED_FILE_INDEX, BYTES),
                optional(FILE_SOURCE, INT),
                optional(VALUE_STATS_COLS, arrayOf(STRING)),
                optional(EXTERNAL_PATH, STRING),
                optional(FIRST_ROW_ID, LONG),
                optional(WRITE_COLS, arrayOf(STRING)));
    }

    static GenericRecord toRecord(Schema schema, DataFileMeta file) {
        GenericRecord record = new GenericData.Record(schema);
        record.put(FILE_NAME, file.fileName());
        record.put(FILE_SIZE, file.fileSize());
        record.put(ROW_COUNT, file.rowCount());
        record.put(MIN_KEY, ByteBuffer.wrap(file.minKey()));
        record.put(MAX_KEY, ByteBuffer.wrap(file.maxKey()));
        record.put(
                KEY_STATS,
                SimpleStatsAvro.toRecord(schema.getField(KEY_STATS).schema(), file.keyStats()));
        record.put(
                VALUE_STATS,
                SimpleStatsAvro.toRecord(schema.getField(VALUE_STATS).schema(), file.valueStats()));
        record.put(MIN_SEQUENCE_NUMBER, file.minSequenceNumber());
        record.put(MAX_SEQUENCE_NUMBER, file.maxSequenceNumber());
        record.put(SCHEMA_ID, file.schemaId());
        record.put(LEVEL, file.level());
        record.put(EXTRA_FILES, file.extraFiles());
        record.put(CREATION_TIME, file.creationTime());
        record.put(DELETE_ROW_COUNT, file.deleteRowCount());
        byte[] index = file.embeddedFileIndex();
        record.put(EMBEDDED_FILE_INDEX, index == null ? null : ByteBuffer.wrap(index));
        record.put(FILE_SOURCE, file.fileSource() == null ? null : file.fileSource().value());
        record.put(VALUE_STATS_COLS, file.valueStatsCols());
        record.put(EXTERNAL_PATH, file.externalPath());
        record.put(FIRST_ROW_ID, file.firstRowId());
        record.put(WRITE_COLS, file.writeCols());
        return record;
    }

    static DataFileMeta fromRecord(AvroRecordView view) {
        Integer fileSource = view.optionalInt(FILE_SOURCE);
        byte[] minKey = view.requiredBytes(MIN_KEY);
        byte[] maxKey = view.requiredBytes(MAX_KEY);
        BinaryRowCodec.arity(minKey, view.source() + "." + MIN_KEY);
        BinaryRowCodec.arity(maxKey, view.source() + "." + MAX_KEY);
        return new DataFileMeta(
                view.requiredString(FILE_NAME),
                view.requiredLong(FILE_SIZE),
                view.requiredLong(ROW_COUNT),
                minKey,
                maxKey,
                SimpleStatsAvro.fromRecord(view.requiredRecord(KEY_STATS)),
                SimpleStatsAvro.fromRecord(view.requiredRecord(VALUE_STATS)),
                view.requiredLong(MIN_SEQUENCE_NUMBER),
                view.requiredLong(MAX_SEQUENCE_NUMBER),
                view.requiredLong(SCHEMA_ID),
                view.requiredInt(LEVEL),
                view.requiredStrings(EXTRA_FILES),
                view.optionalLong(CREATION_TIME),
                view.optionalLong(DELETE_ROW_COUNT),
                view.optionalBytes(EMBEDDED_FILE_INDEX),
                fileSource == null ? null : FileSource.fromValue(fileSource, view.source()),
                view.optionalStrings(VALUE_STATS_COLS),
                view.optionalString(EXTERNAL_PATH),
                view.optionalLong(FIRST_ROW_ID),
                view.optionalStrings(WRITE_COLS));
    }
}
