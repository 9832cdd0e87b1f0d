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
package io.dovetail.table.stats;

import javax.annotation.Nullable;

/**
 * Statistics of one column: minimum and maximum as Flink internal values ({@code StringData},
 * {@code DecimalData}, {@code TimestampData}, {@code byte[]}, boxed primitives), each null when
 * unknown, and the null count, null when unknown.
 */
public record ColumnStats(@Nullable Object min, @Nullable Object max, @Nullable Long nullCount) {

    /** No statistics at all (Paimon's stats mode {@code none}). */
    public static final ColumnStats NONE = new ColumnStats(null, null, null);
}
