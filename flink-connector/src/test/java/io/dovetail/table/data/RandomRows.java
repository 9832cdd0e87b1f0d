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

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
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
import org.apache.flink.types.RowKind;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** jqwik generators of rows of random atomic types and values, shared by codec and stats tests. */
public final class RandomRows {

    /** Column types with matching internal values. */
    public record TypedRow(List<LogicalType> types, GenericRowData row) {
        @Override
        public String toString() {
            return types + " " + row;
        }
    }

    /** A column type with a generator of its internal values (nulls included). */
    public record Column(LogicalType type, Arbitrary<Object> values) {}

    private RandomRows() {}

    public static Arbitrary<TypedRow> rows(int maxArity) {
        return Arbitraries.integers()
                .between(0, maxArity)
                .flatMap(arity -> columns().list().ofSize(arity))
                .flatMap(RandomRows::rowOf);
    }

    /** Non-empty lists of rows that share one random list of column types. */
    public static Arbitrary<List<TypedRow>> rowLists(int maxArity, int maxRows) {
        return Arbitraries.integers()
                .between(0, maxArity)
                .flatMap(arity -> columns().list().ofSize(arity))
                .flatMap(columns -> rowOf(columns).list().ofMinSize(1).ofMaxSize(maxRows));
    }

    private static Arbitrary<TypedRow> rowOf(List<Column> columns) {
        List<Arbitrary<Object>> values = new ArrayList<>();
        List<LogicalType> types = new ArrayList<>();
        for (Column column : columns) {
            types.add(column.type());
            values.add(column.values().injectNull(0.2));
        }
        Arbitrary<List<Object>> fields =
                values.isEmpty()
                        ? Arbitraries.just(List.of())
                        : Combinators.combine(values).as(l -> l);
        return Combinators.combine(fields, Arbitraries.of(RowKind.class))
                .as(
                        (list, kind) -> {
                            GenericRowData row = new GenericRowData(kind, list.size());
                            for (int i = 0; i < list.size(); i++) {
                                row.setField(i, list.get(i));
                            }
                            return new TypedRow(types, row);
                        });
    }

    public static Arbitrary<Column> columns() {
        return Arbitraries.oneOf(
                Arbitraries.just(new Column(new BooleanType(), obj(Arbitraries.of(true, false)))),
                Arbitraries.just(new Column(new TinyIntType(), obj(Arbitraries.bytes()))),
                Arbitraries.just(new Column(new SmallIntType(), obj(Arbitraries.shorts()))),
                Arbitraries.just(new Column(new IntType(), obj(Arbitraries.integers()))),
                Arbitraries.just(new Column(new BigIntType(), obj(Arbitraries.longs()))),
                Arbitraries.just(
                        new Column(
                                new FloatType(),
                                obj(Arbitraries.floats().withSpecialValue(Float.NaN)))),
                Arbitraries.just(
                        new Column(
                                new DoubleType(),
                                obj(Arbitraries.doubles().withSpecialValue(Double.NaN)))),
                Arbitraries.just(
                        new Column(
                                new DateType(),
                                obj(Arbitraries.integers().between(-1_000_000, 1_000_000)))),
                Arbitraries.integers()
                        .between(0, 3)
                        .map(
                                p ->
                                        new Column(
                                                new TimeType(p),
                                                obj(
                                                        Arbitraries.integers()
                                                                .between(0, 86_399_999)))),
                Arbitraries.integers().between(1, 38).flatMap(RandomRows::decimalColumn),
                Arbitraries.integers().between(0, 9).flatMap(p -> timestampColumn(p, false)),
                Arbitraries.integers().between(0, 9).flatMap(p -> timestampColumn(p, true)),
                Arbitraries.of(VarCharType.STRING_TYPE, new VarCharType(20), new CharType(5))
                        .map(t -> new Column(t, obj(strings()))),
                Arbitraries.of(
                                new VarBinaryType(VarBinaryType.MAX_LENGTH),
                                new BinaryType(4),
                                new VarBinaryType(12))
                        .map(
                                t ->
                                        new Column(
                                                t,
                                                obj(
                                                        Arbitraries.bytes()
                                                                .array(byte[].class)
                                                                .ofMaxSize(24)))));
    }

    private static Arbitrary<String> stringsRaw() {
        return Arbitraries.strings().all().ofMaxLength(20);
    }

    private static Arbitrary<StringData> strings() {
        return stringsRaw().map(StringData::fromString);
    }

    private static Arbitrary<Column> decimalColumn(int precision) {
        return Arbitraries.integers()
                .between(0, precision)
                .map(
                        scale -> {
                            BigInteger bound =
                                    BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
                            Arbitrary<Object> values =
                                    Arbitraries.bigIntegers()
                                            .between(bound.negate(), bound)
                                            .map(
                                                    u ->
                                                            DecimalData.fromBigDecimal(
                                                                    new BigDecimal(u, scale),
                                                                    precision,
                                                                    scale));
                            return new Column(new DecimalType(precision, scale), values);
                        });
    }

    private static Arbitrary<Column> timestampColumn(int precision, boolean localZoned) {
        LogicalType type =
                localZoned ? new LocalZonedTimestampType(precision) : new TimestampType(precision);
        Arbitrary<Long> millis =
                Arbitraries.longs().between(-200_000_000_000_000L, 200_000_000_000_000L);
        Arbitrary<Object> values =
                precision <= 3
                        ? millis.map(TimestampData::fromEpochMillis)
                        : Combinators.combine(millis, Arbitraries.integers().between(0, 999_999))
                                .as(TimestampData::fromEpochMillis);
        return Arbitraries.just(new Column(type, values));
    }

    @SuppressWarnings("unchecked")
    private static Arbitrary<Object> obj(Arbitrary<?> arbitrary) {
        return (Arbitrary<Object>) arbitrary;
    }
}
