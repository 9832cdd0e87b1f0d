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
import io.dovetail.table.stats.ColumnStats;

import org.apache.flink.table.data.StringData;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much of a column's statistics a data file keeps (Paimon's {@code metadata.stats-mode}):
 * {@code none}, {@code counts} (null count only), {@code full}, or {@code truncate(N)} (strings cut
 * to N code points; the maximum is rounded up so it stays an upper bound).
 *
 * @param length the truncation length; 0 unless the kind is TRUNCATE
 */
public record StatsMode(Kind kind, int length) {

    /** Paimon's default mode. */
    public static final StatsMode DEFAULT = new StatsMode(Kind.TRUNCATE, 16);

    public static final StatsMode NONE = new StatsMode(Kind.NONE, 0);

    private static final Pattern TRUNCATE = Pattern.compile("truncate\\((\\d+)\\)");

    /** The kinds of statistics modes. */
    public enum Kind {
        NONE,
        COUNTS,
        FULL,
        TRUNCATE
    }

    public StatsMode {
        if ((kind == Kind.TRUNCATE) != (length > 0)) {
            throw Errors.invalidArgument(
                    "A stats mode has a positive length exactly when it truncates, got "
                            + kind
                            + " with length "
                            + length
                            + ".");
        }
    }

    /** Parses {@code none}, {@code counts}, {@code full} or {@code truncate(N)}, any case. */
    public static StatsMode parse(String option, String value) {
        String normalized = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        switch (normalized) {
            case "none":
                return NONE;
            case "counts":
                return new StatsMode(Kind.COUNTS, 0);
            case "full":
                return new StatsMode(Kind.FULL, 0);
            default:
                Matcher matcher = TRUNCATE.matcher(normalized);
                if (matcher.matches()) {
                    try {
                        int length = Integer.parseInt(matcher.group(1));
                        if (length > 0) {
                            return new StatsMode(Kind.TRUNCATE, length);
                        }
                    } catch (NumberFormatException e) {
                        // falls through to the error below
                    }
                }
                throw Errors.invalidArgument(
                        "Option "
                                + option
                                + " must be 'none', 'counts', 'full' or 'truncate(N)' with N > 0,"
                                + " got '"
                                + value
                                + "'.");
        }
    }

    /** Applies this mode to exact column statistics. */
    public ColumnStats apply(ColumnStats exact) {
        switch (kind) {
            case NONE:
                return ColumnStats.NONE;
            case COUNTS:
                return new ColumnStats(null, null, exact.nullCount());
            case FULL:
                return exact;
            default:
                Object max = truncateMax(exact.max());
                if (max == null) {
                    return new ColumnStats(null, null, exact.nullCount());
                }
                return new ColumnStats(truncateMin(exact.min()), max, exact.nullCount());
        }
    }

    private Object truncateMin(Object min) {
        if (!(min instanceof StringData)) {
            return min;
        }
        String value = min.toString();
        return value.codePointCount(0, value.length()) <= length
                ? min
                : StringData.fromString(value.substring(0, value.offsetByCodePoints(0, length)));
    }

    /**
     * The first {@code length} code points with the last one that can be incremented incremented
     * (later ones dropped): the least such string above every value with the same prefix. Null if
     * no code point can be incremented.
     */
    private Object truncateMax(Object max) {
        if (!(max instanceof StringData)) {
            return max;
        }
        String value = max.toString();
        if (value.codePointCount(0, value.length()) <= length) {
            return max;
        }
        StringBuilder prefix =
                new StringBuilder(value.substring(0, value.offsetByCodePoints(0, length)));
        for (int i = length - 1; i >= 0; i--) {
            int offset = prefix.offsetByCodePoints(0, i);
            int next = prefix.codePointAt(offset) + 1;
            if (Character.isValidCodePoint(next)) {
                prefix.setLength(offset);
                prefix.appendCodePoint(next);
                return StringData.fromString(prefix.toString());
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return kind == Kind.TRUNCATE
                ? "truncate(" + length + ")"
                : kind.name().toLowerCase(Locale.ROOT);
    }
}
