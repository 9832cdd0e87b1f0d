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

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

import org.apache.avro.AvroRuntimeException;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Reads manifest-type Avro files the way Paimon does: records are decoded with the writer schema
 * stored in the file and fields are matched by name, so extra fields are ignored and missing
 * nullable fields read as null. The stored schema is checked against the expected one first
 * (primitive kinds, {@code ["null", T]} unions, logical types, required fields); any mismatch,
 * truncation or decoding failure is reported as a corrupt file.
 *
 * <p>Each read decodes through its own {@link GenericData}: the shared instance caches a decoder
 * per writer-schema instance and every file parses a new one, so a long-running reader would retain
 * one decoder per file it ever read.
 */
public final class AvroFileReader {

    private AvroFileReader() {}

    /**
     * Reads all records of {@code path}.
     *
     * @param knownLength the exact size recorded in metadata, or null to read the whole file
     * @param referencedBy what refers to the file, for the missing-file error
     */
    public static <T> List<T> read(
            Path path,
            @Nullable Long knownLength,
            Schema expected,
            Function<AvroRecordView, T> decoder,
            String referencedBy) {
        byte[] bytes = load(path, knownLength, referencedBy);
        List<T> result = new ArrayList<>();
        try (DataFileReader<GenericRecord> reader =
                new DataFileReader<>(
                        new SeekableByteArrayInput(bytes),
                        new GenericDatumReader<>(null, null, new GenericData()))) {
            String problem = mismatch(expected, reader.getSchema(), "");
            if (problem != null) {
                throw Errors.corruptFile(path, "unexpected Avro schema: " + problem);
            }
            int index = 0;
            while (reader.hasNext()) {
                AvroRecordView view =
                        new AvroRecordView(reader.next(), path + " (record " + index + ")");
                result.add(decode(view, decoder));
                index++;
            }
            // Avro stops quietly at an early end of file; the last block must end the file
            if (reader.previousSync() != bytes.length) {
                throw Errors.corruptFile(
                        path,
                        "the Avro data ends at byte "
                                + reader.previousSync()
                                + " of "
                                + bytes.length
                                + " (truncated or garbled block)");
            }
        } catch (IOException | AvroRuntimeException e) {
            throw Errors.corruptFile(path, "cannot decode the Avro data (" + e + ")", e);
        } catch (DovetailException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Errors.corruptFile(path, "cannot decode the Avro data (" + e + ")", e);
        }
        return result;
    }

    private static <T> T decode(AvroRecordView view, Function<AvroRecordView, T> decoder) {
        try {
            return decoder.apply(view);
        } catch (DovetailException e) {
            if (e.kind() == DovetailException.Kind.INVALID_ARGUMENT) {
                throw Errors.corruptFile(view.source(), e.getMessage(), e);
            }
            throw e;
        }
    }

    private static byte[] load(Path path, @Nullable Long knownLength, String referencedBy) {
        if (knownLength == null) {
            return FileIO.readFully(path, referencedBy);
        }
        if (knownLength < 0 || knownLength > Integer.MAX_VALUE - 8) {
            throw Errors.corruptFile(path, "impossible recorded size " + knownLength);
        }
        try (FSDataInputStream in = FileIO.open(path, referencedBy)) {
            byte[] bytes = in.readNBytes(knownLength.intValue());
            if (bytes.length < knownLength) {
                throw Errors.corruptFile(
                        path,
                        "the file has "
                                + bytes.length
                                + " bytes but its metadata records "
                                + knownLength
                                + " (truncated)");
            }
            if (in.read() != -1) {
                throw Errors.corruptFile(
                        path,
                        "the file is longer than the "
                                + knownLength
                                + " bytes its metadata records");
            }
            return bytes;
        } catch (IOException e) {
            throw Errors.io("read", path, e);
        }
    }

    /** Describes how {@code actual} fails to match {@code expected}, or null if it matches. */
    @Nullable
    static String mismatch(Schema expected, Schema actual, String path) {
        if (expected.getType() == Schema.Type.UNION) {
            Schema value = expected.getTypes().get(1);
            if (actual.getType() != Schema.Type.UNION) {
                return mismatch(value, actual, path);
            }
            List<Schema> branches = actual.getTypes();
            if (branches.size() != 2 || branches.get(0).getType() != Schema.Type.NULL) {
                return path + " must be a [\"null\", T] union but is " + actual;
            }
            return mismatch(value, branches.get(1), path);
        }
        if (actual.getType() != expected.getType()) {
            return path + " must be " + expected + " but is " + actual;
        }
        LogicalType logical = expected.getLogicalType();
        if (logical != null
                && (actual.getLogicalType() == null
                        || !Objects.equals(logical.getName(), actual.getLogicalType().getName()))) {
            return path + " must have logical type " + logical.getName() + " but is " + actual;
        }
        switch (expected.getType()) {
            case ARRAY:
                return mismatch(expected.getElementType(), actual.getElementType(), path + "[]");
            case RECORD:
                for (Schema.Field field : expected.getFields()) {
                    String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
                    Schema.Field stored = actual.getField(field.name());
                    if (stored == null) {
                        if (field.schema().getType() != Schema.Type.UNION) {
                            return "required field " + fieldPath + " is missing";
                        }
                        continue;
                    }
                    String problem = mismatch(field.schema(), stored.schema(), fieldPath);
                    if (problem != null) {
                        return problem;
                    }
                }
                return null;
            default:
                return null;
        }
    }
}
