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
import io.dovetail.table.fs.FileIO;

import org.apache.flink.core.fs.Path;

import org.apache.avro.Schema;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes one new Avro container file of manifest-type records with Avro's own {@link
 * DataFileWriter}: header entries {@code avro.schema} and {@code avro.codec} only. Reports the
 * exact size once finished. Closing without a successful {@link #finish()} deletes the partial
 * file, so use it in try-with-resources.
 */
public final class AvroFileWriter implements AutoCloseable {

    private static final int MIN_BLOCK_BYTES = 32;

    private final Path path;
    private final CountingStream counter;
    private final DataFileWriter<GenericRecord> writer;
    private boolean done;

    private AvroFileWriter(
            Path path, CountingStream counter, DataFileWriter<GenericRecord> writer) {
        this.path = path;
        this.counter = counter;
        this.writer = writer;
    }

    /**
     * Creates {@code path} (which must not exist). Blocks are kept at most a quarter of {@code
     * targetSize} so that {@link #flushedBytes()} follows the growth of the file closely enough to
     * roll at that size.
     */
    public static AvroFileWriter create(
            Path path, Schema schema, AvroCodec codec, long targetSize) {
        CountingStream counter = new CountingStream(FileIO.createNew(path));
        DataFileWriter<GenericRecord> writer =
                new DataFileWriter<>(new GenericDatumWriter<>(schema));
        try {
            writer.setCodec(codec.factory());
            long block = Math.max(MIN_BLOCK_BYTES, targetSize / 4);
            writer.setSyncInterval((int) Math.min(DataFileConstants.DEFAULT_SYNC_INTERVAL, block));
            writer.create(schema, counter);
            return new AvroFileWriter(path, counter, writer);
        } catch (IOException e) {
            abandon(path, writer, counter);
            throw Errors.io("create Avro file", path, e);
        } catch (RuntimeException e) {
            abandon(path, writer, counter);
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    public void append(GenericRecord record) {
        try {
            writer.append(record);
        } catch (IOException e) {
            throw Errors.io("write a record to", path, e);
        }
    }

    /** Bytes already handed to the file system (the file's size up to the current block). */
    public long flushedBytes() {
        return counter.count;
    }

    /** Completes the file and returns its exact size in bytes. */
    public long finish() {
        try {
            writer.close();
        } catch (IOException e) {
            throw Errors.io("finish", path, e);
        }
        done = true;
        return counter.count;
    }

    /** Deletes the file unless it was finished. */
    @Override
    public void close() {
        if (!done) {
            done = true;
            closeQuietly(writer);
            FileIO.deleteQuietly(path);
        }
    }

    private static void abandon(Path path, AutoCloseable writer, AutoCloseable stream) {
        closeQuietly(writer);
        closeQuietly(stream);
        FileIO.deleteQuietly(path);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // the file is deleted or the original failure is reported instead
        }
    }

    /** Counts the bytes that reach the file system. */
    private static final class CountingStream extends FilterOutputStream {
        private long count;

        CountingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
