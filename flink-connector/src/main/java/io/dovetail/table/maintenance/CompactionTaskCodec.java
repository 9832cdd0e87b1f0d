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
package io.dovetail.table.maintenance;

import io.dovetail.table.error.Errors;
import io.dovetail.table.maintenance.CompactionTask.Group;
import io.dovetail.table.manifest.DataFileMetaCodec;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Bytes of a {@link CompactionTask} and of a {@link ManifestEntry}, for shipping maintenance work
 * between the processes of one job (never stored): an entry is its kind, partition, bucket, total
 * buckets and the manifest's own {@code _FILE} record ({@link DataFileMetaCodec}); a task is its
 * partition, range and groups, each group its range and entries, then the columns it writes (absent
 * for a full task) and the names of the files it keeps.
 */
public final class CompactionTaskCodec {

    private CompactionTaskCodec() {}

    public static byte[] toBytes(CompactionTask task) {
        return write(
                out -> {
                    writeBytes(task.partition(), out);
                    writeRange(task.range(), out);
                    out.writeInt(task.groups().size());
                    for (Group group : task.groups()) {
                        writeRange(group.range(), out);
                        out.writeInt(group.files().size());
                        for (ManifestEntry file : group.files()) {
                            writeEntry(file, out);
                        }
                    }
                    out.writeBoolean(task.columns() != null);
                    if (task.columns() != null) {
                        writeStrings(task.columns(), out);
                    }
                    writeStrings(List.copyOf(task.kept()), out);
                });
    }

    public static CompactionTask taskFromBytes(byte[] bytes) {
        return read(
                bytes,
                in -> {
                    byte[] partition = readBytes(in);
                    RowRange range = readRange(in);
                    int groupCount = in.readInt();
                    List<Group> groups = new ArrayList<>(groupCount);
                    for (int g = 0; g < groupCount; g++) {
                        RowRange groupRange = readRange(in);
                        int fileCount = in.readInt();
                        List<ManifestEntry> files = new ArrayList<>(fileCount);
                        for (int f = 0; f < fileCount; f++) {
                            files.add(readEntry(in));
                        }
                        groups.add(new Group(groupRange, files));
                    }
                    List<String> columns = in.readBoolean() ? readStrings(in) : null;
                    Set<String> kept = Set.copyOf(readStrings(in));
                    return new CompactionTask(partition, range, groups, columns, kept);
                });
    }

    public static byte[] toBytes(ManifestEntry entry) {
        return write(out -> writeEntry(entry, out));
    }

    public static ManifestEntry entryFromBytes(byte[] bytes) {
        return read(bytes, CompactionTaskCodec::readEntry);
    }

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    private static byte[] write(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static <T> T read(byte[] bytes, Reader<T> reader) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            T value = reader.read(in);
            if (in.available() > 0) {
                throw Errors.invalidArgument(
                        in.available() + " bytes left after a Dovetail maintenance message.");
            }
            return value;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeEntry(ManifestEntry entry, DataOutputStream out) throws IOException {
        out.writeByte(entry.kind().value());
        writeBytes(entry.partition(), out);
        out.writeInt(entry.bucket());
        out.writeInt(entry.totalBuckets());
        writeBytes(DataFileMetaCodec.toBytes(entry.file()), out);
    }

    private static ManifestEntry readEntry(DataInputStream in) throws IOException {
        FileKind kind = FileKind.fromValue(in.readByte(), "a Dovetail maintenance message");
        byte[] partition = readBytes(in);
        int bucket = in.readInt();
        int totalBuckets = in.readInt();
        return new ManifestEntry(
                kind,
                partition,
                bucket,
                totalBuckets,
                DataFileMetaCodec.fromBytes(readBytes(in), "a Dovetail maintenance message"));
    }

    private static void writeRange(RowRange range, DataOutputStream out) throws IOException {
        out.writeLong(range.first());
        out.writeLong(range.last());
    }

    private static RowRange readRange(DataInputStream in) throws IOException {
        return new RowRange(in.readLong(), in.readLong());
    }

    private static void writeStrings(List<String> strings, DataOutputStream out)
            throws IOException {
        out.writeInt(strings.size());
        for (String string : strings) {
            writeBytes(string.getBytes(StandardCharsets.UTF_8), out);
        }
    }

    private static List<String> readStrings(DataInputStream in) throws IOException {
        int count = in.readInt();
        List<String> strings = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            strings.add(new String(readBytes(in), StandardCharsets.UTF_8));
        }
        return strings;
    }

    private static void writeBytes(byte[] bytes, DataOutputStream out) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return bytes;
    }
}
