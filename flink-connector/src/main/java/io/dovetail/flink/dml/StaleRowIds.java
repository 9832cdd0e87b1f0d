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
package io.dovetail.flink.dml;

import io.dovetail.table.error.Errors;

import java.util.Locale;

/** What a merge does with a source {@code _ROW_ID} that is in no live row range of its base. */
public enum StaleRowIds {
    /** Fail the merge, committing nothing (the default). */
    ERROR,
    /** Drop the row and count it. */
    SKIP;

    /** Parses {@code 'error'} or {@code 'skip'} (any case); null is {@link #ERROR}. */
    public static StaleRowIds parse(String value) {
        if (value == null || value.isBlank()) {
            return ERROR;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw Errors.invalidArgument(
                    "on_stale_row_id must be 'error' or 'skip', got '" + value + "'.");
        }
    }
}
