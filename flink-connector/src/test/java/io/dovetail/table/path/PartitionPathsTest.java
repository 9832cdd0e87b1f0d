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
package io.dovetail.table.path;

import io.dovetail.table.error.DovetailException;

import org.apache.flink.table.data.DecimalData;
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
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionPathsTest {

    private static final LogicalType STRING = new VarCharType(VarCharType.MAX_LENGTH);

    private static PartitionPaths legacy(List<String> keys, LogicalType... types) {
        return PartitionPaths.fromOptions(keys, List.of(types), Map.of());
    }

    private static PartitionPaths nonLegacy(LogicalType type) {
        return PartitionPaths.fromOptions(
                List.of("k"), List.of(type), Map.of(PartitionPaths.LEGACY_NAME_OPTION, "false"));
    }

    @Test
    void goldenExamplesObservedInPaimon() {
        PartitionPaths paths = legacy(List.of("part", "dpart"), STRING, new IntType());
        TablePaths table = new TablePaths(new org.apache.flink.core.fs.Path("/t"));

        String escaped = paths.path(GenericRowData.of(StringData.fromString("a/b=c"), 1));
        String defaulted = paths.path(GenericRowData.of(null, 2));

        assertThat(escaped).isEqualTo("part=a%2Fb%3Dc/dpart=1");
        assertThat(table.bucketDir(escaped, 0).toString())
                .isEqualTo("/t/part=a%2Fb%3Dc/dpart=1/bucket-0");
        assertThat(defaulted).isEqualTo("part=__DEFAULT_PARTITION__/dpart=2");
        assertThat(PartitionPaths.parse(escaped))
                .containsExactly(Map.entry("part", "a/b=c"), Map.entry("dpart", "1"));
    }

    @Test
    void emptyAndBlankValuesUseTheDefaultName() {
        PartitionPaths paths =
                PartitionPaths.fromOptions(
                        List.of("a", "b", "c"),
                        List.of(STRING, STRING, STRING),
                        Map.of(PartitionPaths.DEFAULT_NAME_OPTION, "none"));
        GenericRowData row =
                GenericRowData.of(
                        StringData.fromString(""),
                        StringData.fromString(" \t\n"),
                        StringData.fromString(" x "));
        assertThat(paths.path(row)).isEqualTo("a=none/b=none/c= x ");
    }

    @Test
    void unpartitionedTableHasTheEmptyPath() {
        PartitionPaths paths = legacy(List.of());
        assertThat(paths.path(new GenericRowData(0))).isEmpty();
        assertThat(PartitionPaths.parse("")).isEmpty();
    }

    @Test
    void legacyValueStrings() {
        LocalDateTime ts = LocalDateTime.of(2023, 11, 14, 22, 13, 20, 5_000_000);
        assertThat(legacyValue(new BooleanType(), true)).isEqualTo("true");
        assertThat(legacyValue(new TinyIntType(), (byte) -7)).isEqualTo("-7");
        assertThat(legacyValue(new SmallIntType(), (short) 300)).isEqualTo("300");
        assertThat(legacyValue(new BigIntType(), -9_000_000_000L)).isEqualTo("-9000000000");
        assertThat(legacyValue(new FloatType(), 1e10f)).isEqualTo("1.0E10");
        assertThat(legacyValue(new FloatType(), -2.5f)).isEqualTo("-2.5");
        assertThat(legacyValue(new DoubleType(), 0.1)).isEqualTo("0.1");
        assertThat(legacyValue(new DecimalType(5, 2), decimal("123.4", 5, 2))).isEqualTo("123.40");
        assertThat(legacyValue(new DecimalType(20, 0), decimal("1E+19", 20, 0)))
                .isEqualTo("10000000000000000000");
        assertThat(legacyValue(new DateType(), 19000)).isEqualTo("19000");
        assertThat(legacyValue(new TimeType(3), 3_600_000)).isEqualTo("3600000");
        assertThat(legacyValue(new TimestampType(3), TimestampData.fromLocalDateTime(ts)))
                .isEqualTo("2023-11-14T22:13:20.005");
        assertThat(
                        legacyValue(
                                new TimestampType(0),
                                TimestampData.fromLocalDateTime(ts.withSecond(0).withNano(0))))
                .isEqualTo("2023-11-14T22:13");
        assertThat(
                        legacyValue(
                                new LocalZonedTimestampType(3),
                                TimestampData.fromEpochMillis(1_700_000_000_000L)))
                .isEqualTo("2023-11-14T22:13:20");
        assertThat(legacyValue(new CharType(3), StringData.fromString("ab "))).isEqualTo("ab ");
    }

    @Test
    void legacyTimestampIsEscapedIntoTheDirectoryName() {
        PartitionPaths paths = legacy(List.of("ts"), new TimestampType(3));
        GenericRowData row =
                GenericRowData.of(
                        TimestampData.fromLocalDateTime(
                                LocalDateTime.of(2023, 11, 14, 22, 13, 20)));
        assertThat(paths.path(row)).isEqualTo("ts=2023-11-14T22%3A13%3A20");
    }

    @Test
    void nonLegacyValueStringsAreCastsToString() {
        LocalDateTime ts = LocalDateTime.of(2023, 11, 14, 22, 13, 20, 5_000_000);
        assertThat(nonLegacyValue(new DateType(), 19000)).isEqualTo("2022-01-08");
        assertThat(nonLegacyValue(new DateType(), -719000)).isEqualTo("0001-06-12");
        assertThat(nonLegacyValue(new TimestampType(3), TimestampData.fromLocalDateTime(ts)))
                .isEqualTo("2023-11-14 22:13:20.005");
        assertThat(nonLegacyValue(new TimestampType(6), TimestampData.fromLocalDateTime(ts)))
                .isEqualTo("2023-11-14 22:13:20.005000");
        assertThat(
                        nonLegacyValue(
                                new TimestampType(3),
                                TimestampData.fromLocalDateTime(ts.withNano(0))))
                .isEqualTo("2023-11-14 22:13:20.000");
        assertThat(
                        nonLegacyValue(
                                new TimestampType(0),
                                TimestampData.fromLocalDateTime(ts.withNano(0))))
                .isEqualTo("2023-11-14 22:13:20");
        assertThat(
                        nonLegacyValue(
                                new TimestampType(9),
                                TimestampData.fromLocalDateTime(ts.withNano(123_456_789))))
                .isEqualTo("2023-11-14 22:13:20.123456789");
        assertThat(nonLegacyValue(new IntType(), 42)).isEqualTo("42");
        assertThat(nonLegacyValue(new DecimalType(4, 1), decimal("-0.5", 4, 1))).isEqualTo("-0.5");
        assertThat(nonLegacyValue(new DoubleType(), 1e-7)).isEqualTo("1.0E-7");

        assertThat(
                        nonLegacy(new TimestampType(0))
                                .path(
                                        GenericRowData.of(
                                                TimestampData.fromLocalDateTime(ts.withNano(0)))))
                .isEqualTo("k=2023-11-14 22%3A13%3A20");
    }

    @Test
    void typesThatCannotNameAPartitionAreRefusedUpFront() {
        assertThatThrownBy(() -> legacy(List.of("b"), new VarBinaryType(10)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("partition key 'b' of type VARBINARY(10)");
        assertThatThrownBy(() -> legacy(List.of("a"), new ArrayType(new IntType())))
                .hasMessageContaining("partition key 'a'");
        assertThatThrownBy(() -> nonLegacy(new TimeType()))
                .hasMessageContaining("partition.legacy-name = false");
        assertThatThrownBy(() -> nonLegacy(new LocalZonedTimestampType(3)))
                .hasMessageContaining("partition.legacy-name = false");
    }

    @Test
    void refusesBadOptionsAndRows() {
        assertThatThrownBy(
                        () ->
                                PartitionPaths.fromOptions(
                                        List.of("k"),
                                        List.of(STRING),
                                        Map.of(PartitionPaths.LEGACY_NAME_OPTION, "yes")))
                .hasMessageContaining("partition.legacy-name must be 'true' or 'false', got 'yes'");
        assertThatThrownBy(
                        () ->
                                PartitionPaths.fromOptions(
                                        List.of("k"),
                                        List.of(STRING),
                                        Map.of(PartitionPaths.DEFAULT_NAME_OPTION, " ")))
                .hasMessageContaining("partition.default-name");
        assertThatThrownBy(() -> legacy(List.of("a", "b"), STRING))
                .hasMessageContaining("differ in number");
        PartitionPaths paths = legacy(List.of("a"), STRING);
        assertThatThrownBy(() -> paths.path(GenericRowData.of(1, 2)))
                .hasMessageContaining("2 fields");
        Map<String, String> emptyValue = new LinkedHashMap<>();
        emptyValue.put("k", "");
        assertThatThrownBy(() -> PartitionPaths.path(emptyValue))
                .hasMessageContaining("Empty value of partition key 'k'");
    }

    @Test
    void escapesControlCharactersAndSpecialsButNotUnicode() {
        Map<String, String> spec = new LinkedHashMap<>();
        spec.put("k=ey", "\u0001\u001f\u007f\"#%'*/:=?\\{}[]^ é中");
        assertThat(PartitionPaths.path(spec))
                .isEqualTo("k%3Dey=%01%1F%7F%22%23%25%27%2A%2F%3A%3D%3F%5C%7B%7D%5B%5D%5E é中");
        assertThat(PartitionPaths.parse(PartitionPaths.path(spec))).isEqualTo(spec);
    }

    @Test
    void parseRefusesMalformedPaths() {
        assertThat(PartitionPaths.parse("a=1/b=x%2Fy/"))
                .containsExactly(Map.entry("a", "1"), Map.entry("b", "x/y"));
        assertThatThrownBy(() -> PartitionPaths.parse("a=1/bucket-0"))
                .hasMessageContaining("segment 'bucket-0' is not <key>=<value>");
        assertThatThrownBy(() -> PartitionPaths.parse("a=%2"))
                .hasMessageContaining("not followed by two hex digits");
        assertThatThrownBy(() -> PartitionPaths.parse("a=%zz"))
                .hasMessageContaining("not followed by two hex digits");
        assertThatThrownBy(() -> PartitionPaths.parse("a=b=c"))
                .hasMessageContaining("segment 'a=b=c'");
        assertThatThrownBy(() -> PartitionPaths.parse("a=x:y"))
                .hasMessageContaining("unescaped character U+003A");
        assertThatThrownBy(() -> PartitionPaths.parse("a=1/a=2"))
                .hasMessageContaining("key 'a' repeats");
        assertThatThrownBy(() -> PartitionPaths.parse("a="))
                .hasMessageContaining("Malformed partition path 'a='");
    }

    private static String legacyValue(LogicalType type, Object internal) {
        return legacy(List.of("k"), type).values(GenericRowData.of(internal)).get("k");
    }

    private static String nonLegacyValue(LogicalType type, Object internal) {
        return nonLegacy(type).values(GenericRowData.of(internal)).get("k");
    }

    private static DecimalData decimal(String value, int precision, int scale) {
        return DecimalData.fromBigDecimal(new BigDecimal(value), precision, scale);
    }
}
