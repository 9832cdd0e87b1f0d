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
package io.dovetail.table.index;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.manifest.AvroRecordView;
import io.dovetail.table.manifest.FileKind;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static io.dovetail.table.manifest.AvroSchemas.BYTES;
import static io.dovetail.table.manifest.AvroSchemas.INT;
import static io.dovetail.table.manifest.AvroSchemas.LONG;
import static io.dovetail.table.manifest.AvroSchemas.STRING;
import static io.dovetail.table.manifest.AvroSchemas.TOP_RECORD;
import static io.dovetail.table.manifest.AvroSchemas.arrayOf;
import static io.dovetail.table.manifest.AvroSchemas.nestedName;
import static io.dovetail.table.manifest.AvroSchemas.nullable;
import static io.dovetail.table.manifest.AvroSchemas.optional;
import static io.dovetail.table.manifest.AvroSchemas.record;
import static io.dovetail.table.manifest.AvroSchemas.required;

/** Avro form of {@link IndexManifestEntry}: one record of an index manifest, {@code _VERSION} 1. */
final class IndexManifestAvro {

    static final int VERSION = 1;

    private static final String VERSION_FIELD = "_VERSION";
    private static final String KIND = "_KIND";
    private static final String PARTITION = "_PARTITION";
    private static final String BUCKET = "_BUCKET";
    private static final String INDEX_TYPE = "_INDEX_TYPE";
    private static final String FILE_NAME = "_FILE_NAME";
    private static final String FILE_SIZE = "_FILE_SIZE";
    private static final String ROW_COUNT = "_ROW_COUNT";
    private static final String DV_RANGES = "_DELETIONS_VECTORS_RANGES";
    private static final String EXTERNAL_PATH = "_EXTERNAL_PATH";
    private static final String GLOBAL_INDEX = "_GLOBAL_INDEX";

    private static final String DV_FILE = "f0";
    private static final String DV_OFFSET = "f1";
    private static final String DV_LENGTH = "f2";
    private static final String DV_CARDINALITY = "_CARDINALITY";

    private static final String ROW_RANGE_START = "_ROW_RANGE_START";
    private static final String ROW_RANGE_END = "_ROW_RANGE_END";
    private static final String INDEX_FIELD_ID = "_INDEX_FIELD_ID";
    private static final String EXTRA_FIELD_IDS = "_EXTRA_FIELD_IDS";
    private static final String INDEX_META = "_INDEX_META";

    private static final Schema DV_RANGE =
            record(
                    nestedName(TOP_RECORD, DV_RANGES),
                    required(DV_FILE, STRING),
                    required(DV_OFFSET, INT),
                    required(DV_LENGTH, INT),
                    optional(DV_CARDINALITY, LONG));

    private static final Schema GLOBAL =
            record(
                    nestedName(TOP_RECORD, GLOBAL_INDEX),
                    required(ROW_RANGE_START, LONG),
                    required(ROW_RANGE_END, LONG),
                    required(INDEX_FIELD_ID, INT),
                    optional(EXTRA_FIELD_IDS, arrayOf(INT)),
                    optional(INDEX_META, BYTES));

    static final Schema SCHEMA =
            record(
                    TOP_RECORD,
                    required(VERSION_FIELD, INT),
                    required(KIND, INT),
                    required(PARTITION, BYTES),
                    required(BUCKET, INT),
                    required(INDEX_TYPE, STRING),
                    required(FILE_NAME, STRING),
                    required(FILE_SIZE, LONG),
                    required(ROW_COUNT, LONG),
                    optional(DV_RANGES, arrayOf(nullable(DV_RANGE))),
                    optional(EXTERNAL_PATH, STRING),
                    optional(GLOBAL_INDEX, GLOBAL));

    private IndexManifestAvro() {}

    static GenericRecord toRecord(IndexManifestEntry entry) {
        IndexFileMeta file = entry.indexFile();
        GenericRecord record = new GenericData.Record(SCHEMA);
        record.put(VERSION_FIELD, VERSION);
        record.put(KIND, entry.kind().value());
        record.put(PARTITION, ByteBuffer.wrap(entry.partition()));
        record.put(BUCKET, entry.bucket());
        record.put(INDEX_TYPE, file.indexType());
        record.put(FILE_NAME, file.fileName());
        record.put(FILE_SIZE, file.fileSize());
        record.put(ROW_COUNT, file.rowCount());
        record.put(DV_RANGES, file.deletionVectors() == null ? null : ranges(file));
        record.put(EXTERNAL_PATH, file.externalPath());
        record.put(GLOBAL_INDEX, file.globalIndex() == null ? null : global(file.globalIndex()));
        return record;
    }

    private static List<GenericRecord> ranges(IndexFileMeta file) {
        List<GenericRecord> ranges = new ArrayList<>();
        for (DeletionVectorMeta vector : file.deletionVectors()) {
            GenericRecord range = new GenericData.Record(DV_RANGE);
            range.put(DV_FILE, vector.dataFileName());
            range.put(DV_OFFSET, vector.offset());
            range.put(DV_LENGTH, vector.length());
            range.put(DV_CARDINALITY, vector.cardinality());
            ranges.add(range);
        }
        return ranges;
    }

    private static GenericRecord global(GlobalIndexMeta meta) {
        GenericRecord record = new GenericData.Record(GLOBAL);
        record.put(ROW_RANGE_START, meta.rowRangeStart());
        record.put(ROW_RANGE_END, meta.rowRangeEnd());
        record.put(INDEX_FIELD_ID, meta.indexFieldId());
        record.put(EXTRA_FIELD_IDS, meta.extraFieldIds());
        byte[] indexMeta = meta.indexMeta();
        record.put(INDEX_META, indexMeta == null ? null : ByteBuffer.wrap(indexMeta));
        return record;
    }

    static IndexManifestEntry fromRecord(AvroRecordView view) {
        view.requireVersion(VERSION_FIELD, VERSION, "index manifest", "");
        byte[] partition = view.requiredBytes(PARTITION);
        BinaryRowCodec.arity(partition, view.source() + "." + PARTITION);
        AvroRecordView global = view.optionalRecord(GLOBAL_INDEX);
        IndexFileMeta file =
                new IndexFileMeta(
                        view.requiredString(INDEX_TYPE),
                        view.requiredString(FILE_NAME),
                        view.requiredLong(FILE_SIZE),
                        view.requiredLong(ROW_COUNT),
                        readRanges(view),
                        view.optionalString(EXTERNAL_PATH),
                        global == null ? null : readGlobal(global));
        return new IndexManifestEntry(
                FileKind.fromValue(view.requiredInt(KIND), view.source()),
                partition,
                view.requiredInt(BUCKET),
                file);
    }

    private static List<DeletionVectorMeta> readRanges(AvroRecordView view) {
        List<Object> elements = view.optionalList(DV_RANGES);
        if (elements == null) {
            return null;
        }
        List<DeletionVectorMeta> ranges = new ArrayList<>(elements.size());
        for (int i = 0; i < elements.size(); i++) {
            if (elements.get(i) == null) {
                throw view.corrupt(DV_RANGES + " has a null element at " + i);
            }
            AvroRecordView range = view.element(DV_RANGES, i, elements.get(i));
            ranges.add(
                    new DeletionVectorMeta(
                            range.requiredString(DV_FILE),
                            range.requiredInt(DV_OFFSET),
                            range.requiredInt(DV_LENGTH),
                            range.optionalLong(DV_CARDINALITY)));
        }
        return ranges;
    }

    private static GlobalIndexMeta readGlobal(AvroRecordView global) {
        List<Object> extra = global.optionalList(EXTRA_FIELD_IDS);
        List<Integer> extraFieldIds = null;
        if (extra != null) {
            extraFieldIds = new ArrayList<>(extra.size());
            for (Object id : extra) {
                extraFieldIds.add((Integer) id);
            }
        }
        return new GlobalIndexMeta(
                global.requiredLong(ROW_RANGE_START),
                global.requiredLong(ROW_RANGE_END),
                global.requiredInt(INDEX_FIELD_ID),
                extraFieldIds,
                global.optionalBytes(INDEX_META));
    }
}
