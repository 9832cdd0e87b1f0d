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
package io.dovetail.table.types;

import io.dovetail.table.error.Errors;

import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.VariantType;

import java.util.ArrayList;
import java.util.List;

/**
 * Converts between Dovetail types and Flink's {@link LogicalType}. Flink has no BLOB type: a BLOB
 * column is {@code VARBINARY(2147483647)} (as in Paimon's connector), made a BLOB at CREATE TABLE
 * by option {@code blob-field}. Flink has no VECTOR type either: a VECTOR column is an {@code
 * ARRAY} of its element type, made a VECTOR at CREATE TABLE by option {@code vector-field}; Flink
 * types Paimon cannot store (intervals, RAW, structured types, TIMESTAMP WITH TIME ZONE, ...) fail
 * clearly the other way. Flink rows carry no field ids: {@link #toFields} hands out fresh ones as
 * CREATE TABLE does.
 */
public final class FlinkTypes {

    private FlinkTypes() {}

    /** The Flink row type of a table's columns (field ids are dropped). */
    public static org.apache.flink.table.types.logical.RowType toFlinkRowType(
            List<DataField> fields) {
        return new org.apache.flink.table.types.logical.RowType(false, toFlinkFields(fields));
    }

    public static LogicalType toFlink(DataType type) {
        boolean n = type.nullable();
        if (type instanceof AtomicType atomic) {
            return toFlinkAtomic(atomic);
        } else if (type instanceof RowType row) {
            return new org.apache.flink.table.types.logical.RowType(n, toFlinkFields(row.fields()));
        } else if (type instanceof ArrayType array) {
            return new org.apache.flink.table.types.logical.ArrayType(n, toFlink(array.element()));
        } else if (type instanceof MultisetType multiset) {
            return new org.apache.flink.table.types.logical.MultisetType(
                    n, toFlink(multiset.element()));
        } else if (type instanceof MapType map) {
            return new org.apache.flink.table.types.logical.MapType(
                    n, toFlink(map.key()), toFlink(map.value()));
        } else if (type instanceof VectorType vector) { // as in Paimon's connector
            return new org.apache.flink.table.types.logical.ArrayType(n, toFlink(vector.element()));
        }
        throw noFlinkType(type);
    }

    private static List<org.apache.flink.table.types.logical.RowType.RowField> toFlinkFields(
            List<DataField> fields) {
        List<org.apache.flink.table.types.logical.RowType.RowField> result = new ArrayList<>();
        for (DataField field : fields) {
            result.add(
                    new org.apache.flink.table.types.logical.RowType.RowField(
                            field.name(), toFlink(field.type()), field.description()));
        }
        return result;
    }

    private static LogicalType toFlinkAtomic(AtomicType type) {
        boolean n = type.nullable();
        int p = type.precision();
        switch (type.root()) {
            case BOOLEAN:
                return new BooleanType(n);
            case TINYINT:
                return new TinyIntType(n);
            case SMALLINT:
                return new SmallIntType(n);
            case INT:
                return new IntType(n);
            case BIGINT:
                return new BigIntType(n);
            case FLOAT:
                return new FloatType(n);
            case DOUBLE:
                return new DoubleType(n);
            case DECIMAL:
                return new DecimalType(n, p, type.scale());
            case CHAR:
                return new CharType(n, p);
            case VARCHAR:
                return new VarCharType(n, p);
            case BINARY:
                return new BinaryType(n, p);
            case VARBINARY:
                return new VarBinaryType(n, p);
            case DATE:
                return new DateType(n);
            case TIME:
                return new TimeType(n, p);
            case TIMESTAMP:
                return new TimestampType(n, p);
            case TIMESTAMP_LTZ:
                return new LocalZonedTimestampType(n, p);
            case VARIANT:
                return new VariantType(n);
            case BLOB: // Flink SQL has no BLOB type: its values are bytes (or descriptors)
                return new VarBinaryType(n, VarBinaryType.MAX_LENGTH);
            default:
                throw noFlinkType(type);
        }
    }

    private static RuntimeException noFlinkType(DataType type) {
        return Errors.unsupported(
                "type " + type.asSqlString() + " has no Flink SQL equivalent",
                "Read the table without this column, or through an engine that supports "
                        + type.root());
    }

    /**
     * The columns of a new table from a Flink row type, with fresh field ids 0, 1, ... in pre-order
     * (see {@link FieldIds}).
     */
    public static List<DataField> toFields(org.apache.flink.table.types.logical.RowType row) {
        return FieldIds.assignFresh(fromFlinkFields(row), -1);
    }

    /** Converts a Flink type; nested ROW fields get placeholder ids (see {@link FieldIds}). */
    public static DataType fromFlink(LogicalType type) {
        boolean n = type.isNullable();
        if (type instanceof org.apache.flink.table.types.logical.RowType row) {
            return new RowType(n, fromFlinkFields(row));
        } else if (type instanceof org.apache.flink.table.types.logical.ArrayType array) {
            return new ArrayType(n, fromFlink(array.getElementType()));
        } else if (type instanceof org.apache.flink.table.types.logical.MultisetType multiset) {
            return new MultisetType(n, fromFlink(multiset.getElementType()));
        } else if (type instanceof org.apache.flink.table.types.logical.MapType map) {
            return new MapType(n, fromFlink(map.getKeyType()), fromFlink(map.getValueType()));
        }
        return fromFlinkAtomic(type).withNullable(n);
    }

    private static List<DataField> fromFlinkFields(
            org.apache.flink.table.types.logical.RowType row) {
        List<DataField> fields = new ArrayList<>();
        for (org.apache.flink.table.types.logical.RowType.RowField f : row.getFields()) {
            fields.add(
                    new DataField(
                            0,
                            f.getName(),
                            fromFlink(f.getType()),
                            f.getDescription().orElse(null),
                            null));
        }
        return fields;
    }

    private static AtomicType fromFlinkAtomic(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return DataTypes.BOOLEAN();
            case TINYINT:
                return DataTypes.TINYINT();
            case SMALLINT:
                return DataTypes.SMALLINT();
            case INTEGER:
                return DataTypes.INT();
            case BIGINT:
                return DataTypes.BIGINT();
            case FLOAT:
                return DataTypes.FLOAT();
            case DOUBLE:
                return DataTypes.DOUBLE();
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return DataTypes.DECIMAL(decimal.getPrecision(), decimal.getScale());
            case CHAR:
                return sized(type, TypeRoot.CHAR, ((CharType) type).getLength());
            case VARCHAR:
                return sized(type, TypeRoot.VARCHAR, ((VarCharType) type).getLength());
            case BINARY:
                return sized(type, TypeRoot.BINARY, ((BinaryType) type).getLength());
            case VARBINARY:
                return sized(type, TypeRoot.VARBINARY, ((VarBinaryType) type).getLength());
            case DATE:
                return DataTypes.DATE();
            case TIME_WITHOUT_TIME_ZONE:
                return DataTypes.TIME(((TimeType) type).getPrecision());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return DataTypes.TIMESTAMP(((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return DataTypes.TIMESTAMP_LTZ(((LocalZonedTimestampType) type).getPrecision());
            case VARIANT:
                return DataTypes.VARIANT();
            default:
                throw Errors.unsupported(
                        "Flink type " + type.asSummaryString() + " cannot be stored in a table",
                        "Use one of BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE,"
                                + " DECIMAL, CHAR, VARCHAR, BINARY, VARBINARY, DATE, TIME,"
                                + " TIMESTAMP, TIMESTAMP_LTZ, VARIANT, ROW, ARRAY, MAP or"
                                + " MULTISET");
        }
    }

    private static AtomicType sized(LogicalType type, TypeRoot root, int length) {
        if (length < 1) {
            throw Errors.unsupported(
                    "Flink type " + type.asSummaryString() + " (zero length) cannot be stored",
                    "Declare a length of at least 1");
        }
        return new AtomicType(root, length, 0, true);
    }
}
