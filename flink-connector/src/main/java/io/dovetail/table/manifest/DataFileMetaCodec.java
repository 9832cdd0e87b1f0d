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

import io.dovetail.table.error.Errors;

import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * One {@link DataFileMeta} as bytes, for engines that ship file metadata between processes (e.g. in
 * read splits): the Avro binary encoding of the manifest's {@code _FILE} record. The bytes carry no
 * schema, so a change of the {@code _FILE} record changes them; whoever stores them versions them.
 */
public final class DataFileMetaCodec {

    private static final Schema SCHEMA = DataFileMetaAvro.schema(AvroSchemas.TOP_RECORD);

    private DataFileMetaCodec() {}

    public static byte[] toBytes(DataFileMeta file) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            new GenericDatumWriter<GenericRecord>(SCHEMA)
                    .write(DataFileMetaAvro.toRecord(SCHEMA, file), encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new IllegalStateException("Encoding into memory cannot fail", e);
        }
        return out.toByteArray();
    }

    /**
     * Decodes what {@link #toBytes} wrote; {@code source} names where the bytes come from in the
     * corruption error.
     */
    public static DataFileMeta fromBytes(byte[] bytes, String source) {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
        try {
            GenericRecord record =
                    new GenericDatumReader<GenericRecord>(SCHEMA, SCHEMA, new GenericData())
                            .read(null, decoder);
            if (!decoder.isEnd()) {
                throw Errors.corruptFile(source, "bytes left after the data file metadata");
            }
            return DataFileMetaAvro.fromRecord(new AvroRecordView(record, source));
        } catch (IOException | AvroRuntimeException e) {
            throw Errors.corruptFile(source, "cannot decode data file metadata (" + e + ")", e);
        }
    }
}
