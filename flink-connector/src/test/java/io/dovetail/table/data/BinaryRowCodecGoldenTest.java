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
package io.dovetail.table.data;

import io.dovetail.table.error.DovetailException;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
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
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Golden bytes from the format spec (section 5.4, Appendix A) and malformed input. */
class BinaryRowCodecGoldenTest {

    private static final LogicalType STRING = VarCharType.STRING_TYPE;

    @Test
    void partitionExampleMatchesPaimonBytes() {
        BinaryRowCodec codec = BinaryRowCodec.of(STRING, new IntType());
        GenericRowData row = GenericRowData.of(StringData.fromString("a/b=c"), 1);

        byte[] bytes = codec.serialize(row);

        assertThat(hex(bytes))
                .isEqualTo(
                        "00000002" + "0000000000000000" + "612f623d63000085" + "0100000000000000");
        assertThat(codec.deserialize(bytes)).isEqualTo(row);
    }

    @Test
    void nullPartitionValueSetsItsBit() {
        BinaryRowCodec codec = BinaryRowCodec.of(STRING, new IntType());
        GenericRowData row = GenericRowData.of(null, 2);

        assertThat(hex(codec.serialize(row)))
                .isEqualTo(
                        "00000002" + "0001000000000000" + "0000000000000000" + "0200000000000000");
    }

    @Test
    void allNullRowOfArityTwo() {
        BinaryRowCodec codec = BinaryRowCodec.of(STRING, new IntType());

        assertThat(hex(codec.serialize(GenericRowData.of(null, null))))
                .isEqualTo(
                        "00000002" + "0003000000000000" + "0000000000000000" + "0000000000000000");
    }

    @Test
    void emptyRowIsTwelveZeroBytes() {
        assertThat(BinaryRowCodec.emptyRow()).isEqualTo(new byte[12]);
        assertThat(BinaryRowCodec.of(List.of()).serialize(new GenericRowData(0)))
                .isEqualTo(new byte[12]);
    }

    @Test
    void valueStatsRowOfAppendixA1() {
        List<LogicalType> types =
                List.of(
                        new IntType(false),
                        STRING,
                        new BigIntType(),
                        new DecimalType(10, 2),
                        new DecimalType(38, 4),
                        new TimestampType(3),
                        new TimestampType(6),
                        new TimestampType(9),
                        new LocalZonedTimestampType(3),
                        new DateType(),
                        new VarBinaryType(VarBinaryType.MAX_LENGTH),
                        new VarCharType(10),
                        new CharType(3),
                        new BooleanType(),
                        new TinyIntType(),
                        new SmallIntType(),
                        new FloatType(),
                        new DoubleType(),
                        STRING,
                        new IntType());
        long ts = 1_700_000_000_000L;
        GenericRowData row =
                GenericRowData.of(
                        0,
                        StringData.fromString("name0"),
                        0L,
                        DecimalData.fromBigDecimal(new BigDecimal("123.45"), 10, 2),
                        DecimalData.fromBigDecimal(
                                new BigDecimal(new BigInteger("123456789012345678901234"), 4),
                                38,
                                4),
                        TimestampData.fromEpochMillis(ts),
                        TimestampData.fromEpochMillis(ts, 0),
                        null,
                        TimestampData.fromEpochMillis(ts),
                        19000,
                        null,
                        StringData.fromString("vc0"),
                        StringData.fromString("ch0"),
                        false,
                        (byte) 0,
                        (short) 0,
                        0.0f,
                        0.0d,
                        StringData.fromString("a/b=c"),
                        1);
        String expected =
                "00000014"
                        + "0080040000000000" // header, ts9 and b null
                        + "0000000000000000" // id
                        + "6e616d6530000085" // name
                        + "0000000000000000" // v
                        + "3930000000000000" // d
                        + "0a000000a8000000" // big: length 10 at 168
                        + "0068e5cf8b010000" // ts
                        + "00000000b8000000" // ts6 at 184
                        + "00000000c0000000" // ts9 null, reserved at 192
                        + "0068e5cf8b010000" // ltz
                        + "384a000000000000" // dt
                        + "0000000000000000" // b null
                        + "7663300000000083" // vc
                        + "6368300000000083" // ch
                        + "0000000000000000" // bo
                        + "0000000000000000" // ti
                        + "0000000000000000" // si
                        + "0000000000000000" // fl
                        + "0000000000000000" // db
                        + "612f623d63000085" // part
                        + "0100000000000000" // dpart
                        + "1a249b1f10a06c96aff2000000000000" // big unscaled, 16 reserved
                        + "0068e5cf8b010000" // ts6 millis
                        + "0000000000000000"; // ts9 reserved
        BinaryRowCodec codec = BinaryRowCodec.of(types);

        byte[] bytes = codec.serialize(row);

        assertThat(bytes).hasSize(204);
        assertThat(hex(bytes)).isEqualTo(expected);
        assertThat(codec.deserialize(bytes)).isEqualTo(row);
    }

    @Test
    void genericRowOfAppendixA2() {
        BinaryRowCodec codec =
                BinaryRowCodec.of(
                        STRING,
                        STRING,
                        new BooleanType(),
                        new SmallIntType(),
                        new DecimalType(20, 3),
                        new TimestampType(9),
                        new VarBinaryType(VarBinaryType.MAX_LENGTH),
                        new DoubleType(),
                        new DateType(),
                        new DecimalType(5, 2));
        GenericRowData row =
                GenericRowData.of(
                        StringData.fromString("hello world!"),
                        StringData.fromString("ab"),
                        true,
                        (short) -2,
                        null,
                        TimestampData.fromEpochMillis(1000, 999_999),
                        new byte[] {(byte) 0xff},
                        1.5d,
                        -1,
                        DecimalData.fromBigDecimal(new BigDecimal("-1.25"), 5, 2));
        String expected =
                "0000000a"
                        + "0010000000000000"
                        + "0c00000058000000"
                        + "6162000000000082"
                        + "0100000000000000"
                        + "feff000000000000"
                        + "0000000068000000"
                        + "3f420f0078000000"
                        + "ff00000000000081"
                        + "000000000000f83f"
                        + "ffffffff00000000"
                        + "83ffffffffffffff"
                        + "68656c6c6f20776f726c642100000000"
                        + "00000000000000000000000000000000"
                        + "e803000000000000";

        byte[] bytes = codec.serialize(row);

        assertThat(hex(bytes)).isEqualTo(expected);
        assertThat(codec.deserialize(bytes)).isEqualTo(row);
    }

    @Test
    void eightByteStringGoesToTheVariablePart() {
        BinaryRowCodec codec = BinaryRowCodec.of(STRING);

        byte[] bytes = codec.serialize(GenericRowData.of(StringData.fromString("12345678")));

        assertThat(hex(bytes))
                .isEqualTo(
                        "00000001" + "0000000000000000" + "0800000010000000" + "3132333435363738");
    }

    @Test
    void headerGrowsAfterFiftySixColumns() {
        LogicalType[] types = new LogicalType[57];
        Arrays.fill(types, new IntType());
        GenericRowData row = new GenericRowData(57);
        row.setField(56, 7);

        byte[] bytes = BinaryRowCodec.of(types).serialize(row);

        assertThat(bytes).hasSize(4 + 16 + 57 * 8);
        // fields 0..55 null: bits 8..63; field 56 not null
        assertThat(hex(Arrays.copyOfRange(bytes, 4, 20)))
                .isEqualTo("00ffffffffffffff" + "0000000000000000");
        assertThat(bytes[4 + 16 + 56 * 8]).isEqualTo((byte) 7);
    }

    @Test
    void truncatedBytesAreReportedWithTheirSource() {
        BinaryRowCodec codec = BinaryRowCodec.of(STRING, new IntType());
        byte[] bytes = codec.serialize(GenericRowData.of(StringData.fromString("x"), 1));

        assertThatThrownBy(
                        () ->
                                codec.deserialize(
                                        Arrays.copyOf(bytes, 20), "manifest-x (_PARTITION)"))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("manifest-x (_PARTITION)")
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> codec.deserialize(new byte[2], "m"))
                .hasMessageContaining("fewer than the arity");
    }

    @Test
    void variablePartOutsideTheRowIsCorrupt() {
        BinaryRowCodec codec = BinaryRowCodec.of(STRING);
        byte[] bytes = codec.serialize(GenericRowData.of(StringData.fromString("hello world!")));

        assertThatThrownBy(() -> codec.deserialize(Arrays.copyOf(bytes, bytes.length - 8), "f"))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("outside the variable part");
        bytes[4 + 8 + 4] = 0x40; // offset 64: beyond the row
        assertThatThrownBy(() -> codec.deserialize(bytes, "f"))
                .hasMessageContaining("outside the variable part");
    }

    @Test
    void arityMismatchAndBadHeaderAreCorrupt() {
        byte[] twoInts =
                BinaryRowCodec.of(new IntType(), new IntType()).serialize(GenericRowData.of(1, 2));

        assertThatThrownBy(() -> BinaryRowCodec.of(new IntType()).deserialize(twoInts, "f"))
                .hasMessageContaining("arity 2 but 1 columns");
        twoInts[4] = 9;
        assertThatThrownBy(
                        () ->
                                BinaryRowCodec.of(new IntType(), new IntType())
                                        .deserialize(twoInts, "f"))
                .hasMessageContaining("row kind 9");
    }

    @Test
    void badNanosAndOversizedDecimalsAreCorrupt() {
        BinaryRowCodec timestamps = BinaryRowCodec.of(new TimestampType(6));
        byte[] ts = timestamps.serialize(GenericRowData.of(TimestampData.fromEpochMillis(5, 7)));
        ts[4 + 8] = (byte) 0xff;
        ts[4 + 8 + 1] = (byte) 0xff;
        ts[4 + 8 + 2] = (byte) 0xff;
        assertThatThrownBy(() -> timestamps.deserialize(ts, "f"))
                .hasMessageContaining("nano-of-millisecond");

        BinaryRowCodec decimals = BinaryRowCodec.of(new DecimalType(20, 0));
        byte[] dec =
                decimals.serialize(
                        GenericRowData.of(DecimalData.fromBigDecimal(BigDecimal.ONE, 20, 0)));
        dec[4 + 8] = 17; // length 17 > 16
        assertThatThrownBy(() -> decimals.deserialize(dec, "f")).hasMessageContaining("length 17");
    }

    @Test
    void nestedColumnsHoldOnlyNull() {
        BinaryRowCodec codec = BinaryRowCodec.of(new ArrayType(new IntType()), new IntType());
        GenericRowData row = GenericRowData.of(null, 7);

        assertThat(codec.deserialize(codec.serialize(row))).isEqualTo(row);
        assertThat(codec.serialize(row))
                .as("a NULL nested column is a set null bit and an empty slot")
                .isEqualTo(BinaryRowCodec.of(new IntType(), new IntType()).serialize(row));
        assertThatThrownBy(
                        () ->
                                codec.serialize(
                                        GenericRowData.of(new GenericArrayData(new int[] {1}), 7)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("ARRAY<INT>")
                .hasMessageContaining("only as NULL");
    }

    @Test
    void decimalOfTheWrongScaleIsRejected() {
        BinaryRowCodec codec = BinaryRowCodec.of(new DecimalType(10, 2));

        assertThatThrownBy(
                        () ->
                                codec.serialize(
                                        GenericRowData.of(
                                                DecimalData.fromBigDecimal(
                                                        new BigDecimal("1.5"), 10, 1))))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("scale 1");
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
