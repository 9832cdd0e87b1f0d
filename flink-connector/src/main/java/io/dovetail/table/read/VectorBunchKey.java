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

import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongFunction;

/**
 * What makes vector-store files one bunch, and the order of a group's bunches, as Apache Paimon
 * reads them: the file's schema id, its format, and its {@code writeCols} in the order of that
 * schema's columns; bunches compare by schema id, then format, then the column names one by one (a
 * list that is a prefix of another first). The first bunch in this order that holds a column
 * provides it, whichever was written last: so an update of a VECTOR column writes into the bunch
 * that provides it, and both engines read what was written.
 */
public record VectorBunchKey(long schemaId, String format, List<String> writeCols)
        implements Comparable<VectorBunchKey> {

    public VectorBunchKey {
        writeCols = List.copyOf(writeCols);
    }

    /** The key of vector-store file {@code file}, whose columns {@code schemas} resolves. */
    public static VectorBunchKey of(DataFileMeta file, LongFunction<TableSchema> schemas) {
        TableSchema schema = schemas.apply(file.schemaId());
        List<String> names =
                new ArrayList<>(file.writeCols() == null ? List.of() : file.writeCols());
        List<String> order = schema.fields().stream().map(DataField::name).toList();
        names.sort(
                Comparator.comparingInt(
                                (String name) ->
                                        order.contains(name)
                                                ? order.indexOf(name)
                                                : Integer.MAX_VALUE)
                        .thenComparing(Comparator.naturalOrder()));
        return new VectorBunchKey(
                file.schemaId(), DataFileKinds.vectorStoreFormat(file.fileName()), names);
    }

    @Override
    public int compareTo(VectorBunchKey other) {
        int c = Long.compare(schemaId, other.schemaId);
        if (c != 0) {
            return c;
        }
        c = format.compareTo(other.format);
        if (c != 0) {
            return c;
        }
        for (int i = 0; i < Math.min(writeCols.size(), other.writeCols.size()); i++) {
            c = writeCols.get(i).compareTo(other.writeCols.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(writeCols.size(), other.writeCols.size());
    }
}
