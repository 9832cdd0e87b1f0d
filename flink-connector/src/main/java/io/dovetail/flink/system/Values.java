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
package io.dovetail.flink.system;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import javax.annotation.Nullable;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;

/** Flink internal values of the metadata shown by system tables. */
final class Values {

    private Values() {}

    @Nullable
    static StringData string(@Nullable Object value) {
        return value == null ? null : StringData.fromString(value.toString());
    }

    @Nullable
    static ArrayData strings(@Nullable List<String> values) {
        return values == null
                ? null
                : new GenericArrayData(values.stream().map(StringData::fromString).toArray());
    }

    /** An epoch-millisecond instant as the local wall-clock time of this JVM (Paimon's view). */
    static TimestampData localTime(long epochMillis) {
        return TimestampData.fromLocalDateTime(
                LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneId.systemDefault()));
    }
}
