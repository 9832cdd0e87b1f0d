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
package io.dovetail.e2e.random;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of generated rows, a function of the key {@code k} and a salt, written both as a SQL
 * expression over {@code k} (what an INSERT selects from a sequence of keys) and computed in Java
 * (what the model stores). Small domains with NULLs, so that conditions match some rows.
 */
record Generated(long salt) {

    /** Partition values: a, b, c, and NULL (stored in the default partition). */
    static final List<String> PARTITIONS = java.util.Arrays.asList("a", "b", "c", null);

    private long a(Field f) {
        return 1 + Math.floorMod(salt * 31 + f.id() * 17L, 89);
    }

    private long b(Field f) {
        return Math.floorMod(salt * 7 + f.id() * 13L, 101);
    }

    private long nullModulus(Field f) {
        return 4 + Math.floorMod(salt + f.id(), 6);
    }

    private long nullResidue(Field f) {
        return Math.floorMod(salt * 3 + f.id(), nullModulus(f));
    }

    private static long domain(ModelType.Scalar type) {
        return type == ModelType.Scalar.STRING ? 20 : 100;
    }

    /** The SQL expression of {@code f}'s value for key {@code k}. */
    String sql(Field f, boolean partitioned) {
        if (f.name().equals(ModelSchema.KEY)) {
            return "k";
        }
        String mix = "MOD(k * " + a(f) + " + " + b(f) + ", ";
        if (partitioned && f.name().equals(ModelSchema.PARTITION)) {
            return "CASE WHEN "
                    + mix
                    + "7) < 2 THEN 'a' WHEN "
                    + mix
                    + "7) < 4 THEN 'b' WHEN "
                    + mix
                    + "7) < 6 THEN 'c' ELSE CAST(NULL AS STRING) END";
        }
        if (f.type() instanceof ModelType.RowOf row) {
            List<String> fields = new ArrayList<>();
            for (Field nested : row.fields()) {
                fields.add(sql(nested, false));
            }
            return "CAST(ROW(" + String.join(", ", fields) + ") AS " + row.sql() + ")";
        }
        ModelType.Scalar type = (ModelType.Scalar) f.type();
        String value =
                type == ModelType.Scalar.STRING
                        ? "CONCAT('v', CAST(" + mix + domain(type) + ") AS STRING))"
                        : "CAST(" + mix + domain(type) + ") AS " + type.sql() + ")";
        return "CASE WHEN MOD(k * "
                + (a(f) + 2)
                + " + "
                + b(f)
                + ", "
                + nullModulus(f)
                + ") = "
                + nullResidue(f)
                + " THEN CAST(NULL AS "
                + type.sql()
                + ") ELSE "
                + value
                + " END";
    }

    /** The stored value of {@code f} for key {@code k}. */
    Object value(Field f, long k, boolean partitioned) {
        if (f.name().equals(ModelSchema.KEY)) {
            return k;
        }
        long mix7 = (k * a(f) + b(f)) % 7;
        if (partitioned && f.name().equals(ModelSchema.PARTITION)) {
            return mix7 < 2 ? "a" : mix7 < 4 ? "b" : mix7 < 6 ? "c" : null;
        }
        if (f.type() instanceof ModelType.RowOf row) {
            Map<Integer, Object> byId = new HashMap<>();
            for (Field nested : row.fields()) {
                byId.put(nested.id(), value(nested, k, false));
            }
            return java.util.Collections.unmodifiableMap(byId);
        }
        ModelType.Scalar type = (ModelType.Scalar) f.type();
        if ((k * (a(f) + 2) + b(f)) % nullModulus(f) == nullResidue(f)) {
            return null;
        }
        long v = (k * a(f) + b(f)) % domain(type);
        return type == ModelType.Scalar.STRING ? "v" + v : (Object) v;
    }

    /** A whole generated row, stored values by field id. */
    Map<Integer, Object> row(ModelSchema schema, long k) {
        Map<Integer, Object> values = new HashMap<>();
        for (Field f : schema.columns()) {
            values.put(f.id(), value(f, k, schema.partitioned()));
        }
        return values;
    }

    /** The SELECT list producing {@code columns} from {@code k}, in their order. */
    String selectList(ModelSchema schema, List<Field> columns) {
        List<String> out = new ArrayList<>();
        for (Field f : columns) {
            out.add(sql(f, schema.partitioned()));
        }
        return String.join(", ", out);
    }
}
