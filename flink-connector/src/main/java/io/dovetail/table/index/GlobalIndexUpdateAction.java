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
package io.dovetail.table.index;

import io.dovetail.table.error.Errors;
import io.dovetail.table.schema.TableOptions;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * Table option {@code global-index.column-update-action} (Paimon's key and values): what a write
 * that changes a column covered by a global index of an affected partition does. The index would
 * otherwise keep the old values and an indexed read would miss the changed rows.
 */
public enum GlobalIndexUpdateAction {
    /** Refuse the write before it commits (the default, as in Paimon). */
    THROW_ERROR,
    /** Drop the affected partitions' index files of those columns in the same commit. */
    DROP_PARTITION_INDEX,
    /** Keep the index files as they are: indexed reads may miss the changed rows. */
    IGNORE;

    public static GlobalIndexUpdateAction of(Map<String, String> options) {
        String value = options.get(TableOptions.GLOBAL_INDEX_COLUMN_UPDATE_ACTION);
        if (value == null) {
            return THROW_ERROR;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw Errors.invalidArgument(
                    "Option '"
                            + TableOptions.GLOBAL_INDEX_COLUMN_UPDATE_ACTION
                            + "' must be one of "
                            + Arrays.toString(values())
                            + ", got '"
                            + value
                            + "'.");
        }
    }
}
