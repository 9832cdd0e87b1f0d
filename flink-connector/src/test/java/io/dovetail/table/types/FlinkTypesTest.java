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

import io.dovetail.table.error.DovetailException;

import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DayTimeIntervalType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.VariantType;
import org.apache.flink.table.types.logical.ZonedTimestampType;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlinkTypesTest {

    private static final List<LogicalType> FLINK_TYPES =
            List.of(
                    new BooleanType(),
                    new TinyIntType(false),
                    new SmallIntType(),
                    new IntType(false),
                    new BigIntType(),
                    new FloatType(),
                    new DoubleType(false),
                    new DecimalType(false, 20, 4),
                    new CharType(3),
                    new VarCharType(10),
                    new VarCharType(VarCharType.MAX_LENGTH),
                    new BinaryType(16),
                    new VarBinaryType(false, VarBinaryType.MAX_LENGTH),
                    new DateType(),
                    new TimeType(3),
                    new TimestampType(false, 9),
                    new LocalZonedTimestampType(3),
                    new VariantType(),
                    new ArrayType(false, new IntType()),
                    new MultisetType(new VarCharType(5)),
                    new MapType(new VarCharType(VarCharType.MAX_LENGTH), new DoubleType(false)),
                    new RowType(
                            List.of(
                                    new RowType.RowField("x", new IntType(), "the x"),
                                    new RowType.RowField(
                                            "y",
                                            new ArrayType(
                                                    new RowType(
                                                            List.of(
                                                                    new RowType.RowField(
                                                                            "z",
                                                                            new DateType()))))))));

    @Test
    void everyStorableFlinkTypeRoundTrips() {
        for (LogicalType flink : FLINK_TYPES) {
            DataType ours = FlinkTypes.fromFlink(flink);
            assertThat(ours.nullable()).as(flink.toString()).isEqualTo(flink.isNullable());
            assertThat(FlinkTypes.toFlink(ours)).as(flink.toString()).isEqualTo(flink);
        }
    }

    @Test
    void atomicTypesMapOneToOne() {
        assertThat(FlinkTypes.fromFlink(new DecimalType(false, 20, 4)))
                .isEqualTo(DataTypes.DECIMAL(20, 4).withNullable(false));
        assertThat(FlinkTypes.fromFlink(new VarCharType(VarCharType.MAX_LENGTH)))
                .isEqualTo(DataTypes.STRING());
        assertThat(FlinkTypes.fromFlink(new LocalZonedTimestampType(3)))
                .isEqualTo(DataTypes.TIMESTAMP_LTZ(3));
        assertThat(FlinkTypes.fromFlink(new TimeType(3))).isEqualTo(DataTypes.TIME(3));
        assertThat(FlinkTypes.toFlink(DataTypes.BYTES()))
                .isEqualTo(new VarBinaryType(VarBinaryType.MAX_LENGTH));
    }

    @Test
    void createTableAssignsFreshPreOrderIdsAndKeepsComments() {
        RowType row =
                new RowType(
                        List.of(
                                new RowType.RowField("id", new BigIntType(false)),
                                new RowType.RowField(
                                        "nested",
                                        new RowType(
                                                List.of(
                                                        new RowType.RowField("x", new IntType()),
                                                        new RowType.RowField(
                                                                "y", new VarCharType(5)))),
                                        "a comment"),
                                new RowType.RowField("arr", new ArrayType(new IntType())),
                                new RowType.RowField(
                                        "m", new MapType(new VarCharType(7), new IntType()))));
        List<DataField> fields = FlinkTypes.toFields(row);
        assertThat(FieldIds.all(fields)).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(fields.get(1))
                .isEqualTo(
                        new DataField(
                                1,
                                "nested",
                                DataTypes.ROW(
                                        new DataField(2, "x", DataTypes.INT()),
                                        new DataField(3, "y", DataTypes.VARCHAR(5))),
                                "a comment",
                                null));
        assertThat(FlinkTypes.toFlinkRowType(fields)).isEqualTo(row.copy(false));
    }

    @Test
    void typesFlinkLacksAreClearlyUnsupported() {
        assertThat(FlinkTypes.toFlink(DataTypes.BLOB()))
                .as("a BLOB reads as bytes")
                .isEqualTo(new VarBinaryType(VarBinaryType.MAX_LENGTH));
        assertThat(FlinkTypes.toFlink(DataTypes.VECTOR(DataTypes.FLOAT(), 8)))
                .as("a VECTOR reads as an ARRAY of its element type")
                .isEqualTo(new ArrayType(new FloatType()));
        assertThatThrownBy(
                        () ->
                                FlinkTypes.fromFlink(
                                        new DayTimeIntervalType(
                                                DayTimeIntervalType.DayTimeResolution.DAY)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("cannot be stored in a table");
        assertThatThrownBy(() -> FlinkTypes.fromFlink(new ZonedTimestampType(3)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("TIMESTAMP(3) WITH TIME ZONE");
        assertThatThrownBy(() -> FlinkTypes.fromFlink(CharType.ofEmptyLiteral()))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("zero length");
    }
}
