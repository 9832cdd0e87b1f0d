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

/** MAP from a key type to a value type. */
public record MapType(boolean nullable, DataType key, DataType value) implements DataType {

    public MapType {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    @Override
    public TypeRoot root() {
        return TypeRoot.MAP;
    }

    @Override
    public MapType withNullable(boolean newNullable) {
        return new MapType(newNullable, key, value);
    }

    @Override
    public String asSqlString() {
        return DataType.withNullability(
                "MAP<" + key.asSqlString() + ", " + value.asSqlString() + ">", nullable);
    }

    @Override
    public String toString() {
        return asSqlString();
    }
}
