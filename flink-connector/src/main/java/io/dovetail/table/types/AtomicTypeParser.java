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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses the JSON string form of an atomic type, case-insensitively, with the aliases Paimon's
 * reader accepts: {@code INTEGER}, {@code DOUBLE PRECISION}, {@code NUMERIC}/{@code DEC}, {@code
 * DECIMAL(p)} and bare {@code DECIMAL} (= (10, 0)), {@code STRING}/{@code BYTES}, {@code
 * TIMESTAMP_LTZ(p)}, optional {@code WITHOUT TIME ZONE}, a trailing {@code NULL}, and parameter
 * defaults (CHAR/VARCHAR/BINARY/VARBINARY length 1, TIME precision 0, TIMESTAMP precision 6).
 * Composite types are JSON objects and are refused here.
 *
 * <p>Failures are {@link IllegalArgumentException}s whose message names the problem; the JSON
 * reader turns them into errors naming the file.
 */
final class AtomicTypeParser {

    private static final int DEFAULT_LENGTH = 1;
    private static final int DEFAULT_DECIMAL_PRECISION = 10;
    private static final int DEFAULT_TIME_PRECISION = 0;
    private static final int DEFAULT_TIMESTAMP_PRECISION = 6;

    private final String text;
    private final List<String> tokens;
    private int next;

    private AtomicTypeParser(String text) {
        this.text = text;
        this.tokens = tokenize(text);
    }

    static AtomicType parse(String text) {
        return new AtomicTypeParser(text).parseType();
    }

    private AtomicType parseType() {
        String keyword = word();
        AtomicType type = parseByKeyword(keyword);
        boolean nullable = true;
        if (accept("NOT")) {
            expect("NULL");
            nullable = false;
        } else {
            accept("NULL");
        }
        if (next < tokens.size()) {
            throw error("unexpected '" + tokens.get(next) + "'");
        }
        return type.withNullable(nullable);
    }

    private AtomicType parseByKeyword(String keyword) {
        switch (keyword) {
            case "BOOLEAN":
                return DataTypes.BOOLEAN();
            case "TINYINT":
                return DataTypes.TINYINT();
            case "SMALLINT":
                return DataTypes.SMALLINT();
            case "INT":
            case "INTEGER":
                return DataTypes.INT();
            case "BIGINT":
                return DataTypes.BIGINT();
            case "FLOAT":
                return DataTypes.FLOAT();
            case "DOUBLE":
                accept("PRECISION");
                return DataTypes.DOUBLE();
            case "DECIMAL":
            case "NUMERIC":
            case "DEC":
                return parseDecimal();
            case "CHAR":
                return atomic(TypeRoot.CHAR, optionalParameter(DEFAULT_LENGTH), 0);
            case "VARCHAR":
                return atomic(TypeRoot.VARCHAR, optionalParameter(DEFAULT_LENGTH), 0);
            case "STRING":
                return DataTypes.STRING();
            case "BINARY":
                return atomic(TypeRoot.BINARY, optionalParameter(DEFAULT_LENGTH), 0);
            case "VARBINARY":
                return atomic(TypeRoot.VARBINARY, optionalParameter(DEFAULT_LENGTH), 0);
            case "BYTES":
                return DataTypes.BYTES();
            case "DATE":
                return DataTypes.DATE();
            case "TIME":
                AtomicType time =
                        atomic(TypeRoot.TIME, optionalParameter(DEFAULT_TIME_PRECISION), 0);
                acceptWithoutTimeZone();
                return time;
            case "TIMESTAMP":
                return parseTimestamp();
            case "TIMESTAMP_LTZ":
                return atomic(
                        TypeRoot.TIMESTAMP_LTZ, optionalParameter(DEFAULT_TIMESTAMP_PRECISION), 0);
            case "VARIANT":
                return DataTypes.VARIANT();
            case "BLOB":
                return DataTypes.BLOB();
            case "ROW":
            case "ARRAY":
            case "MAP":
            case "MULTISET":
            case "VECTOR":
                throw error(keyword + " is a composite type and must be written as a JSON object");
            default:
                throw error("unknown type '" + keyword + "'");
        }
    }

    private AtomicType parseDecimal() {
        int precision = DEFAULT_DECIMAL_PRECISION;
        int scale = 0;
        if (accept("(")) {
            precision = integer();
            if (accept(",")) {
                scale = integer();
            }
            expect(")");
        }
        return atomic(TypeRoot.DECIMAL, precision, scale);
    }

    private AtomicType parseTimestamp() {
        int precision = optionalParameter(DEFAULT_TIMESTAMP_PRECISION);
        if (accept("WITH")) {
            expect("LOCAL");
            expect("TIME");
            expect("ZONE");
            return atomic(TypeRoot.TIMESTAMP_LTZ, precision, 0);
        }
        acceptWithoutTimeZone();
        return atomic(TypeRoot.TIMESTAMP, precision, 0);
    }

    private void acceptWithoutTimeZone() {
        if (accept("WITHOUT")) {
            expect("TIME");
            expect("ZONE");
        }
    }

    private int optionalParameter(int defaultValue) {
        if (!accept("(")) {
            return defaultValue;
        }
        int value = integer();
        expect(")");
        return value;
    }

    private AtomicType atomic(TypeRoot root, int precision, int scale) {
        String problem = AtomicType.rangeProblem(root, precision, scale);
        if (problem != null) {
            throw error(problem);
        }
        return new AtomicType(root, precision, scale, true);
    }

    private String word() {
        String token = take("a type name");
        if (!Character.isLetter(token.charAt(0))) {
            throw error("expected a type name but found '" + token + "'");
        }
        return token;
    }

    private int integer() {
        String token = take("a number");
        try {
            return Integer.parseInt(token);
        } catch (NumberFormatException e) {
            throw error("expected a number but found '" + token + "'");
        }
    }

    private boolean accept(String token) {
        if (next < tokens.size() && tokens.get(next).equals(token)) {
            next++;
            return true;
        }
        return false;
    }

    private void expect(String token) {
        String found = take("'" + token + "'");
        if (!found.equals(token)) {
            throw error("expected '" + token + "' but found '" + found + "'");
        }
    }

    private String take(String expected) {
        if (next >= tokens.size()) {
            throw error("unexpected end, expected " + expected);
        }
        return tokens.get(next++);
    }

    private IllegalArgumentException error(String problem) {
        return new IllegalArgumentException("invalid type '" + text + "': " + problem);
    }

    /** Words (upper-cased), digit runs, and the symbols {@code ( ) , < >} as separate tokens. */
    private List<String> tokenize(String input) {
        List<String> result = new ArrayList<>();
        int i = 0;
        while (i < input.length()) {
            char c = input.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if ("(),<>".indexOf(c) >= 0) {
                result.add(String.valueOf(c));
                i++;
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                int start = i;
                while (i < input.length()
                        && (Character.isLetterOrDigit(input.charAt(i)) || input.charAt(i) == '_')) {
                    i++;
                }
                result.add(input.substring(start, i).toUpperCase(Locale.ROOT));
            } else {
                throw error("unexpected character '" + c + "'");
            }
        }
        return result;
    }
}
