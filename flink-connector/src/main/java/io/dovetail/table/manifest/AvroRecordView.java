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

import org.apache.avro.generic.GenericRecord;

import javax.annotation.Nullable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Typed access by field name to a record decoded with the schema stored in its file. A field the
 * file lacks reads as null; a null where a value is required is reported as corruption of the
 * record's {@link #source()}. {@link AvroFileReader} has already checked the field types.
 */
public final class AvroRecordView {

    private final GenericRecord record;
    private final String source;

    AvroRecordView(GenericRecord record, String source) {
        this.record = record;
        this.source = source;
    }

    /** The file and record position, for error messages. */
    public String source() {
        return source;
    }

    public int requiredInt(String name) {
        return (Integer) required(name);
    }

    public long requiredLong(String name) {
        return (Long) required(name);
    }

    public String requiredString(String name) {
        return required(name).toString();
    }

    public byte[] requiredBytes(String name) {
        return bytes((ByteBuffer) required(name));
    }

    public AvroRecordView requiredRecord(String name) {
        return new AvroRecordView((GenericRecord) required(name), source + "." + name);
    }

    /** An array of non-null strings. */
    public List<String> requiredStrings(String name) {
        return strings(name, (Collection<?>) required(name));
    }

    @Nullable
    public Integer optionalInt(String name) {
        return (Integer) get(name);
    }

    @Nullable
    public Long optionalLong(String name) {
        return (Long) get(name);
    }

    @Nullable
    public String optionalString(String name) {
        Object value = get(name);
        return value == null ? null : value.toString();
    }

    @Nullable
    public byte[] optionalBytes(String name) {
        Object value = get(name);
        return value == null ? null : bytes((ByteBuffer) value);
    }

    @Nullable
    public AvroRecordView optionalRecord(String name) {
        Object value = get(name);
        return value == null
                ? null
                : new AvroRecordView((GenericRecord) value, source + "." + name);
    }

    @Nullable
    public List<String> optionalStrings(String name) {
        Object value = get(name);
        return value == null ? null : strings(name, (Collection<?>) value);
    }

    /** The elements of an optional array as decoded by Avro (null elements kept). */
    @Nullable
    public List<Object> optionalList(String name) {
        Object value = get(name);
        return value == null ? null : new ArrayList<>((Collection<?>) value);
    }

    /** A view of a record element of an array field. */
    public AvroRecordView element(String name, int index, Object element) {
        return new AvroRecordView((GenericRecord) element, source + "." + name + "[" + index + "]");
    }

    /**
     * Checks the record's format version field; any other value is a clear error naming the record
     * kind ({@code what}), the version found and {@code hint} (may be empty).
     */
    public void requireVersion(String field, int expected, String what, String hint) {
        int version = requiredInt(field);
        if (version != expected) {
            throw corrupt(
                    what
                            + " "
                            + field
                            + " is "
                            + version
                            + " but only "
                            + expected
                            + " is supported"
                            + hint);
        }
    }

    /** Corruption of this record, naming its file and position. */
    public RuntimeException corrupt(String problem) {
        return Errors.corruptFile(source, problem);
    }

    @Nullable
    private Object get(String name) {
        return record.getSchema().getField(name) == null ? null : record.get(name);
    }

    private Object required(String name) {
        Object value = get(name);
        if (value == null) {
            throw corrupt("required field " + name + " is null");
        }
        return value;
    }

    private List<String> strings(String name, Collection<?> values) {
        List<String> strings = new ArrayList<>(values.size());
        for (Object value : values) {
            if (value == null) {
                throw corrupt("array " + name + " contains a null string");
            }
            strings.add(value.toString());
        }
        return strings;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return bytes;
    }
}
