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
package io.dovetail.table.read;

import io.dovetail.table.error.Errors;
import io.dovetail.table.format.blob.BlobDescriptor;
import io.dovetail.table.format.blob.BlobFileIndex;
import io.dovetail.table.fs.FileIO;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One BLOB column of a group, read from its {@code .blob} files: every version (the files of one
 * {@code maxSequenceNumber}, which must not overlap) may cover any part of the group's range, and a
 * position takes its value from the newest version covering it with a value that is not a
 * placeholder (an explicit NULL counts); a position no version covers is NULL. Values are read
 * lazily, when a consumer asks for a selected row: rows a deletion vector or a row selection drops
 * are never read, and a file is opened only when one of its values is. With {@code asDescriptor} a
 * value is a {@link BlobDescriptor} of the payload inside its file, and no payload is read.
 */
final class BlobColumnReader implements FileColumnsReader {

    private final long firstRowId;
    private final long rows;
    private final boolean asDescriptor;
    private final List<Version> versions = new ArrayList<>(); // newest first
    private final BlobVector vector = new BlobVector();
    private long position;
    private long batchStart;

    /** Reads {@code files} (of one BLOB field) over the group's range. */
    BlobColumnReader(List<GroupFile> files, long firstRowId, long rows, boolean asDescriptor) {
        this.firstRowId = firstRowId;
        this.rows = rows;
        this.asDescriptor = asDescriptor;
        Map<Long, List<Part>> bySequence = new TreeMap<>(Comparator.reverseOrder());
        for (GroupFile file : files) {
            bySequence
                    .computeIfAbsent(file.meta().maxSequenceNumber(), s -> new ArrayList<>())
                    .add(new Part(file));
        }
        for (List<Part> parts : bySequence.values()) {
            versions.add(new Version(parts));
        }
    }

    @Override
    public ColumnVector vector(int column) {
        return vector;
    }

    @Override
    public long rowsLeftInBlock() {
        return rows - position;
    }

    @Override
    public void read(int n) {
        batchStart = position;
        position += n;
        vector.resolved = -1;
    }

    @Override
    public void skip(long n) {
        position += n;
    }

    @Override
    public void close() {
        IOException failure = null;
        for (Version version : versions) {
            for (Part part : version.parts) {
                try {
                    part.close();
                } catch (IOException e) {
                    failure = failure == null ? e : failure;
                }
            }
        }
        if (failure != null) {
            throw Errors.io("close", "a .blob file", failure);
        }
    }

    /** The values of the batch, resolved one position at a time. */
    private final class BlobVector implements BytesColumnVector {

        private long resolved = -1; // the batch index last resolved
        private Part part;
        private int index;

        @Override
        public boolean isNullAt(int i) {
            resolve(i);
            return part == null;
        }

        @Override
        public Bytes getBytes(int i) {
            resolve(i);
            byte[] value = asDescriptor ? part.descriptor(index) : part.payload(index);
            return new Bytes(value, 0, value.length);
        }

        private void resolve(int i) {
            if (resolved == i) {
                return;
            }
            long rowId = firstRowId + batchStart + i;
            part = null;
            for (Version version : versions) {
                Part candidate = version.covering(rowId);
                if (candidate != null) {
                    int at = (int) (rowId - candidate.first);
                    BlobFileIndex values = candidate.index();
                    if (!values.isPlaceholder(at)) {
                        if (!values.isNull(at)) {
                            part = candidate;
                            index = at;
                        }
                        break;
                    }
                }
            }
            resolved = i;
        }
    }

    /** The files of one version, by first row id; they must not overlap. */
    private static final class Version {

        private final Part[] parts;

        Version(List<Part> parts) {
            parts.sort(Comparator.comparingLong(p -> p.first));
            for (int i = 1; i < parts.size(); i++) {
                Part previous = parts.get(i - 1);
                if (parts.get(i).first < previous.first + previous.count) {
                    throw Errors.invalidLayout(
                            "BLOB files "
                                    + previous.file.meta().fileName()
                                    + " and "
                                    + parts.get(i).file.meta().fileName()
                                    + " of one field and one commit (sequence number "
                                    + previous.file.meta().maxSequenceNumber()
                                    + ") overlap.");
                }
            }
            this.parts = parts.toArray(new Part[0]);
        }

        /** The part holding {@code rowId}, or null. */
        Part covering(long rowId) {
            int low = 0;
            int high = parts.length - 1;
            while (low <= high) {
                int mid = (low + high) >>> 1;
                Part p = parts[mid];
                if (rowId < p.first) {
                    high = mid - 1;
                } else if (rowId >= p.first + p.count) {
                    low = mid + 1;
                } else {
                    return p;
                }
            }
            return null;
        }
    }

    /** One {@code .blob} file, its footer and its stream opened on first use. */
    private static final class Part {

        private final GroupFile file;
        private final long first;
        private final long count;
        private FSDataInputStream in;
        private BlobFileIndex index;

        Part(GroupFile file) {
            this.file = file;
            this.first = file.meta().firstRowId();
            this.count = file.meta().rowCount();
        }

        BlobFileIndex index() {
            if (index == null) {
                index = BlobFileIndex.read(stream(), file.path(), file.meta().fileSize());
                if (index.count() != count) {
                    throw Errors.corruptFile(
                            file.path(),
                            "its footer lists "
                                    + index.count()
                                    + " values but its metadata gives "
                                    + count
                                    + " rows");
                }
            }
            return index;
        }

        byte[] payload(int i) {
            long length = index.payloadLength(i);
            if (length > Integer.MAX_VALUE - 8) {
                throw Errors.unsupported(
                        "reading a BLOB value of " + length + " bytes from " + file.path(),
                        "a Flink BYTES value holds less than 2 GB; read the column with"
                                + " 'blob-as-descriptor' = 'true' and fetch the bytes from the"
                                + " descriptor");
            }
            byte[] value = new byte[(int) length];
            try {
                FSDataInputStream stream = stream();
                stream.seek(index.payloadOffset(i));
                int read = 0;
                while (read < value.length) {
                    int n = stream.read(value, read, value.length - read);
                    if (n < 0) {
                        throw Errors.corruptFile(
                                file.path(), "it ends inside the value at row " + (first + i));
                    }
                    read += n;
                }
            } catch (IOException e) {
                throw Errors.io("read a BLOB value from", file.path(), e);
            }
            return value;
        }

        byte[] descriptor(int i) {
            return new BlobDescriptor(
                            file.path().toString(), index.payloadOffset(i), index.payloadLength(i))
                    .serialize();
        }

        private FSDataInputStream stream() {
            if (in == null) {
                in = FileIO.open(file.path(), "a data-evolution row range");
            }
            return in;
        }

        void close() throws IOException {
            if (in != null) {
                in.close();
                in = null;
            }
        }
    }
}
