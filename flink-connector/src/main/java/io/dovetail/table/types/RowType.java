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

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** ROW: an ordered list of named fields, each with its own field id. */
public record RowType(boolean nullable, List<DataField> fields) implements DataType {

    public RowType {
        fields = List.copyOf(fields);
    }

    @Override
    public TypeRoot root() {
        return TypeRoot.ROW;
    }

    @Override
    public RowType withNullable(boolean newNullable) {
        return new RowType(newNullable, fields);
    }

    public Optional<DataField> field(String name) {
        return fields.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    @Override
    public String asSqlString() {
        return DataType.withNullability(
                fields.stream()
                        .map(f -> f.name() + " " + f.type().asSqlString())
                        .collect(Collectors.joining(", ", "ROW<", ">")),
                nullable);
    }

    @Override
    public String toString() {
        return asSqlString();
    }
}
