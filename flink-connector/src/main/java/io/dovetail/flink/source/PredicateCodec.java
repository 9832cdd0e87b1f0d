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
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.GenericRowData;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link Predicate} as bytes, so that a source can carry its filter to the split enumerator:
 * columns by field id, literals as one-field binary rows ({@link BinaryRowCodec}). The bytes live
 * only in a job graph, never in state.
 */
final class PredicateCodec {

    private static final byte COMPARE = 0;
    private static final byte IN = 1;
    private static final byte IS_NULL = 2;
    private static final byte IS_NOT_NULL = 3;
    private static final byte AND = 4;
    private static final byte OR = 5;
    private static final byte NOT = 6;

    private PredicateCodec() {}

    static byte[] toBytes(Predicate predicate) {
        DataOutputSerializer out = new DataOutputSerializer(256);
        try {
            write(predicate, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.getCopyOfBuffer();
    }

    /** Decodes with the columns by field id ({@link DataField#id()}). */
    static Predicate fromBytes(byte[] bytes, Map<Integer, DataField> columns) {
        try {
            return read(new DataInputDeserializer(bytes), columns);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Predicate p, DataOutputView out) throws IOException {
        if (p instanceof Predicate.Compare c) {
            out.writeByte(COMPARE);
            out.writeInt(c.field().id());
            out.writeByte(c.op().ordinal());
            writeValue(c.field(), c.literal(), out);
        } else if (p instanceof Predicate.In in) {
            out.writeByte(IN);
            out.writeInt(in.field().id());
            out.writeInt(in.literals().size());
            for (Object literal : in.literals()) {
                out.writeBoolean(literal != null);
                if (literal != null) {
                    writeValue(in.field(), literal, out);
                }
            }
        } else if (p instanceof Predicate.IsNull n) {
            out.writeByte(IS_NULL);
            out.writeInt(n.field().id());
        } else if (p instanceof Predicate.IsNotNull n) {
            out.writeByte(IS_NOT_NULL);
            out.writeInt(n.field().id());
        } else if (p instanceof Predicate.And and) {
            writeChildren(AND, and.children(), out);
        } else if (p instanceof Predicate.Or or) {
            writeChildren(OR, or.children(), out);
        } else if (p instanceof Predicate.Not not) {
            out.writeByte(NOT);
            write(not.child(), out);
        } else {
            throw new IllegalArgumentException("Unknown predicate " + p);
        }
    }

    private static void writeChildren(byte tag, List<Predicate> children, DataOutputView out)
            throws IOException {
        out.writeByte(tag);
        out.writeInt(children.size());
        for (Predicate child : children) {
            write(child, out);
        }
    }

    private static void writeValue(DataField field, Object value, DataOutputView out)
            throws IOException {
        byte[] row = codec(field).serialize(GenericRowData.of(value));
        out.writeInt(row.length);
        out.write(row);
    }

    private static Predicate read(DataInputView in, Map<Integer, DataField> columns)
            throws IOException {
        byte tag = in.readByte();
        switch (tag) {
            case COMPARE:
                {
                    DataField field = column(in.readInt(), columns);
                    Predicate.Op op = Predicate.Op.values()[in.readByte()];
                    return new Predicate.Compare(field, op, readValue(field, in));
                }
            case IN:
                {
                    DataField field = column(in.readInt(), columns);
                    int n = in.readInt();
                    List<Object> literals = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        literals.add(in.readBoolean() ? readValue(field, in) : null);
                    }
                    return new Predicate.In(field, literals);
                }
            case IS_NULL:
                return new Predicate.IsNull(column(in.readInt(), columns));
            case IS_NOT_NULL:
                return new Predicate.IsNotNull(column(in.readInt(), columns));
            case AND:
                return new Predicate.And(readChildren(in, columns));
            case OR:
                return new Predicate.Or(readChildren(in, columns));
            case NOT:
                return new Predicate.Not(read(in, columns));
            default:
                throw new IOException("Unknown predicate tag " + tag);
        }
    }

    private static List<Predicate> readChildren(DataInputView in, Map<Integer, DataField> columns)
            throws IOException {
        int n = in.readInt();
        List<Predicate> children = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            children.add(read(in, columns));
        }
        return children;
    }

    private static Object readValue(DataField field, DataInputView in) throws IOException {
        byte[] row = new byte[in.readInt()];
        in.readFully(row);
        return codec(field).deserialize(row).getField(0);
    }

    private static DataField column(int id, Map<Integer, DataField> columns) throws IOException {
        DataField field = columns.get(id);
        if (field == null) {
            throw new IOException("The filter references field id " + id + " of no column");
        }
        return field;
    }

    private static BinaryRowCodec codec(DataField field) {
        return BinaryRowCodec.of(FlinkTypes.toFlink(field.type()));
    }
}
