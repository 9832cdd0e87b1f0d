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
package io.dovetail.table.read;

import io.dovetail.table.error.Errors;
import io.dovetail.table.schema.TypeChangeRules;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.TypeRoot;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;

/**
 * Casts of single values from a file's stored column type to the read type, for the type changes of
 * {@link TypeChangeRules} (seed 002 matrix), with Java semantics: narrowing integers keep the
 * low-order bits, floating to integer clamps to the int (long for BIGINT) range then narrows, NaN
 * becomes 0, integers to TIMESTAMP are epoch seconds, out-of-range DECIMAL results are NULL,
 * strings are truncated (VARCHAR) or padded (CHAR) to the target length. Values use Flink's
 * internal representations (StringData, DecimalData, TimestampData, days for DATE).
 */
final class ValueCasts {

    private ValueCasts() {}

    /** The cast of non-null values of {@code from} to {@code to}; a result may be null. */
    static Function<Object, Object> of(AtomicType from, AtomicType to, String column) {
        if (!TypeChangeRules.isAllowed(from, to)) {
            throw Errors.unsupported(
                    "reading column '"
                            + column
                            + "' stored as "
                            + from.asSqlString()
                            + " as "
                            + to.asSqlString(),
                    "This type change has no cast; the file was written by an incompatible"
                            + " writer");
        }
        Function<Object, Object> toCanonical = canonical(from);
        Function<Object, Object> fromCanonical = target(from, to, column);
        return v -> fromCanonical.apply(toCanonical.apply(v));
    }

    /** Source values as Number (integers, floats), BigDecimal, Boolean, String, byte[], dates... */
    private static Function<Object, Object> canonical(AtomicType from) {
        switch (from.root()) {
            case DECIMAL:
                return v -> ((DecimalData) v).toBigDecimal();
            case CHAR:
            case VARCHAR:
                return Object::toString;
            case TIMESTAMP:
                return v -> ((TimestampData) v).toLocalDateTime();
            case DATE:
                return v -> LocalDate.ofEpochDay((Integer) v);
            default:
                return v -> v;
        }
    }

    private static Function<Object, Object> target(AtomicType from, AtomicType to, String column) {
        TypeRoot f = from.root();
        switch (to.root()) {
            case TINYINT:
                return v -> (byte) integral(v, false, column);
            case SMALLINT:
                return v -> (short) integral(v, false, column);
            case INT:
                return v -> (int) integral(v, false, column);
            case BIGINT:
                return v -> integral(v, true, column);
            case FLOAT:
                return v -> (float) floating(v, column);
            case DOUBLE:
                return v -> floating(v, column);
            case BOOLEAN:
                return v -> bool(v, column);
            case DECIMAL:
                return v -> decimal(v, to, column);
            case CHAR:
            case VARCHAR:
                return v -> StringData.fromString(fit(string(v, from), to));
            case BINARY:
            case VARBINARY:
                return v -> binary(v, to);
            case DATE:
                return v -> (int) date(v, column).toEpochDay();
            case TIMESTAMP:
                return v -> timestamp(v, f, to.precision(), column);
            default:
                throw Errors.unsupported(
                        "casting column '" + column + "' to " + to.asSqlString(), null);
        }
    }

    /** Integers keep their bits; floating values clamp to int (or long) range first. */
    private static long integral(Object v, boolean toBigint, String column) {
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (v instanceof BigDecimal d) {
            return d.longValue();
        }
        if (v instanceof LocalDateTime t) {
            return Math.floorDiv(TimestampData.fromLocalDateTime(t).getMillisecond(), 1000L);
        }
        if (v instanceof String s) {
            try {
                return new BigDecimal(s.trim()).longValue();
            } catch (NumberFormatException e) {
                throw badValue(s, "a number", column);
            }
        }
        Number n = (Number) v;
        if (v instanceof Float || v instanceof Double) {
            return toBigint ? (long) n.doubleValue() : (int) n.doubleValue();
        }
        return n.longValue();
    }

    private static double floating(Object v, String column) {
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (v instanceof BigDecimal d) {
            return d.doubleValue();
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                throw badValue(s, "a number", column);
            }
        }
        return ((Number) v).doubleValue();
    }

    private static boolean bool(Object v, String column) {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof String s) {
            switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "true":
                case "t":
                case "yes":
                case "y":
                case "1":
                    return true;
                case "false":
                case "f":
                case "no":
                case "n":
                case "0":
                    return false;
                default:
                    throw badValue(s, "a boolean", column);
            }
        }
        if (v instanceof Float || v instanceof Double) {
            return ((Number) v).doubleValue() != 0;
        }
        return ((Number) v).longValue() != 0;
    }

    private static DecimalData decimal(Object v, AtomicType to, String column) {
        BigDecimal value;
        if (v instanceof BigDecimal d) {
            value = d;
        } else if (v instanceof Boolean b) {
            value = b ? BigDecimal.ONE : BigDecimal.ZERO;
        } else if (v instanceof String s) {
            try {
                value = new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                throw badValue(s, "a decimal", column);
            }
        } else if (v instanceof Float || v instanceof Double) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return null;
            }
            value = BigDecimal.valueOf(d);
        } else {
            value = BigDecimal.valueOf(((Number) v).longValue());
        }
        return DecimalData.fromBigDecimal(value, to.precision(), to.scale());
    }

    private static String string(Object v, AtomicType from) {
        if (v instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof LocalDateTime t) {
            return formatTimestamp(t, from.precision());
        }
        return v.toString();
    }

    /** {@code yyyy-MM-dd HH:mm:ss} plus exactly {@code precision} fractional digits. */
    private static String formatTimestamp(LocalDateTime t, int precision) {
        String text =
                String.format(
                        Locale.ROOT,
                        "%04d-%02d-%02d %02d:%02d:%02d",
                        t.getYear(),
                        t.getMonthValue(),
                        t.getDayOfMonth(),
                        t.getHour(),
                        t.getMinute(),
                        t.getSecond());
        if (precision == 0) {
            return text;
        }
        return text + "." + String.format(Locale.ROOT, "%09d", t.getNano()).substring(0, precision);
    }

    private static String fit(String s, AtomicType to) {
        int length = to.length();
        if (s.length() > length) {
            return s.substring(0, length);
        }
        if (to.root() == TypeRoot.CHAR && s.length() < length) {
            return s + " ".repeat(length - s.length());
        }
        return s;
    }

    private static byte[] binary(Object v, AtomicType to) {
        byte[] bytes = v instanceof byte[] b ? b : v.toString().getBytes(StandardCharsets.UTF_8);
        int length = to.length();
        if (bytes.length > length || (to.root() == TypeRoot.BINARY && bytes.length < length)) {
            return Arrays.copyOf(bytes, length);
        }
        return bytes;
    }

    private static LocalDate date(Object v, String column) {
        if (v instanceof LocalDate d) {
            return d;
        }
        if (v instanceof LocalDateTime t) {
            return t.toLocalDate();
        }
        String s = v.toString().trim();
        try {
            return s.length() <= 10 ? LocalDate.parse(s) : parseTimestamp(s).toLocalDate();
        } catch (DateTimeParseException e) {
            throw badValue(s, "a date", column);
        }
    }

    private static TimestampData timestamp(Object v, TypeRoot from, int precision, String column) {
        LocalDateTime t;
        if (v instanceof LocalDateTime ldt) {
            t = ldt;
        } else if (v instanceof LocalDate d) {
            t = d.atStartOfDay();
        } else if (from == TypeRoot.INT || from == TypeRoot.BIGINT) {
            return TimestampData.fromEpochMillis(((Number) v).longValue() * 1000L);
        } else {
            String s = v.toString().trim();
            try {
                t = s.length() <= 10 ? LocalDate.parse(s).atStartOfDay() : parseTimestamp(s);
            } catch (DateTimeParseException e) {
                throw badValue(s, "a timestamp", column);
            }
        }
        int nanos = t.getNano();
        int unit = (int) Math.pow(10, 9 - precision);
        return TimestampData.fromLocalDateTime(t.withNano(nanos - nanos % unit));
    }

    private static LocalDateTime parseTimestamp(String s) {
        return LocalDateTime.parse(s.replace(' ', 'T'));
    }

    private static RuntimeException badValue(String value, String what, String column) {
        return Errors.invalidArgument(
                "Cannot read value '"
                        + value
                        + "' of column '"
                        + column
                        + "' as "
                        + what
                        + ": an older data file stores it as text and the column's type was"
                        + " changed since. Change the column back to a string type to read it.");
    }
}
