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
package io.dovetail.table.format.vector;

import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.VectorType;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;

import java.util.List;

/**
 * The Avro schema of a vector-store file, as Apache Paimon 1.4.2 writes it (measured on its files):
 * the datum is {@code ["null", record]} of a record named {@code record} in namespace {@code
 * org.apache.paimon.avro.generated}, one field per VECTOR column by name; a VECTOR is an Avro
 * {@code array} of its element type ({@code int} for TINYINT, SMALLINT and INT, {@code long},
 * {@code float}, {@code double}, {@code boolean}); a nullable type is {@code ["null", T]} and a
 * nullable field defaults to null.
 */
final class AvroVectorSchema {

    private static final String RECORD = "record";
    private static final String NAMESPACE = "org.apache.paimon.avro.generated";

    private AvroVectorSchema() {}

    static Schema of(List<DataField> columns) {
        SchemaBuilder.FieldAssembler<Schema> fields =
                SchemaBuilder.record(RECORD).namespace(NAMESPACE).fields();
        for (DataField column : columns) {
            VectorType vector = (VectorType) column.type();
            Schema array =
                    nullable(
                            SchemaBuilder.array().items(element(vector.element())),
                            vector.nullable());
            SchemaBuilder.GenericDefault<Schema> field = fields.name(column.name()).type(array);
            fields = vector.nullable() ? field.withDefault(null) : field.noDefault();
        }
        return Schema.createUnion(Schema.create(Schema.Type.NULL), fields.endRecord());
    }

    private static Schema element(DataType type) {
        Schema.Type avro;
        switch (type.root()) {
            case BOOLEAN:
                avro = Schema.Type.BOOLEAN;
                break;
            case BIGINT:
                avro = Schema.Type.LONG;
                break;
            case FLOAT:
                avro = Schema.Type.FLOAT;
                break;
            case DOUBLE:
                avro = Schema.Type.DOUBLE;
                break;
            default: // TINYINT, SMALLINT, INT
                avro = Schema.Type.INT;
        }
        return nullable(Schema.create(avro), type.nullable());
    }

    private static Schema nullable(Schema schema, boolean nullable) {
        return nullable ? Schema.createUnion(Schema.create(Schema.Type.NULL), schema) : schema;
    }
}
