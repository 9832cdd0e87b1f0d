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
package io.dovetail.table.manifest;

import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

import java.util.List;

/**
 * Building blocks for the Avro schemas of manifest-type files, following Paimon's conventions: the
 * top record is {@code record} in namespace {@code org.apache.paimon.avro.generated}, nested
 * records are named after their path ({@code record__FILE}), nullable types are {@code ["null", T]}
 * unions with default null.
 */
public final class AvroSchemas {

    public static final String NAMESPACE = "org.apache.paimon.avro.generated";
    public static final String TOP_RECORD = "record";

    public static final Schema INT = Schema.create(Schema.Type.INT);
    public static final Schema LONG = Schema.create(Schema.Type.LONG);
    public static final Schema STRING = Schema.create(Schema.Type.STRING);
    public static final Schema BYTES = Schema.create(Schema.Type.BYTES);

    private AvroSchemas() {}

    /** A record named {@code name}; all records share Paimon's namespace. */
    public static Schema record(String name, Schema.Field... fields) {
        return Schema.createRecord(name, null, NAMESPACE, false, List.of(fields));
    }

    /** The name of a record nested in field {@code field} of record {@code parent}. */
    public static String nestedName(String parent, String field) {
        return parent + "_" + field;
    }

    /** A NOT NULL field: plain type, no default. */
    public static Schema.Field required(String name, Schema type) {
        return new Schema.Field(name, type);
    }

    /** A nullable field: {@code ["null", type]} with default null. */
    public static Schema.Field optional(String name, Schema type) {
        return new Schema.Field(name, nullable(type), null, Schema.Field.NULL_DEFAULT_VALUE);
    }

    public static Schema nullable(Schema type) {
        return Schema.createUnion(Schema.create(Schema.Type.NULL), type);
    }

    public static Schema arrayOf(Schema items) {
        return Schema.createArray(items);
    }

    /** {@code long} annotated as {@code timestamp-millis}, which Paimon's reader requires. */
    public static Schema timestampMillis() {
        return LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
    }
}
