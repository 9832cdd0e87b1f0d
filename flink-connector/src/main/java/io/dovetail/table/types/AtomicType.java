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

import io.dovetail.table.types.TypeRoot.Parameter;

/**
 * Every non-composite type: BOOLEAN, the integer and floating types, DECIMAL(p, s), CHAR(n),
 * VARCHAR(n), BINARY(n), VARBINARY(n), DATE, TIME(p), TIMESTAMP(p), TIMESTAMP(p) WITH LOCAL TIME
 * ZONE, VARIANT and BLOB.
 *
 * @param precision the length of CHAR/VARCHAR/BINARY/VARBINARY, the fractional-second precision of
 *     TIME/TIMESTAMP/TIMESTAMP_LTZ, the digits of DECIMAL; 0 for types without a parameter
 * @param scale the scale of DECIMAL; 0 for every other type
 */
public record AtomicType(TypeRoot root, int precision, int scale, boolean nullable)
        implements DataType {

    public static final int MAX_LENGTH = Integer.MAX_VALUE;
    public static final int MAX_DECIMAL_PRECISION = 38;
    public static final int MAX_TIME_PRECISION = 9;

    public AtomicType {
        if (root == null || root.isComposite()) {
            throw new IllegalArgumentException("Not an atomic type root: " + root);
        }
        String problem = rangeProblem(root, precision, scale);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /**
     * Why the parameters are out of range for the root, or null when they are valid. The one home
     * of the ranges, used by the constructor and by the parsers for their error messages.
     */
    static String rangeProblem(TypeRoot root, int precision, int scale) {
        switch (root.parameter()) {
            case LENGTH:
                return precision >= 1 && scale == 0
                        ? null
                        : root
                                + " length must be between 1 and "
                                + MAX_LENGTH
                                + ", was "
                                + precision;
            case PRECISION:
                return precision >= 0 && precision <= MAX_TIME_PRECISION && scale == 0
                        ? null
                        : root
                                + " precision must be between 0 and "
                                + MAX_TIME_PRECISION
                                + ", was "
                                + precision;
            case PRECISION_AND_SCALE:
                if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
                    return "DECIMAL precision must be between 1 and "
                            + MAX_DECIMAL_PRECISION
                            + ", was "
                            + precision;
                }
                return scale >= 0 && scale <= precision
                        ? null
                        : "DECIMAL scale must be between 0 and the precision "
                                + precision
                                + ", was "
                                + scale;
            default:
                return precision == 0 && scale == 0 ? null : root + " takes no parameters";
        }
    }

    /** The length of CHAR/VARCHAR/BINARY/VARBINARY (same value as {@link #precision()}). */
    public int length() {
        return precision;
    }

    @Override
    public AtomicType withNullable(boolean newNullable) {
        return new AtomicType(root, precision, scale, newNullable);
    }

    /**
     * The exact JSON string Paimon writes for this type, e.g. {@code "DECIMAL(10, 2) NOT NULL"}.
     */
    @Override
    public String asSqlString() {
        return DataType.withNullability(spellingWithoutNullability(), nullable);
    }

    private String spellingWithoutNullability() {
        switch (root) {
            case VARCHAR:
                return precision == MAX_LENGTH ? "STRING" : "VARCHAR(" + precision + ")";
            case VARBINARY:
                return precision == MAX_LENGTH ? "BYTES" : "VARBINARY(" + precision + ")";
            case DECIMAL:
                return "DECIMAL(" + precision + ", " + scale + ")";
            case TIMESTAMP_LTZ:
                return "TIMESTAMP(" + precision + ") WITH LOCAL TIME ZONE";
            default:
                return root.parameter() == Parameter.NONE
                        ? root.keyword()
                        : root.keyword() + "(" + precision + ")";
        }
    }

    @Override
    public String toString() {
        return asSqlString();
    }
}
