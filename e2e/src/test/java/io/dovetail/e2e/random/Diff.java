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

/** The rows one sorted list has and the other lacks, shortened for a report. */
final class Diff {

    private static final int SHOWN = 12;

    private Diff() {}

    static String of(List<String> expected, List<String> actual) {
        List<String> missing = minus(expected, actual);
        List<String> unexpected = minus(actual, expected);
        return "  model rows missing from the table ("
                + missing.size()
                + "):"
                + lines(missing)
                + "\n  table rows not in the model ("
                + unexpected.size()
                + "):"
                + lines(unexpected);
    }

    /** {@code a} without the rows of {@code b}, counting duplicates. */
    private static List<String> minus(List<String> a, List<String> b) {
        Map<String, Integer> counts = new HashMap<>();
        for (String row : b) {
            counts.merge(row, 1, Integer::sum);
        }
        List<String> out = new ArrayList<>();
        for (String row : a) {
            if (counts.merge(row, -1, Integer::sum) < 0) {
                out.add(row);
            }
        }
        return out;
    }

    private static String lines(List<String> rows) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(SHOWN, rows.size()); i++) {
            sb.append("\n    ").append(rows.get(i));
        }
        if (rows.size() > SHOWN) {
            sb.append("\n    ...");
        }
        return sb.toString();
    }
}
