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

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.json.Json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.dovetail.table.types.DataTypes.ARRAY;
import static io.dovetail.table.types.DataTypes.INT;
import static io.dovetail.table.types.DataTypes.MAP;
import static io.dovetail.table.types.DataTypes.ROW;
import static io.dovetail.table.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TypeJsonTest {

    private static final String FILE = "/t/schema/schema-7";

    private static DataType parse(String text) {
        return TypeJson.readType(TextNode.valueOf(text), FILE, "fields[0].type");
    }

    private static JsonNode json(String text) throws Exception {
        return Json.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '~',
            value = {
                "BOOLEAN | BOOLEAN",
                "TINYINT | TINYINT",
                "SMALLINT | SMALLINT",
                "INT | INT",
                "BIGINT | BIGINT",
                "FLOAT | FLOAT",
                "DOUBLE | DOUBLE",
                "DECIMAL(10, 2) | DECIMAL(10, 2)",
                "DECIMAL(38, 4) NOT NULL | DECIMAL(38, 4) NOT NULL",
                "CHAR(3) | CHAR(3)",
                "VARCHAR(10) | VARCHAR(10)",
                "STRING | STRING",
                "VARCHAR(2147483647) | STRING",
                "BINARY(16) | BINARY(16)",
                "VARBINARY(8) | VARBINARY(8)",
                "BYTES | BYTES",
                "VARBINARY(2147483647) NOT NULL | BYTES NOT NULL",
                "DATE | DATE",
                "TIME(0) | TIME(0)",
                "TIMESTAMP(6) | TIMESTAMP(6)",
                "TIMESTAMP(3) WITH LOCAL TIME ZONE | TIMESTAMP(3) WITH LOCAL TIME ZONE",
                "VARIANT | VARIANT",
                "BLOB NOT NULL | BLOB NOT NULL",
                "INT NOT NULL | INT NOT NULL",
                // aliases and defaults accepted on read
                "integer | INT",
                "Double Precision | DOUBLE",
                "NUMERIC(5,1) | DECIMAL(5, 1)",
                "DEC(7) | DECIMAL(7, 0)",
                "DECIMAL | DECIMAL(10, 0)",
                "CHAR | CHAR(1)",
                "VARCHAR | VARCHAR(1)",
                "BINARY | BINARY(1)",
                "VARBINARY | VARBINARY(1)",
                "TIME | TIME(0)",
                "TIME(3) WITHOUT TIME ZONE | TIME(3)",
                "TIMESTAMP | TIMESTAMP(6)",
                "timestamp(9) without time zone not null | TIMESTAMP(9) NOT NULL",
                "TIMESTAMP_LTZ(3) | TIMESTAMP(3) WITH LOCAL TIME ZONE",
                "TIMESTAMP_LTZ | TIMESTAMP(6) WITH LOCAL TIME ZONE",
                "TIMESTAMP WITH LOCAL TIME ZONE | TIMESTAMP(6) WITH LOCAL TIME ZONE",
                "INT NULL | INT",
                "  bigint   NOT   NULL  | BIGINT NOT NULL"
            })
    void atomicTypesParseToPaimonsSpelling(String input, String written) {
        DataType type = parse(input.strip());
        assertThat(TypeJson.writeType(type)).isEqualTo(TextNode.valueOf(written));
        assertThat(parse(written)).isEqualTo(type);
    }

    @Test
    void parsedValuesCarryParameters() {
        AtomicType decimal = (AtomicType) parse("DECIMAL(12, 3) NOT NULL");
        assertThat(decimal.root()).isEqualTo(TypeRoot.DECIMAL);
        assertThat(decimal.precision()).isEqualTo(12);
        assertThat(decimal.scale()).isEqualTo(3);
        assertThat(decimal.nullable()).isFalse();
        assertThat(((AtomicType) parse("STRING")).length()).isEqualTo(Integer.MAX_VALUE);
        assertThat(parse("TIMESTAMP_LTZ(3)").root()).isEqualTo(TypeRoot.TIMESTAMP_LTZ);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '~',
            value = {
                "INTT | unknown type 'INTT'",
                "ROW<a INT> | ROW is a composite type and must be written as a JSON object",
                "ARRAY<INT> | ARRAY is a composite type",
                "DECIMAL(39, 2) | DECIMAL precision must be between 1 and 38, was 39",
                "DECIMAL(5, 6) | DECIMAL scale must be between 0 and the precision 5, was 6",
                "DECIMAL(0) | DECIMAL precision must be between 1 and 38, was 0",
                "TIMESTAMP(10) | TIMESTAMP precision must be between 0 and 9, was 10",
                "VARCHAR(0) | VARCHAR length must be between 1 and 2147483647, was 0",
                "VARCHAR(99999999999) | expected a number but found '99999999999'",
                "INT NOT | unexpected end, expected 'NULL'",
                "INT EXTRA | unexpected 'EXTRA'",
                "DECIMAL(10, | unexpected end, expected a number",
                "TIMESTAMP(3) WITH TIME ZONE | expected 'LOCAL' but found 'TIME'",
                "INT; | unexpected character ';'"
            })
    void badTypeStringsAreRejectedNamingFileAndPosition(String input, String problem) {
        assertThatThrownBy(() -> parse(input.strip()))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(FILE)
                .hasMessageContaining("fields[0].type")
                .hasMessageContaining(problem);
    }

    @Test
    void emptyTypeStringIsRejected() {
        assertThatThrownBy(() -> parse(""))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("unexpected end");
    }

    @Test
    void compositeTypesAreObjectsInPaimonsKeyOrder() {
        DataType type =
                new MapType(
                        false,
                        STRING(),
                        ARRAY(
                                new RowType(
                                        true,
                                        List.of(
                                                new DataField(4, "x", INT().withNullable(false)),
                                                new DataField(
                                                        5, "y", STRING(), "why", "'dflt'")))));
        String expected =
                "{\"type\":\"MAP NOT NULL\",\"key\":\"STRING\",\"value\":{\"type\":\"ARRAY\","
                        + "\"element\":{\"type\":\"ROW\",\"fields\":[{\"id\":4,\"name\":\"x\","
                        + "\"type\":\"INT NOT NULL\"},{\"id\":5,\"name\":\"y\",\"type\":\"STRING\","
                        + "\"description\":\"why\",\"defaultValue\":\"'dflt'\"}]}}}";
        assertThat(TypeJson.writeType(type).toString()).isEqualTo(expected);
        assertThat(TypeJson.writeType(new VectorType(true, DataTypes.FLOAT(), 3)).toString())
                .isEqualTo("{\"type\":\"VECTOR\",\"element\":\"FLOAT\",\"length\":3}");
        assertThat(TypeJson.writeType(new MultisetType(false, DataTypes.DATE())).toString())
                .isEqualTo("{\"type\":\"MULTISET NOT NULL\",\"element\":\"DATE\"}");
    }

    @Test
    void readsTheSpecExampleFields() throws Exception {
        JsonNode array =
                json(
                        "[{ \"id\" : 18, \"name\" : \"nested\",\n"
                                + "  \"type\" : { \"type\" : \"ROW\", \"fields\" : [\n"
                                + "      { \"id\" : 19, \"name\" : \"x\", \"type\" : \"INT\" },\n"
                                + "      { \"id\" : 20, \"name\" : \"y\", \"type\" : \"STRING\" } ] } },\n"
                                + "{ \"id\" : 21, \"name\" : \"arr\", \"type\" : { \"type\" :"
                                + " \"ARRAY\", \"element\" : \"INT\" } },\n"
                                + "{ \"id\" : 22, \"name\" : \"m\", \"type\" : { \"type\" : \"MAP\","
                                + " \"key\" : \"STRING\", \"value\" : \"INT NOT NULL\" } }]");
        List<DataField> fields = TypeJson.readFields(array, FILE, "fields");
        assertThat(fields)
                .containsExactly(
                        new DataField(
                                18,
                                "nested",
                                ROW(
                                        new DataField(19, "x", INT()),
                                        new DataField(20, "y", STRING()))),
                        new DataField(21, "arr", ARRAY(INT())),
                        new DataField(22, "m", MAP(STRING(), INT().withNullable(false))));
        assertThat(TypeJson.writeFields(fields)).isEqualTo(array);
    }

    @Test
    void compositeKindIsCaseInsensitiveAndNotNullAware() throws Exception {
        assertThat(
                        TypeJson.readType(
                                json("{\"type\":\"array not null\",\"element\":\"int\"}"),
                                FILE,
                                "t"))
                .isEqualTo(new ArrayType(false, INT()));
        assertThat(
                        TypeJson.readType(
                                json("{\"type\":\"Vector\",\"element\":\"DOUBLE\",\"length\":4}"),
                                FILE,
                                "t"))
                .isEqualTo(new VectorType(true, DataTypes.DOUBLE(), 4));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '~',
            value = {
                "{\"type\":\"ARRAY\"} | t: ARRAY has no 'element'",
                "{\"type\":\"MAP\",\"key\":\"INT\"} | t: MAP has no 'value'",
                "{\"type\":\"ROW\"} | t.fields must be a JSON array of fields",
                "{\"type\":\"STRUCT\",\"fields\":[]} | unknown composite type 'STRUCT'",
                "{\"type\":\"ARRAY NOT\",\"element\":\"INT\"} | invalid composite type kind",
                "{\"element\":\"INT\"} | t is an object without a string 'type'",
                "{\"type\":\"VECTOR\",\"element\":\"STRING\",\"length\":2} | VECTOR element must be",
                "{\"type\":\"VECTOR\",\"element\":\"INT\",\"length\":0} | VECTOR length must be at least 1",
                "{\"type\":\"VECTOR\",\"element\":\"INT\"} | VECTOR has no integer 'length'",
                "{\"type\":\"ROW\",\"fields\":[{\"name\":\"a\",\"type\":\"INT\"}]} | t.fields[0] has no integer field id",
                "{\"type\":\"ROW\",\"fields\":[{\"id\":\"1\",\"name\":\"a\",\"type\":\"INT\"}]} | t.fields[0] has no integer field id",
                "{\"type\":\"ROW\",\"fields\":[{\"id\":1,\"type\":\"INT\"}]} | t.fields[0] has no string 'name'",
                "{\"type\":\"ROW\",\"fields\":[{\"id\":1,\"name\":\"a\"}]} | t.fields[0] ('a') has no 'type'",
                "{\"type\":\"ROW\",\"fields\":[{\"id\":1,\"name\":\"a\",\"type\":\"INT\",\"description\":5}]} | 'description' must be a string",
                "[1] | t must be a type string or a composite type object"
            })
    void malformedCompositesAreRejected(String input, String problem) throws Exception {
        JsonNode node = json(input);
        assertThatThrownBy(() -> TypeJson.readType(node, FILE, "t"))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(FILE)
                .hasMessageContaining(problem);
    }
}
