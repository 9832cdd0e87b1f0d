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
package io.dovetail.flink.procedure;

import io.dovetail.flink.sql.SqlFragments;

import org.apache.flink.table.api.ValidationException;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parsing and checking of procedure arguments, in Paimon's syntax ({@link SqlFragments} splits the
 * lists, respecting quotes and comments); errors name the argument.
 */
final class ProcedureArguments {

    /** {@code yyyy-MM-dd}, optionally followed by {@code HH:mm:ss} and a fraction. */
    private static final DateTimeFormatter TIMESTAMP =
            new DateTimeFormatterBuilder()
                    .appendPattern("yyyy-MM-dd")
                    .optionalStart()
                    .appendLiteral(' ')
                    .appendPattern("HH:mm:ss")
                    .optionalStart()
                    .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
                    .optionalEnd()
                    .optionalEnd()
                    .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
                    .toFormatter();

    private ProcedureArguments() {}

    /** {@code 'k1=v1,k2=v2'} as a map ({@link SqlFragments#keyValues}); null or blank is empty. */
    static Map<String, String> keyValues(String argument, String value) {
        return SqlFragments.keyValues(argument, value);
    }

    /** Partition specs {@code 'dt=a,hh=01;dt=b'}: one map per {@code ;}-separated partition. */
    static List<Map<String, String>> partitions(String value) {
        List<Map<String, String>> specs = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return specs;
        }
        List<String> parts;
        try {
            parts = SqlFragments.split("partitions", value, ';');
        } catch (ValidationException e) {
            throw new ValidationException(
                    "partitions must be specs like 'dt=a,hh=01' separated by ';', got '"
                            + value
                            + "'.",
                    e);
        }
        for (String spec : parts) {
            specs.add(keyValues("partitions", spec));
        }
        return specs;
    }

    /** Epoch milliseconds of a {@code 'yyyy-MM-dd[ HH:mm:ss[.fff]]'} timestamp in {@code zone}. */
    static long timestampMillis(String argument, String value, ZoneId zone) {
        try {
            return LocalDateTime.parse(value.trim(), TIMESTAMP)
                    .atZone(zone)
                    .toInstant()
                    .toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new ValidationException(
                    argument
                            + " must be a timestamp 'yyyy-MM-dd HH:mm:ss[.fff]', got '"
                            + value
                            + "'.",
                    e);
        }
    }

    /** {@code value}, or {@code fallback} when null; a given value must be at least 1. */
    static int positive(String argument, Integer value, int fallback) {
        if (value == null) {
            return fallback;
        }
        if (value < 1) {
            throw new ValidationException(argument + " must be at least 1, got " + value + ".");
        }
        return value;
    }
}
