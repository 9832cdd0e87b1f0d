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
package io.dovetail.table.write;

import io.dovetail.table.error.Errors;
import io.dovetail.table.types.ArrayType;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.FieldIds;
import io.dovetail.table.types.MapType;
import io.dovetail.table.types.MultisetType;
import io.dovetail.table.types.RowType;

import org.apache.parquet.schema.ConversionPatterns;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

import java.util.ArrayList;
import java.util.List;

/**
 * The Parquet schema of a data file, exactly as Paimon writes it (metadata format section 7.2):
 * message {@code paimon_schema}; one column per field with the field's name, {@code required} when
 * NOT NULL else {@code optional}, and the Paimon field id as Parquet field id; 3-level lists
 * ({@code list}/{@code element}) and maps ({@code key_value}/{@code key}/{@code value}, key always
 * required) whose members carry synthetic ids derived from the enclosing field id and the nesting
 * depth.
 */
public final class ParquetSchemas {

    public static final String MESSAGE_NAME = "paimon_schema";
    public static final String LIST_REPEATED_NAME = "list";
    public static final String LIST_ELEMENT_NAME = "element";
    public static final String MAP_REPEATED_NAME = "key_value";
    public static final String MAP_KEY_NAME = "key";
    public static final String MAP_VALUE_NAME = "value";

    /** Highest DECIMAL precision stored as INT32, then as INT64; above that fixed-length bytes. */
    private static final int MAX_INT32_DECIMAL_PRECISION = 9;

    private static final int MAX_INT64_DECIMAL_PRECISION = 18;

    /** Highest TIMESTAMP precision stored as INT64 millis, then INT64 micros; above that INT96. */
    private static final int MAX_MILLIS_PRECISION = 3;

    private static final int MAX_MICROS_PRECISION = 6;

    private ParquetSchemas() {}

    /** The message type of a file holding {@code columns}, in that order. */
    public static MessageType messageType(List<DataField> columns) {
        List<Type> types = new ArrayList<>(columns.size());
        for (DataField column : columns) {
            types.add(column(column));
        }
        return new MessageType(MESSAGE_NAME, types);
    }

    /** The Parquet column of one field (nested ROW fields use their own ids). */
    public static Type column(DataField field) {
        return convert(field.name(), field.type(), field.id(), 0);
    }

    /** Whether a DECIMAL of this precision is stored as INT32. */
    static boolean isInt32Decimal(int precision) {
        return precision <= MAX_INT32_DECIMAL_PRECISION;
    }

    /** Whether a DECIMAL of this precision is stored as INT64. */
    static boolean isInt64Decimal(int precision) {
        return precision > MAX_INT32_DECIMAL_PRECISION && precision <= MAX_INT64_DECIMAL_PRECISION;
    }

    /** Bytes of the fixed-length DECIMAL encoding: the least k with 2^(8k-1) >= 10^precision. */
    static int decimalBytes(int precision) {
        int bytes = 1;
        while (Math.pow(2.0, 8 * bytes - 1) < Math.pow(10.0, precision)) {
            bytes++;
        }
        return bytes;
    }

    /** The stored unit of a TIMESTAMP / TIMESTAMP_LTZ column of this precision. */
    static TimestampUnit timestampUnit(int precision) {
        if (precision <= MAX_MILLIS_PRECISION) {
            return TimestampUnit.MILLIS;
        }
        return precision <= MAX_MICROS_PRECISION ? TimestampUnit.MICROS : TimestampUnit.INT96;
    }

    /** How TIMESTAMP values are stored: INT64 millis, INT64 micros or INT96 Julian day + nanos. */
    enum TimestampUnit {
        MILLIS,
        MICROS,
        INT96
    }

    private static Type convert(String name, DataType type, int id, int depth) {
        Repetition repetition = type.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
        if (type instanceof AtomicType atomic) {
            return atomic(name, atomic, repetition).withId(id);
        } else if (type instanceof RowType row) {
            List<Type> fields = new ArrayList<>(row.fields().size());
            for (DataField field : row.fields()) {
                fields.add(column(field));
            }
            return new GroupType(repetition, name, fields).withId(id);
        } else if (type instanceof ArrayType array) {
            Type element =
                    convert(LIST_ELEMENT_NAME, array.element(), id, depth + 1)
                            .withId(FieldIds.listElementId(id, depth + 1));
            return ConversionPatterns.listOfElements(repetition, name, element).withId(id);
        } else if (type instanceof MapType map) {
            return map(name, repetition, map.key(), map.value(), id, depth);
        } else if (type instanceof MultisetType multiset) {
            return map(
                    name,
                    repetition,
                    multiset.element(),
                    DataTypes.INT().withNullable(false),
                    id,
                    depth);
        }
        throw notSupported(type);
    }

    private static Type map(
            String name, Repetition repetition, DataType key, DataType value, int id, int depth) {
        Type keyType =
                convert(MAP_KEY_NAME, key.withNullable(false), id, depth + 1)
                        .withId(FieldIds.mapKeyId(id, depth + 1));
        Type valueType =
                convert(MAP_VALUE_NAME, value, id, depth + 1)
                        .withId(FieldIds.mapValueId(id, depth + 1));
        return ConversionPatterns.mapType(repetition, name, MAP_REPEATED_NAME, keyType, valueType)
                .withId(id);
    }

    private static Type atomic(String name, AtomicType type, Repetition repetition) {
        switch (type.root()) {
            case BOOLEAN:
                return Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
            case TINYINT:
                return int32(repetition, LogicalTypeAnnotation.intType(8, true), name);
            case SMALLINT:
                return int32(repetition, LogicalTypeAnnotation.intType(16, true), name);
            case INT:
                return Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
            case BIGINT:
                return Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
            case FLOAT:
                return Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(name);
            case DOUBLE:
                return Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
            case CHAR:
            case VARCHAR:
                return Types.primitive(PrimitiveTypeName.BINARY, repetition)
                        .as(LogicalTypeAnnotation.stringType())
                        .named(name);
            case BINARY:
            case VARBINARY:
            case BLOB: // only BLOB columns stored inline as descriptors reach a normal file
                return Types.primitive(PrimitiveTypeName.BINARY, repetition).named(name);
            case DECIMAL:
                return decimal(name, type.precision(), type.scale(), repetition);
            case DATE:
                return int32(repetition, LogicalTypeAnnotation.dateType(), name);
            case TIME:
                return int32(
                        repetition, LogicalTypeAnnotation.timeType(true, TimeUnit.MILLIS), name);
            case TIMESTAMP:
                return timestamp(name, type.precision(), false, repetition);
            case TIMESTAMP_LTZ:
                return timestamp(name, type.precision(), true, repetition);
            default:
                throw notSupported(type);
        }
    }

    private static Type int32(
            Repetition repetition, LogicalTypeAnnotation annotation, String name) {
        return Types.primitive(PrimitiveTypeName.INT32, repetition).as(annotation).named(name);
    }

    private static Type decimal(String name, int precision, int scale, Repetition repetition) {
        LogicalTypeAnnotation annotation = LogicalTypeAnnotation.decimalType(scale, precision);
        if (isInt32Decimal(precision)) {
            return int32(repetition, annotation, name);
        } else if (isInt64Decimal(precision)) {
            return Types.primitive(PrimitiveTypeName.INT64, repetition).as(annotation).named(name);
        }
        return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
                .as(annotation)
                .length(decimalBytes(precision))
                .named(name);
    }

    private static Type timestamp(
            String name, int precision, boolean adjustedToUtc, Repetition repetition) {
        switch (timestampUnit(precision)) {
            case MILLIS:
                return Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.timestampType(adjustedToUtc, TimeUnit.MILLIS))
                        .named(name);
            case MICROS:
                return Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.timestampType(adjustedToUtc, TimeUnit.MICROS))
                        .named(name);
            default:
                return Types.primitive(PrimitiveTypeName.INT96, repetition).named(name);
        }
    }

    private static RuntimeException notSupported(DataType type) {
        return Errors.unsupported(
                "writing columns of type " + type.asSqlString() + " to Parquet data files",
                "VARIANT and VECTOR columns are not supported by the writer yet");
    }
}
