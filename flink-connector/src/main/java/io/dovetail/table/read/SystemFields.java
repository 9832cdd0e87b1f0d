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
package io.dovetail.table.read;

import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

/** The row-tracking columns a read may request next to the table columns. */
public final class SystemFields {

    /** Reserved field id of {@code _ROW_ID} ({@code Integer.MAX_VALUE - 5}). */
    public static final int ROW_ID_FIELD_ID = Integer.MAX_VALUE - 5;

    /** Reserved field id of {@code _SEQUENCE_NUMBER} ({@code Integer.MAX_VALUE - 1}). */
    public static final int SEQUENCE_NUMBER_FIELD_ID = Integer.MAX_VALUE - 1;

    public static final DataField ROW_ID =
            new DataField(ROW_ID_FIELD_ID, "_ROW_ID", DataTypes.BIGINT().withNullable(false));

    public static final DataField SEQUENCE_NUMBER =
            new DataField(
                    SEQUENCE_NUMBER_FIELD_ID,
                    "_SEQUENCE_NUMBER",
                    DataTypes.BIGINT().withNullable(false));

    private SystemFields() {}

    public static boolean isSystemName(String name) {
        return ROW_ID.name().equals(name) || SEQUENCE_NUMBER.name().equals(name);
    }
}
