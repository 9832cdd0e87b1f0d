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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Measured wall times by phase and engine, warm-up runs left out; medians in milliseconds. */
final class Timings {

    private final Map<String, List<Long>> nanos = new LinkedHashMap<>();

    void add(String phase, String engine, long elapsedNanos) {
        nanos.computeIfAbsent(phase + "/" + engine, k -> new ArrayList<>()).add(elapsedNanos);
    }

    double medianMs(String phase, String engine) {
        List<Long> values = nanos.get(phase + "/" + engine);
        if (values == null) {
            throw new IllegalStateException("no measurement of " + phase + " by " + engine);
        }
        return BenchSupport.median(values) / 1e6;
    }
}
