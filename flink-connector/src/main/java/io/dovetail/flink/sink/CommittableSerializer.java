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
package io.dovetail.flink.sink;

import io.dovetail.flink.state.VersionedSerializer;
import io.dovetail.table.index.DeletionVectorMeta;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.DataFileMetaCodec;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;

import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Versioned bytes of a {@link Committable}. Version 1: a kind tag, then for new files (1) the
 * number of entries and per entry its partition (binary row), bucket, total buckets and file
 * metadata (the manifest's own {@code _FILE} record, {@link DataFileMetaCodec}); for column files
 * (2) the base snapshot id and the entries; for deleted rows (3) the base snapshot id and the row
 * ids as a portable 64-bit Roaring bitmap; for deletion vectors (4, added later in version 1: they
 * come from batch deletes only, which never checkpoint) the base snapshot id and the added and
 * removed deletion-vector index entries (partition, bucket, file name, size, row count, external
 * path, and per vector its data file, offset, length and cardinality). Version 2 adds row-update
 * files (5): the base snapshot id, the entries and the updated row ids as a portable 64-bit Roaring
 * bitmap; version 1 bytes are read as before. Bump the version when this form or the manifest's
 * file record changes, and keep reading the old bytes.
 */
public final class CommittableSerializer extends VersionedSerializer<Committable> {

    public static final int VERSION = 2;

    private static final byte NEW_FILES = 1;
    private static final byte COLUMN_FILES = 2;
    private static final byte DELETED_ROWS = 3;
    private static final byte DELETION_VECTORS = 4;
    private static final byte ROW_UPDATE_FILES = 5;

    public CommittableSerializer() {
        super(1, VERSION, "a Dovetail committable");
    }

    @Override
    protected void write(Committable committable, DataOutputView out) throws IOException {
        if (committable instanceof Committable.NewFiles newFiles) {
            out.writeByte(NEW_FILES);
            writeEntries(newFiles.files(), out);
        } else if (committable instanceof Committable.ColumnFiles columnFiles) {
            out.writeByte(COLUMN_FILES);
            out.writeLong(columnFiles.baseSnapshotId());
            writeEntries(columnFiles.files(), out);
        } else if (committable instanceof Committable.RowUpdateFiles updates) {
            out.writeByte(ROW_UPDATE_FILES);
            out.writeLong(updates.baseSnapshotId());
            writeEntries(updates.files(), out);
            writeBitmap(updates.updatedRows(), out);
        } else if (committable instanceof Committable.DeletedRows deletedRows) {
            out.writeByte(DELETED_ROWS);
            out.writeLong(deletedRows.baseSnapshotId());
            writeBitmap(deletedRows.rowIds(), out);
        } else if (committable instanceof Committable.DeletionVectors vectors) {
            out.writeByte(DELETION_VECTORS);
            out.writeLong(vectors.baseSnapshotId());
            writeIndexEntries(vectors.changes().added(), out);
            writeIndexEntries(vectors.changes().removed(), out);
        }
    }

    @Override
    protected Committable read(DataInputView in) throws IOException {
        byte kind = in.readByte();
        switch (kind) {
            case NEW_FILES:
                return new Committable.NewFiles(readEntries(in));
            case COLUMN_FILES:
                return new Committable.ColumnFiles(in.readLong(), readEntries(in));
            case ROW_UPDATE_FILES:
                long updatesBase = in.readLong();
                List<ManifestEntry> files = readEntries(in);
                return new Committable.RowUpdateFiles(updatesBase, files, readBitmap(in));
            case DELETED_ROWS:
                long base = in.readLong();
                return new Committable.DeletedRows(base, readBitmap(in));
            case DELETION_VECTORS:
                long vectorsBase = in.readLong();
                List<IndexManifestEntry> added = readIndexEntries(in);
                return new Committable.DeletionVectors(
                        vectorsBase, new IndexChanges(added, readIndexEntries(in)));
            default:
                throw new IOException("Unknown kind " + kind + " of a Dovetail committable");
        }
    }

    private static void writeBitmap(Roaring64NavigableMap rows, DataOutputView out)
            throws IOException {
        ByteArrayOutputStream bitmap = new ByteArrayOutputStream();
        rows.serializePortable(new DataOutputStream(bitmap));
        writeBytes(bitmap.toByteArray(), out);
    }

    private static Roaring64NavigableMap readBitmap(DataInputView in) throws IOException {
        Roaring64NavigableMap rows = new Roaring64NavigableMap();
        rows.deserializePortable(new DataInputStream(new ByteArrayInputStream(readBytes(in))));
        return rows;
    }

    private static void writeEntries(List<ManifestEntry> entries, DataOutputView out)
            throws IOException {
        out.writeInt(entries.size());
        for (ManifestEntry entry : entries) {
            writeBytes(entry.partition(), out);
            out.writeInt(entry.bucket());
            out.writeInt(entry.totalBuckets());
            writeBytes(DataFileMetaCodec.toBytes(entry.file()), out);
        }
    }

    private static List<ManifestEntry> readEntries(DataInputView in) throws IOException {
        int n = in.readInt();
        List<ManifestEntry> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] partition = readBytes(in);
            int bucket = in.readInt();
            int totalBuckets = in.readInt();
            entries.add(
                    new ManifestEntry(
                            FileKind.ADD,
                            partition,
                            bucket,
                            totalBuckets,
                            DataFileMetaCodec.fromBytes(readBytes(in), "a Dovetail committable")));
        }
        return entries;
    }

    private static void writeIndexEntries(List<IndexManifestEntry> entries, DataOutputView out)
            throws IOException {
        out.writeInt(entries.size());
        for (IndexManifestEntry entry : entries) {
            IndexFileMeta file = entry.indexFile();
            if (file.globalIndex() != null || file.deletionVectors() == null) {
                throw new IOException(
                        "Only deletion-vector index files travel to the committer, got "
                                + file.fileName());
            }
            writeBytes(entry.partition(), out);
            out.writeInt(entry.bucket());
            out.writeUTF(file.indexType());
            out.writeUTF(file.fileName());
            out.writeLong(file.fileSize());
            out.writeLong(file.rowCount());
            out.writeBoolean(file.externalPath() != null);
            if (file.externalPath() != null) {
                out.writeUTF(file.externalPath());
            }
            out.writeInt(file.deletionVectors().size());
            for (DeletionVectorMeta vector : file.deletionVectors()) {
                out.writeUTF(vector.dataFileName());
                out.writeInt(vector.offset());
                out.writeInt(vector.length());
                out.writeLong(vector.cardinality() == null ? -1 : vector.cardinality());
            }
        }
    }

    private static List<IndexManifestEntry> readIndexEntries(DataInputView in) throws IOException {
        int n = in.readInt();
        List<IndexManifestEntry> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] partition = readBytes(in);
            int bucket = in.readInt();
            String type = in.readUTF();
            String name = in.readUTF();
            long size = in.readLong();
            long rowCount = in.readLong();
            String externalPath = in.readBoolean() ? in.readUTF() : null;
            int vectorCount = in.readInt();
            List<DeletionVectorMeta> vectors = new ArrayList<>(vectorCount);
            for (int v = 0; v < vectorCount; v++) {
                String dataFile = in.readUTF();
                int offset = in.readInt();
                int length = in.readInt();
                long cardinality = in.readLong();
                vectors.add(
                        new DeletionVectorMeta(
                                dataFile, offset, length, cardinality < 0 ? null : cardinality));
            }
            entries.add(
                    new IndexManifestEntry(
                            FileKind.ADD,
                            partition,
                            bucket,
                            new IndexFileMeta(
                                    type, name, size, rowCount, vectors, externalPath, null)));
        }
        return entries;
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
