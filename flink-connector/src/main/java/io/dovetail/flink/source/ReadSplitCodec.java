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
package io.dovetail.flink.source;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.index.DeletionVectorMeta;
import io.dovetail.table.json.Json;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.DataFileMetaCodec;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.read.DeletionFile;
import io.dovetail.table.read.FieldSource;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.GroupFile;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.types.TypeJson;

import org.apache.flink.core.fs.Path;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.GenericRowData;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary form of a {@link ReadSplit} as planned for a read of {@code fields}: everything a
 * reader needs to open its groups without reading manifests. File metadata uses the manifest's own
 * record codec ({@link DataFileMetaCodec}), columns the schema JSON ({@link TypeJson}), partition
 * values the binary row ({@link BinaryRowCodec}) of the output column's type.
 */
final class ReadSplitCodec {

    private static final byte FROM_FILE = 0;
    private static final byte NULL = 1;
    private static final byte ROW_ID = 2;
    private static final byte SEQUENCE_NUMBER = 3;
    private static final byte PARTITION_VALUE = 4;
    private static final byte FROM_BLOB_FILES = 5;
    private static final byte FROM_VECTOR_FILES = 6;

    private final List<DataField> fields;

    ReadSplitCodec(List<DataField> fields) {
        this.fields = List.copyOf(fields);
    }

    void write(ReadSplit split, DataOutputView out) throws IOException {
        out.writeInt(split.groups().size());
        for (FileGroup group : split.groups()) {
            writeGroup(group, out);
        }
    }

    ReadSplit read(DataInputView in) throws IOException {
        int n = in.readInt();
        List<FileGroup> groups = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            groups.add(readGroup(in));
        }
        return new ReadSplit(groups);
    }

    private void writeGroup(FileGroup group, DataOutputView out) throws IOException {
        writeBytes(group.partition(), out);
        writeRange(group.range(), out);
        writeBytes(DataFileMetaCodec.toBytes(group.anchor()), out);
        out.writeInt(group.files().size());
        for (GroupFile file : group.files()) {
            writeString(file.path().toString(), out);
            writeBytes(DataFileMetaCodec.toBytes(file.meta()), out);
            writeBytes(Json.toBytes(TypeJson.writeFields(file.columns())), out);
        }
        if (group.sources().size() != fields.size()) {
            throw new IllegalArgumentException(
                    "A group of "
                            + group.sources().size()
                            + " columns does not belong to a read of "
                            + fields);
        }
        for (int i = 0; i < fields.size(); i++) {
            writeSource(group.sources().get(i), fields.get(i), out);
        }
        DeletionFile deletion = group.deletionFile();
        out.writeBoolean(deletion != null);
        if (deletion != null) {
            writeString(deletion.indexFile().toString(), out);
            DeletionVectorMeta meta = deletion.meta();
            writeString(meta.dataFileName(), out);
            out.writeInt(meta.offset());
            out.writeInt(meta.length());
            out.writeBoolean(meta.cardinality() != null);
            if (meta.cardinality() != null) {
                out.writeLong(meta.cardinality());
            }
        }
        out.writeBoolean(group.selection() != null);
        if (group.selection() != null) {
            out.writeInt(group.selection().size());
            for (RowRange range : group.selection()) {
                writeRange(range, out);
            }
        }
    }

    private FileGroup readGroup(DataInputView in) throws IOException {
        byte[] partition = readBytes(in);
        RowRange range = readRange(in);
        DataFileMeta anchor = readMeta(in);
        int fileCount = in.readInt();
        List<GroupFile> files = new ArrayList<>(fileCount);
        for (int i = 0; i < fileCount; i++) {
            Path path = new Path(readString(in));
            DataFileMeta meta = readMeta(in);
            files.add(new GroupFile(path, meta, readFields(readBytes(in))));
        }
        List<FieldSource> sources = new ArrayList<>(fields.size());
        for (DataField field : fields) {
            sources.add(readSource(field, in));
        }
        DeletionFile deletion = null;
        if (in.readBoolean()) {
            Path indexFile = new Path(readString(in));
            String dataFile = readString(in);
            int offset = in.readInt();
            int length = in.readInt();
            Long cardinality = in.readBoolean() ? in.readLong() : null;
            deletion =
                    new DeletionFile(
                            indexFile,
                            new DeletionVectorMeta(dataFile, offset, length, cardinality));
        }
        List<RowRange> selection = null;
        if (in.readBoolean()) {
            int n = in.readInt();
            selection = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                selection.add(readRange(in));
            }
        }
        return new FileGroup(partition, range, anchor, files, sources, deletion, selection);
    }

    private static void writeSource(FieldSource source, DataField field, DataOutputView out)
            throws IOException {
        if (source instanceof FieldSource.FromFile f) {
            out.writeByte(FROM_FILE);
            out.writeInt(f.file());
            out.writeInt(f.column());
            writeBytes(Json.toBytes(TypeJson.writeField(f.stored())), out);
        } else if (source instanceof FieldSource.FromBlobFiles b) {
            out.writeByte(FROM_BLOB_FILES);
            writeInts(b.files(), out);
            writeBytes(Json.toBytes(TypeJson.writeField(b.stored())), out);
            out.writeBoolean(b.asDescriptors());
        } else if (source instanceof FieldSource.FromVectorFiles v) {
            out.writeByte(FROM_VECTOR_FILES);
            writeInts(v.files(), out);
            out.writeInt(v.column());
        } else if (source instanceof FieldSource.Null) {
            out.writeByte(NULL);
        } else if (source instanceof FieldSource.RowId r) {
            out.writeByte(ROW_ID);
            out.writeInt(r.file());
            out.writeInt(r.physicalColumn());
        } else if (source instanceof FieldSource.SequenceNumber s) {
            out.writeByte(SEQUENCE_NUMBER);
            out.writeLong(s.value());
        } else if (source instanceof FieldSource.PartitionValue p) {
            out.writeByte(PARTITION_VALUE);
            writeBytes(valueCodec(field).serialize(GenericRowData.of(p.value())), out);
        } else {
            throw new IllegalArgumentException("Unknown field source " + source);
        }
    }

    private static FieldSource readSource(DataField field, DataInputView in) throws IOException {
        byte tag = in.readByte();
        switch (tag) {
            case FROM_FILE:
                int file = in.readInt();
                int column = in.readInt();
                return new FieldSource.FromFile(file, column, readField(readBytes(in)));
            case FROM_BLOB_FILES:
                return new FieldSource.FromBlobFiles(
                        readInts(in), readField(readBytes(in)), in.readBoolean());
            case FROM_VECTOR_FILES:
                return new FieldSource.FromVectorFiles(readInts(in), in.readInt());
            case NULL:
                return new FieldSource.Null();
            case ROW_ID:
                return new FieldSource.RowId(in.readInt(), in.readInt());
            case SEQUENCE_NUMBER:
                return new FieldSource.SequenceNumber(in.readLong());
            case PARTITION_VALUE:
                return new FieldSource.PartitionValue(
                        valueCodec(field).deserialize(readBytes(in)).getField(0));
            default:
                throw new IOException("Unknown field source tag " + tag);
        }
    }

    private static void writeInts(List<Integer> values, DataOutputView out) throws IOException {
        out.writeInt(values.size());
        for (int value : values) {
            out.writeInt(value);
        }
    }

    private static List<Integer> readInts(DataInputView in) throws IOException {
        int count = in.readInt();
        List<Integer> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            values.add(in.readInt());
        }
        return values;
    }

    private static BinaryRowCodec valueCodec(DataField field) {
        return BinaryRowCodec.of(FlinkTypes.toFlink(field.type()));
    }

    private static DataFileMeta readMeta(DataInputView in) throws IOException {
        return DataFileMetaCodec.fromBytes(readBytes(in), "a Dovetail read split");
    }

    private static List<DataField> readFields(byte[] json) throws IOException {
        return TypeJson.readFields(Json.parse(json), "a Dovetail read split", "file columns");
    }

    private static DataField readField(byte[] json) throws IOException {
        return TypeJson.readField(Json.parse(json), "a Dovetail read split", "stored column");
    }

    private static void writeRange(RowRange range, DataOutputView out) throws IOException {
        out.writeLong(range.first());
        out.writeLong(range.last());
    }

    private static RowRange readRange(DataInputView in) throws IOException {
        return new RowRange(in.readLong(), in.readLong());
    }

    private static void writeString(String s, DataOutputView out) throws IOException {
        writeBytes(s.getBytes(StandardCharsets.UTF_8), out);
    }

    private static String readString(DataInputView in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    private static void writeBytes(byte[] bytes, DataOutputView out) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInputView in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return bytes;
    }
}
