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
package io.dovetail.table.update;

import io.dovetail.table.schema.DataEvolutionTableValidator;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.TypeRoot;

import java.util.List;

/**
 * The VECTOR columns an update must read besides the ones it assigns: a vector-store file holds a
 * fixed set of columns, so a new version of one VECTOR column over a range carries the current
 * values of the other columns of the file it replaces ({@link GroupBackfill}). None when no VECTOR
 * column is assigned.
 */
final class VectorCopies {

    private VectorCopies() {}

    /**
     * The VECTOR columns of {@code schema} not in {@code columns}, if any of {@code columns} is.
     */
    static List<String> of(TableSchema schema, List<String> columns) {
        List<DataField> vectors =
                schema.fields().stream()
                        .filter(f -> f.type().root() == TypeRoot.VECTOR)
                        .filter(f -> DataEvolutionTableValidator.isDedicatedColumn(schema, f))
                        .toList();
        boolean assigned = vectors.stream().anyMatch(f -> columns.contains(f.name()));
        return assigned
                ? vectors.stream()
                        .map(DataField::name)
                        .filter(name -> !columns.contains(name))
                        .toList()
                : List.of();
    }
}
