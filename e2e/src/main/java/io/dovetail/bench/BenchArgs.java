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
package io.dovetail.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} options of a benchmark, with defaults; unknown options are an error. */
final class BenchArgs {

    private final Map<String, String> values = new HashMap<>();

    BenchArgs(List<String> args, List<String> known) {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--") || i + 1 >= args.size()) {
                throw new IllegalArgumentException("expected --name value, got '" + arg + "'");
            }
            String name = arg.substring(2);
            if (!known.contains(name)) {
                throw new IllegalArgumentException(
                        "unknown option --" + name + "; known: " + known);
            }
            values.put(name, args.get(++i));
        }
    }

    int intValue(String name, int defaultValue) {
        String value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        int parsed = Integer.parseInt(value.replace("_", ""));
        if (parsed <= 0) {
            throw new IllegalArgumentException("--" + name + " must be positive, got " + value);
        }
        return parsed;
    }
}
