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
package io.dovetail.table.format;

import io.dovetail.table.error.Errors;
import io.dovetail.table.types.ArrayType;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.FieldIds;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.types.MapType;
import io.dovetail.table.types.MultisetType;
import io.dovetail.table.types.RowType;

import org.apache.flink.table.types.logical.LogicalType;

import org.apache.orc.TypeDescription;

import java.util.List;

/**
 * The ORC schema of a data file, exactly as Paimon writes it: a struct with one column per field,
 * named by the field name and carrying the field id in the attribute {@code paimon.id}; CHAR(n) and
 * VARCHAR(n) keep their length (VARCHAR of maximal length is {@code string}), every binary type is
 * {@code binary}, TIME is {@code int}, TIMESTAMP_LTZ is {@code timestamp with local time zone}, and
 * MULTISET is a map to {@code int} counts. List elements and map keys and values carry the same
 * synthetic ids as in Parquet files. ORC has no nullability: every column may hold nulls.
 */
public final class OrcSchemas {

    /** The attribute holding a column's Paimon field id. */
    public static final String FIELD_ID_ATTRIBUTE = "paimon.id";

    private OrcSchemas() {}

    /** The struct of a file holding {@code columns}, in that order. */
    public static TypeDescription struct(List<DataField> columns) {
        TypeDescription struct = TypeDescription.createStruct();
        for (DataField column : columns) {
            struct.addField(column.name(), convert(column.type(), column.id(), 0));
        }
        return struct;
    }

    /**
     * The Flink type of the vectors holding values of {@code type} read from (or written to) ORC:
     * the column's own type, except that a MULTISET is its map of counts.
     */
    public static LogicalType vectorType(DataType type) {
        return FlinkTypes.toFlink(storedAs(type));
    }

    private static DataType storedAs(DataType type) {
        if (type instanceof MultisetType multiset) {
            return new MapType(
                    multiset.nullable(),
                    storedAs(multiset.element()),
                    DataTypes.INT().withNullable(false));
        } else if (type instanceof ArrayType array) {
            return new ArrayType(array.nullable(), storedAs(array.element()));
        } else if (type instanceof MapType map) {
            return new MapType(map.nullable(), storedAs(map.key()), storedAs(map.value()));
        } else if (type instanceof RowType row) {
            return new RowType(
                    row.nullable(),
                    row.fields().stream().map(f -> f.withType(storedAs(f.type()))).toList());
        }
        return type;
    }

    private static TypeDescription convert(DataType type, int id, int depth) {
        TypeDescription orc;
        if (type instanceof AtomicType atomic) {
            orc = atomic(atomic);
        } else if (type instanceof RowType row) {
            orc = struct(row.fields());
        } else if (type instanceof ArrayType array) {
            orc =
                    TypeDescription.createList(
                            withId(
                                    convert(array.element(), id, depth + 1),
                                    FieldIds.listElementId(id, depth + 1)));
        } else if (type instanceof MapType map) {
            orc = map(map.key(), map.value(), id, depth);
        } else if (type instanceof MultisetType multiset) {
            orc = map(multiset.element(), DataTypes.INT(), id, depth);
        } else {
            throw notSupported(type);
        }
        return withId(orc, id);
    }

    private static TypeDescription map(DataType key, DataType value, int id, int depth) {
        return TypeDescription.createMap(
                withId(convert(key, id, depth + 1), FieldIds.mapKeyId(id, depth + 1)),
                withId(convert(value, id, depth + 1), FieldIds.mapValueId(id, depth + 1)));
    }

    private static TypeDescription atomic(AtomicType type) {
        switch (type.root()) {
            case BOOLEAN:
                return TypeDescription.createBoolean();
            case TINYINT:
                return TypeDescription.createByte();
            case SMALLINT:
                return TypeDescription.createShort();
            case INT:
            case TIME:
                return TypeDescription.createInt();
            case BIGINT:
                return TypeDescription.createLong();
            case FLOAT:
                return TypeDescription.createFloat();
            case DOUBLE:
                return TypeDescription.createDouble();
            case DECIMAL:
                return TypeDescription.createDecimal()
                        .withScale(type.scale())
                        .withPrecision(type.precision());
            case CHAR:
                return TypeDescription.createChar().withMaxLength(type.length());
            case VARCHAR:
                return type.length() == AtomicType.MAX_LENGTH
                        ? TypeDescription.createString()
                        : TypeDescription.createVarchar().withMaxLength(type.length());
            case BINARY:
            case VARBINARY:
            case BLOB: // only BLOB columns stored inline as descriptors reach a normal file
                return TypeDescription.createBinary();
            case DATE:
                return TypeDescription.createDate();
            case TIMESTAMP:
                return TypeDescription.createTimestamp();
            case TIMESTAMP_LTZ:
                return TypeDescription.createTimestampInstant();
            default:
                throw notSupported(type);
        }
    }

    private static TypeDescription withId(TypeDescription type, int id) {
        return type.setAttribute(FIELD_ID_ATTRIBUTE, String.valueOf(id));
    }

    private static RuntimeException notSupported(DataType type) {
        return Errors.unsupported(
                "columns of type " + type.asSqlString() + " in ORC data files",
                "VARIANT and VECTOR columns are not supported in ORC data files");
    }
}
