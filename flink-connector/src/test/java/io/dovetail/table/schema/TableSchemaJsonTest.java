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
import io.dovetail.table.types.DataTypes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.dovetail.table.types.DataTypes.ARRAY;
import static io.dovetail.table.types.DataTypes.INT;
import static io.dovetail.table.types.DataTypes.MAP;
import static io.dovetail.table.types.DataTypes.ROW;
import static io.dovetail.table.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableSchemaJsonTest {

    private static final String FILE = "/wh/db.db/t/schema/schema-1";

    /** A schema file laid out exactly as Paimon 1.4.2 writes it (Jackson's default printer). */
    static final String GOLDEN =
            """
            {
              "version" : 3,
              "id" : 1,
              "fields" : [ {
                "id" : 0,
                "name" : "id",
                "type" : "BIGINT NOT NULL"
              }, {
                "id" : 1,
                "name" : "name",
                "type" : "STRING",
                "description" : "display name"
              }, {
                "id" : 2,
                "name" : "price",
                "type" : "DECIMAL(10, 2)",
                "defaultValue" : "0.00"
              }, {
                "id" : 3,
                "name" : "ts",
                "type" : "TIMESTAMP(3) WITH LOCAL TIME ZONE"
              }, {
                "id" : 18,
                "name" : "nested",
                "type" : {
                  "type" : "ROW",
                  "fields" : [ {
                    "id" : 19,
                    "name" : "x",
                    "type" : "INT"
                  }, {
                    "id" : 20,
                    "name" : "y",
                    "type" : "STRING"
                  } ]
                }
              }, {
                "id" : 21,
                "name" : "arr",
                "type" : {
                  "type" : "ARRAY",
                  "element" : "INT"
                }
              }, {
                "id" : 22,
                "name" : "m",
                "type" : {
                  "type" : "MAP NOT NULL",
                  "key" : "STRING",
                  "value" : "INT NOT NULL"
                }
              }, {
                "id" : 23,
                "name" : "part",
                "type" : "STRING"
              }, {
                "id" : 24,
                "name" : "dpart",
                "type" : "INT"
              } ],
              "highestFieldId" : 27,
              "partitionKeys" : [ "part", "dpart" ],
              "primaryKeys" : [ ],
              "options" : {
                "row-tracking.enabled" : "true",
                "data-evolution.enabled" : "true",
                "file.format" : "parquet"
              },
              "comment" : "",
              "timeMillis" : 1796088725126
            }""";

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static TableSchema read(String text) {
        return TableSchemaJson.fromBytes(bytes(text), FILE);
    }

    @Test
    void goldenFileParsesToTheExpectedSchema() {
        TableSchema schema = read(GOLDEN);
        assertThat(schema.id()).isEqualTo(1);
        assertThat(schema.highestFieldId()).isEqualTo(27);
        assertThat(schema.fieldNames())
                .containsExactly(
                        "id", "name", "price", "ts", "nested", "arr", "m", "part", "dpart");
        assertThat(schema.field("name").orElseThrow().description()).isEqualTo("display name");
        assertThat(schema.field("price").orElseThrow().defaultValue()).isEqualTo("0.00");
        assertThat(schema.field("nested").orElseThrow())
                .isEqualTo(
                        new DataField(
                                18,
                                "nested",
                                ROW(
                                        new DataField(19, "x", INT()),
                                        new DataField(20, "y", STRING()))));
        assertThat(schema.field("arr").orElseThrow())
                .isEqualTo(new DataField(21, "arr", ARRAY(INT())));
        assertThat(schema.field("m").orElseThrow().type())
                .isEqualTo(MAP(STRING(), INT().withNullable(false)).withNullable(false));
        assertThat(schema.field("ts").orElseThrow().type()).isEqualTo(DataTypes.TIMESTAMP_LTZ(3));
        assertThat(schema.partitionKeys()).containsExactly("part", "dpart");
        assertThat(schema.primaryKeys()).isEmpty();
        assertThat(schema.options())
                .containsExactly(
                        Map.entry("row-tracking.enabled", "true"),
                        Map.entry("data-evolution.enabled", "true"),
                        Map.entry("file.format", "parquet"));
        assertThat(schema.comment()).isEmpty();
        assertThat(schema.timeMillis()).isEqualTo(1796088725126L);
        assertThat(schema.partitionTypes()).containsExactly(STRING(), INT());
    }

    @Test
    void goldenFileReSerialisesByteForByte() {
        byte[] golden = bytes(GOLDEN);
        assertThat(TableSchemaJson.toBytes(TableSchemaJson.fromBytes(golden, FILE)))
                .isEqualTo(golden);
    }

    @Test
    void nullCommentIsOmittedAndMissingTimeDefaultsToZero() {
        String text =
                "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
                        + "\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],"
                        + "\"options\":{}}";
        TableSchema schema = read(text);
        assertThat(schema.comment()).isNull();
        assertThat(schema.timeMillis()).isZero();
        assertThat(new String(TableSchemaJson.toBytes(schema), StandardCharsets.UTF_8))
                .isEqualTo(
                        """
                        {
                          "version" : 3,
                          "id" : 0,
                          "fields" : [ {
                            "id" : 0,
                            "name" : "a",
                            "type" : "INT"
                          } ],
                          "highestFieldId" : 0,
                          "partitionKeys" : [ ],
                          "primaryKeys" : [ ],
                          "options" : { },
                          "timeMillis" : 0
                        }""");
    }

    private static String withVersion(String versionMember, String options) {
        return "{"
                + versionMember
                + "\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
                + "\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":"
                + options
                + "}";
    }

    @Test
    void oldVersionsGetPaimonsDefaults() {
        assertThat(read(withVersion("", "{}")).options())
                .containsExactly(Map.entry("bucket", "1"), Map.entry("file.format", "orc"));
        assertThat(read(withVersion("\"version\":1,", "{\"bucket\":\"-1\"}")).options())
                .containsExactly(Map.entry("bucket", "-1"), Map.entry("file.format", "orc"));
        assertThat(read(withVersion("\"version\":2,", "{}")).options())
                .containsExactly(Map.entry("file.format", "orc"));
        assertThat(read(withVersion("\"version\":2,", "{\"file.format\":\"parquet\"}")).options())
                .containsExactly(Map.entry("file.format", "parquet"));
        assertThat(read(withVersion("\"version\":3,", "{}")).options()).isEmpty();
    }

    @Test
    void newerVersionsAreRejected() {
        assertThatThrownBy(() -> read(withVersion("\"version\":4,", "{}")))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(FILE)
                .hasMessageContaining("schema format version 4 is newer")
                .hasMessageContaining("upgrade Dovetail");
        assertThatThrownBy(() -> read(withVersion("\"version\":0,", "{}")))
                .hasMessageContaining("'version' must be a positive int");
        assertThatThrownBy(() -> read(withVersion("\"version\":\"3\",", "{}")))
                .hasMessageContaining("'version' must be a positive int");
    }

    @Test
    void unknownKeysAreIgnored() {
        String text = GOLDEN.replace("\"id\" : 1,", "\"id\" : 1,\n  \"futureKey\" : [ 1, 2 ],");
        assertThat(read(text)).isEqualTo(read(GOLDEN));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"id", "fields", "highestFieldId", "partitionKeys", "primaryKeys", "options"})
    void missingRequiredKeysAreNamed(String key) {
        String text = GOLDEN.replaceFirst("\"" + key + "\" :", "\"renamed_" + key + "\" :");
        assertThatThrownBy(() -> read(text))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(FILE)
                .hasMessageContaining("required key '" + key + "' is missing");
    }

    @Test
    void truncatedAndEmptyFilesAreCorrupt() {
        byte[] golden = bytes(GOLDEN);
        for (int length : new int[] {golden.length / 2, golden.length - 1}) {
            assertThatThrownBy(() -> TableSchemaJson.fromBytes(Arrays.copyOf(golden, length), FILE))
                    .isInstanceOf(DovetailException.class)
                    .hasMessageContaining(FILE)
                    .hasMessageContaining("not valid JSON (truncated?)");
        }
        assertThatThrownBy(() -> TableSchemaJson.fromBytes(new byte[0], FILE))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(FILE);
        assertThatThrownBy(() -> read("[1, 2]"))
                .hasMessageContaining("a schema file must hold one JSON object");
    }

    @Test
    void fieldsWithoutIdsAreRejected() {
        String text = GOLDEN.replace("\"id\" : 19,", "");
        assertThatThrownBy(() -> read(text))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(FILE)
                .hasMessageContaining(
                        "fields[4] ('nested').type.fields[0] has no integer field id");
    }

    @Test
    void structuralProblemsAreCorruption() {
        assertThatThrownBy(() -> read(GOLDEN.replace("\"id\" : 20,", "\"id\" : 19,")))
                .hasMessageContaining(FILE)
                .hasMessageContaining("field id 19 is used by more than one field");
        assertThatThrownBy(
                        () ->
                                read(
                                        GOLDEN.replace(
                                                "\"highestFieldId\" : 27",
                                                "\"highestFieldId\" : 23")))
                .hasMessageContaining("highestFieldId 23 is below the largest field id 24");
        assertThatThrownBy(() -> read(GOLDEN.replace("[ \"part\", \"dpart\" ]", "[ \"nope\" ]")))
                .hasMessageContaining("partition key 'nope' is not a column");
        assertThatThrownBy(() -> read(GOLDEN.replace("\"name\" : \"y\"", "\"name\" : \"x\"")))
                .hasMessageContaining("column name 'x' appears twice in ROW column 'nested'");
        assertThatThrownBy(
                        () ->
                                read(
                                        GOLDEN.replace(
                                                "\"file.format\" : \"parquet\"",
                                                "\"file.format\" : 1")))
                .hasMessageContaining("option 'file.format' must be a string");
        assertThatThrownBy(() -> read(GOLDEN.replace("\"id\" : 1,", "\"id\" : \"one\",")))
                .hasMessageContaining("'id' must be an integer");
        assertThatThrownBy(() -> read(GOLDEN.replace("[ ]", "[ 5 ]")))
                .hasMessageContaining("'primaryKeys' holds a non-string 5");
    }

    @Test
    void writtenSchemasReadBackEqual() {
        TableSchema schema =
                new TableSchema(
                        4,
                        List.of(
                                new DataField(0, "a\"quoted\" ✓", INT(), "line\nbreak", null),
                                new DataField(7, "b", DataTypes.VECTOR(DataTypes.FLOAT(), 3))),
                        9,
                        List.of("a\"quoted\" ✓"),
                        List.of(),
                        Map.of("k", "v"),
                        "a comment",
                        42);
        assertThat(TableSchemaJson.fromBytes(TableSchemaJson.toBytes(schema), FILE))
                .isEqualTo(schema);
    }
}
