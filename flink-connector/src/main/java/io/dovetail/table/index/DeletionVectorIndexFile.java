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

import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.path.FileNameFactory;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Deletion-vector index files ({@code index-<uuid>-<n>}): a version byte {@value #VERSION}, then
 * per data file a big-endian payload length, the {@link DeletionVector} payload and a big-endian
 * CRC-32 of the payload. The writer rolls to a new file at a target size; readers locate a vector
 * by the offset and length recorded in its {@link DeletionVectorMeta} and verify magic and CRC.
 */
public final class DeletionVectorIndexFile {

    public static final String INDEX_TYPE = "DELETION_VECTORS";
    public static final byte VERSION = 1;

    /** Paimon's default {@code deletion-vector.index-file.target-size}. */
    public static final long DEFAULT_TARGET_FILE_SIZE = 2L * 1024 * 1024;

    private static final int INT_BYTES = 4;

    private final Path indexDir;
    private final long targetFileSize;
    private final FileNameFactory names = new FileNameFactory();

    public DeletionVectorIndexFile(Path indexDir, long targetFileSize) {
        if (targetFileSize <= 0) {
            throw Errors.invalidArgument(
                    "Index file target size must be positive, got " + targetFileSize);
        }
        this.indexDir = indexDir;
        this.targetFileSize = targetFileSize;
    }

    public DeletionVectorIndexFile(Path indexDir) {
        this(indexDir, DEFAULT_TARGET_FILE_SIZE);
    }

    /**
     * Writes the vectors, keyed by data file name, in map order to one or more new index files.
     * Returns one meta per file, with each vector's offset, length and cardinality.
     */
    public List<IndexFileMeta> write(Map<String, DeletionVector> vectorsByDataFile) {
        List<IndexFileMeta> metas = new ArrayList<>();
        Iterator<Map.Entry<String, DeletionVector>> vectors =
                vectorsByDataFile.entrySet().iterator();
        try {
            while (vectors.hasNext()) {
                metas.add(writeOneFile(vectors));
            }
        } catch (RuntimeException e) {
            for (IndexFileMeta meta : metas) {
                FileIO.deleteQuietly(meta.path(indexDir));
            }
            throw e;
        }
        return metas;
    }

    private IndexFileMeta writeOneFile(Iterator<Map.Entry<String, DeletionVector>> vectors) {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.write(VERSION);
        List<DeletionVectorMeta> ranges = new ArrayList<>();
        do {
            Map.Entry<String, DeletionVector> vector = vectors.next();
            byte[] payload = vector.getValue().serialize();
            ranges.add(
                    new DeletionVectorMeta(
                            vector.getKey(),
                            file.size(),
                            payload.length,
                            vector.getValue().cardinality()));
            file.writeBytes(ByteBuffer.allocate(INT_BYTES).putInt(payload.length).array());
            file.writeBytes(payload);
            file.writeBytes(ByteBuffer.allocate(INT_BYTES).putInt(crc(payload)).array());
        } while (vectors.hasNext() && file.size() < targetFileSize);
        String fileName = names.newIndexFileName();
        FileIO.writeNew(new Path(indexDir, fileName), file.toByteArray());
        return new IndexFileMeta(
                INDEX_TYPE, fileName, file.size(), ranges.size(), ranges, null, null);
    }

    /** Reads the vector of one data file from an index file. */
    public static DeletionVector read(Path indexFile, DeletionVectorMeta meta) {
        try (FSDataInputStream in = FileIO.open(indexFile, "an index manifest")) {
            in.seek(meta.offset());
            byte[] length = in.readNBytes(INT_BYTES);
            if (length.length < INT_BYTES) {
                throw truncated(indexFile, meta);
            }
            int payloadLength = ByteBuffer.wrap(length).getInt();
            if (payloadLength < 0 || payloadLength > Integer.MAX_VALUE - INT_BYTES) {
                throw Errors.corruptFile(
                        indexFile, "deletion vector length " + payloadLength + " at " + meta);
            }
            byte[] rest = in.readNBytes(payloadLength + INT_BYTES);
            if (rest.length < payloadLength + INT_BYTES) {
                throw truncated(indexFile, meta);
            }
            return decode(indexFile, meta, ByteBuffer.wrap(rest), payloadLength);
        } catch (IOException e) {
            throw Errors.io("read a deletion vector from", indexFile, e);
        }
    }

    /** Reads every vector listed in {@code meta}, keyed by data file name in listed order. */
    public static Map<String, DeletionVector> readAll(Path indexDir, IndexFileMeta meta) {
        Path indexFile = meta.path(indexDir);
        byte[] bytes = FileIO.readFully(indexFile, "an index manifest");
        if (bytes.length != meta.fileSize()) {
            throw Errors.corruptFile(
                    indexFile,
                    "the file has "
                            + bytes.length
                            + " bytes but the index manifest records "
                            + meta.fileSize());
        }
        if (bytes.length == 0 || bytes[0] != VERSION) {
            throw Errors.corruptFile(
                    indexFile,
                    "deletion vector file version is "
                            + (bytes.length == 0 ? "missing" : bytes[0])
                            + ", expected "
                            + VERSION);
        }
        if (meta.deletionVectors() == null) {
            throw Errors.corruptFile(
                    indexFile, "the index manifest lists no deletion vector ranges for it");
        }
        Map<String, DeletionVector> result = new LinkedHashMap<>();
        for (DeletionVectorMeta range : meta.deletionVectors()) {
            long end = (long) range.offset() + INT_BYTES;
            if (end > bytes.length) {
                throw truncated(indexFile, range);
            }
            int payloadLength = ByteBuffer.wrap(bytes, range.offset(), INT_BYTES).getInt();
            if (payloadLength < 0 || end + payloadLength + INT_BYTES > bytes.length) {
                throw truncated(indexFile, range);
            }
            ByteBuffer entry = ByteBuffer.wrap(bytes, (int) end, payloadLength + INT_BYTES);
            result.put(range.dataFileName(), decode(indexFile, range, entry, payloadLength));
        }
        return result;
    }

    /** Checks magic, CRC, recorded length and cardinality of one payload followed by its CRC. */
    private static DeletionVector decode(
            Path indexFile, DeletionVectorMeta meta, ByteBuffer payloadAndCrc, int payloadLength) {
        byte[] payload = new byte[payloadLength];
        payloadAndCrc.get(payload);
        int storedCrc = payloadAndCrc.getInt();
        String source = indexFile + " (deletion vector of " + meta.dataFileName() + ")";
        if (crc(payload) != storedCrc) {
            throw Errors.corruptFile(source, "CRC-32 mismatch (stored " + storedCrc + ")");
        }
        // before the length check: a 64-bit vector records a different length and must be
        // reported as unsupported rather than corrupt
        DeletionVector vector = DeletionVector.deserialize(payload, source);
        if (payloadLength != meta.length()) {
            throw Errors.corruptFile(
                    source,
                    "payload length " + payloadLength + " differs from recorded " + meta.length());
        }
        if (meta.cardinality() != null && meta.cardinality() != vector.cardinality()) {
            throw Errors.corruptFile(
                    source,
                    "holds "
                            + vector.cardinality()
                            + " positions but the index manifest records "
                            + meta.cardinality());
        }
        return vector;
    }

    private static RuntimeException truncated(Path indexFile, DeletionVectorMeta meta) {
        return Errors.corruptFile(
                indexFile,
                "deletion vector of "
                        + meta.dataFileName()
                        + " at offset "
                        + meta.offset()
                        + " runs past the end of the file (truncated)");
    }

    private static int crc(byte[] payload) {
        CRC32 crc = new CRC32();
        crc.update(payload);
        return (int) crc.getValue();
    }
}
