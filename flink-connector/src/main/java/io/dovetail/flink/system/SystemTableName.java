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

import javax.annotation.Nullable;

/**
 * A table name as queries spell it: {@code t} or a system table of it, {@code t$row_tracking}
 * (Paimon's naming). {@code system} is null for the table itself.
 */
public record SystemTableName(String table, @Nullable String system) {

    public static final char SEPARATOR = '$';

    /** All columns of the table, then {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}. */
    public static final String ROW_TRACKING = "row_tracking";

    /** A sink only: {@code _ROW_ID} and every column of the table, for column updates by row id. */
    public static final String COLUMN_UPDATES = "column_updates";

    public static SystemTableName parse(String objectName) {
        int separator = objectName.indexOf(SEPARATOR);
        return separator < 0
                ? new SystemTableName(objectName, null)
                : new SystemTableName(
                        objectName.substring(0, separator), objectName.substring(separator + 1));
    }

    public boolean isSystemTable() {
        return system != null;
    }
}
