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

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.dovetail.table.types.DataTypes.ARRAY;
import static io.dovetail.table.types.DataTypes.BLOB;
import static io.dovetail.table.types.DataTypes.FLOAT;
import static io.dovetail.table.types.DataTypes.INT;
import static io.dovetail.table.types.DataTypes.MAP;
import static io.dovetail.table.types.DataTypes.STRING;
import static io.dovetail.table.types.DataTypes.VECTOR;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataEvolutionTableValidatorTest {

    private static Map<String, String> options(String... extra) {
        Map<String, String> options = new LinkedHashMap<>(SchemaEvolutionTest.DE_OPTIONS);
        for (int i = 0; i < extra.length; i += 2) {
            if (extra[i + 1] == null) {
                options.remove(extra[i]);
            } else {
                options.put(extra[i], extra[i + 1]);
            }
        }
        return options;
    }

    private static TableSchema schema(
            List<String> partitionKeys,
            List<String> primaryKeys,
            Map<String, String> options,
            DataType... types) {
        DataField[] fields = new DataField[types.length];
        for (int i = 0; i < types.length; i++) {
            fields[i] = new DataField(i, "c" + i, types[i]);
        }
        return TableSchema.initial(List.of(fields), partitionKeys, primaryKeys, options, null, 0);
    }

    private static void assertInvalid(TableSchema schema, String message) {
        assertThatThrownBy(() -> DataEvolutionTableValidator.validate(schema))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(message);
    }

    private static void assertValid(TableSchema schema) {
        assertThatCode(() -> DataEvolutionTableValidator.validate(schema))
                .doesNotThrowAnyException();
    }

    @Test
    void minimalTableIsValid() {
        assertValid(schema(List.of(), List.of(), options(), INT()));
        assertValid(
                schema(
                        List.of(),
                        List.of(),
                        options("bucket", "-1", "row-tracking.enabled", "TRUE"),
                        INT()));
    }

    @Test
    void bothFlagsAreRequired() {
        assertInvalid(
                schema(List.of(), List.of(), options("row-tracking.enabled", null), INT()),
                "needs option 'row-tracking.enabled' = 'true', but it is absent");
        assertInvalid(
                schema(List.of(), List.of(), options("data-evolution.enabled", "false"), INT()),
                "needs option 'data-evolution.enabled' = 'true', but it is 'false'");
    }

    @Test
    void primaryKeysBucketsAndClusteringAreForbidden() {
        assertInvalid(
                schema(List.of(), List.of("c0"), options(), INT().withNullable(false)),
                "cannot have a primary key (declared: [c0])");
        assertInvalid(
                schema(List.of(), List.of(), options("bucket", "4"), INT()),
                "option 'bucket' is '4'");
        assertInvalid(
                schema(List.of(), List.of(), options("clustering.incremental", "true"), INT()),
                "clustering.incremental");
    }

    @Test
    void deletionVectorsAreAllowed() {
        assertValid(
                schema(List.of(), List.of(), options("deletion-vectors.enabled", "true"), INT()));
    }

    @Test
    void reservedNamesAndEmptyTables() {
        assertInvalid(
                TableSchema.initial(
                        List.of(new DataField(0, "_ROW_ID", INT())),
                        List.of(),
                        List.of(),
                        options(),
                        null,
                        0),
                "Column name '_ROW_ID' is reserved");
        assertInvalid(
                TableSchema.initial(
                        List.of(new DataField(0, "_SEQUENCE_NUMBER", INT())),
                        List.of(),
                        List.of(),
                        options(),
                        null,
                        0),
                "'_SEQUENCE_NUMBER' is reserved");
        assertInvalid(schema(List.of(), List.of(), options()), "at least one column");
    }

    @Test
    void blobRules() {
        assertValid(schema(List.of("c0"), List.of(), options(), STRING(), BLOB()));
        assertInvalid(
                schema(List.of(), List.of(), options(), BLOB()),
                "needs at least one non-BLOB column");
        assertInvalid(
                schema(List.of(), List.of(), options(), ARRAY(BLOB()), MAP(STRING(), BLOB())),
                "needs at least one non-BLOB column");
        assertInvalid(
                schema(List.of("c1"), List.of(), options(), STRING(), BLOB()),
                "BLOB column 'c1' cannot be a partition key");
    }

    @Test
    void vectorStoreColumnsAreNotPartitionKeys() {
        assertValid(
                schema(
                        List.of(),
                        List.of(),
                        options("vector.file.format", "avro"),
                        STRING(),
                        VECTOR(FLOAT(), 4)));
        assertInvalid(
                schema(
                        List.of("c1"),
                        List.of(),
                        options("vector.file.format", "lance"),
                        STRING(),
                        VECTOR(FLOAT(), 4)),
                "VECTOR column 'c1'");
    }

    @Test
    void vectorColumnsNeedVectorStoreFiles() {
        assertInvalid(
                schema(List.of(), List.of(), options(), STRING(), VECTOR(FLOAT(), 4)),
                "set 'vector.file.format' to 'avro' or 'json'");
    }
}
