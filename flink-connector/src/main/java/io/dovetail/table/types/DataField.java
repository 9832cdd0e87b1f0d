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
package io.dovetail.table.types;

import java.util.Objects;

/**
 * A named column or ROW member with its table-unique field id.
 *
 * @param id the field id; assigned once, never reused (see {@link FieldIds})
 * @param description the column comment, or null
 * @param defaultValue the SQL literal text of the column default, or null
 */
public record DataField(
        int id, String name, DataType type, String description, String defaultValue) {

    public DataField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }

    public DataField(int id, String name, DataType type) {
        this(id, name, type, null, null);
    }

    public DataField withId(int newId) {
        return new DataField(newId, name, type, description, defaultValue);
    }

    public DataField withName(String newName) {
        return new DataField(id, newName, type, description, defaultValue);
    }

    public DataField withType(DataType newType) {
        return new DataField(id, name, newType, description, defaultValue);
    }

    public DataField withDescription(String newDescription) {
        return new DataField(id, name, type, newDescription, defaultValue);
    }

    @Override
    public String toString() {
        return name + " " + type.asSqlString() + " (id " + id + ")";
    }
}
