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
package io.dovetail.table.schema;

import java.util.Objects;

/** Where an added or moved column goes: first, last, or right after another column. */
public sealed interface ColumnPosition {

    static ColumnPosition first() {
        return new First();
    }

    static ColumnPosition last() {
        return new Last();
    }

    static ColumnPosition after(String column) {
        return new After(column);
    }

    /** Before every other column. */
    record First() implements ColumnPosition {}

    /** After every other column. */
    record Last() implements ColumnPosition {}

    /** Directly after {@code column}. */
    record After(String column) implements ColumnPosition {
        public After {
            Objects.requireNonNull(column, "column");
        }
    }
}
