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
package io.dovetail.table.format.vector;

import io.dovetail.table.fs.FileIO;
import io.dovetail.table.manifest.AvroCodec;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.VectorType;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;

import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;

import java.io.IOException;
import java.util.List;

/**
 * Writes a vector-store file in Avro ({@link AvroVectorSchema}), an Avro container file compressed
 * with the table's {@code file.compression} (Paimon's default zstd is Avro's {@code zstandard}).
 * Values are encoded straight from Flink's arrays, element by element, with no object per value.
 */
final class AvroVectorFileWriter implements VectorFileWriter {

    private static final int MIN_BLOCK_BYTES = 32;

    private final List<DataField> columns;
    private final CountingOutputStream out;
    private final DataFileWriter<RowData> writer;
    private long count;

    AvroVectorFileWriter(Path path, List<DataField> columns, CodecFactory codec, long targetSize)
            throws IOException {
        this.columns = columns;
        Schema schema = AvroVectorSchema.of(columns);
        this.out = new CountingOutputStream(FileIO.createNew(path));
        this.writer = new DataFileWriter<>(new RowWriter(columns));
        try {
            writer.setCodec(codec);
            long block = Math.max(MIN_BLOCK_BYTES, targetSize / 4);
            writer.setSyncInterval((int) Math.min(DataFileConstants.DEFAULT_SYNC_INTERVAL, block));
            writer.create(schema, out);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The Avro codec of Paimon's {@code file.compression} value. */
    static CodecFactory codec(String compression, int zstdLevel) {
        AvroCodec codec = AvroCodec.fromName(compression);
        return codec == AvroCodec.ZSTANDARD
                ? CodecFactory.zstandardCodec(zstdLevel)
                : codec.factory();
    }

    @Override
    public void write(RowData row) throws IOException {
        VectorValues.check(columns, row); // before a byte of it is encoded
        writer.append(row);
        count++;
    }

    @Override
    public long count() {
        return count;
    }

    @Override
    public long length() {
        return out.count();
    }

    @Override
    public long finish() throws IOException {
        writer.close();
        return out.count();
    }

    @Override
    public void close() {
        try {
            writer.close();
        } catch (IOException | RuntimeException ignored) {
            // abandoned: the caller deletes the file
        }
    }

    /** Encodes a row of VECTOR columns as the non-null branch of the file's datum union. */
    private static final class RowWriter implements DatumWriter<RowData> {

        private final List<DataField> columns;

        RowWriter(List<DataField> columns) {
            this.columns = columns;
        }

        @Override
        public void setSchema(Schema schema) {}

        @Override
        public void write(RowData row, Encoder out) throws IOException {
            out.writeIndex(1);
            for (int i = 0; i < columns.size(); i++) {
                DataField column = columns.get(i);
                VectorType type = (VectorType) column.type();
                if (row.isNullAt(i)) {
                    out.writeIndex(0);
                    continue;
                }
                if (type.nullable()) {
                    out.writeIndex(1);
                }
                ArrayData value = row.getArray(i);
                writeElements(value, type, out);
            }
        }

        private static void writeElements(ArrayData value, VectorType type, Encoder out)
                throws IOException {
            int n = value.size();
            boolean nullableElements = type.element().nullable();
            out.writeArrayStart();
            out.setItemCount(n);
            for (int j = 0; j < n; j++) {
                out.startItem();
                if (nullableElements) {
                    out.writeIndex(1);
                }
                switch (type.element().root()) {
                    case BOOLEAN:
                        out.writeBoolean(value.getBoolean(j));
                        break;
                    case TINYINT:
                        out.writeInt(value.getByte(j));
                        break;
                    case SMALLINT:
                        out.writeInt(value.getShort(j));
                        break;
                    case INT:
                        out.writeInt(value.getInt(j));
                        break;
                    case BIGINT:
                        out.writeLong(value.getLong(j));
                        break;
                    case FLOAT:
                        out.writeFloat(value.getFloat(j));
                        break;
                    default:
                        out.writeDouble(value.getDouble(j));
                }
            }
            out.writeArrayEnd();
        }
    }
}
