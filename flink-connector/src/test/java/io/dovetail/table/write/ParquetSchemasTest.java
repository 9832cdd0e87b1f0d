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
package io.dovetail.table.write;

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.FieldIds;

import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParquetSchemasTest {

    @Test
    void mapsEveryTypeWithNamesRepetitionAndFieldIds() {
        MessageType schema =
                ParquetSchemas.messageType(
                        List.of(
                                field(0, "b", DataTypes.BOOLEAN()),
                                field(1, "t", DataTypes.TINYINT()),
                                field(2, "s", DataTypes.SMALLINT()),
                                field(3, "i", DataTypes.INT().withNullable(false)),
                                field(4, "l", DataTypes.BIGINT()),
                                field(5, "f", DataTypes.FLOAT()),
                                field(6, "d", DataTypes.DOUBLE()),
                                field(7, "c", DataTypes.CHAR(3)),
                                field(8, "v", DataTypes.STRING()),
                                field(9, "bin", DataTypes.BINARY(4)),
                                field(10, "bytes", DataTypes.BYTES()),
                                field(11, "d5", DataTypes.DECIMAL(5, 2)),
                                field(12, "d18", DataTypes.DECIMAL(18, 4)),
                                field(13, "d38", DataTypes.DECIMAL(38, 10)),
                                field(14, "d19", DataTypes.DECIMAL(19, 0)),
                                field(15, "day", DataTypes.DATE()),
                                field(16, "tm", DataTypes.TIME(3)),
                                field(17, "ts3", DataTypes.TIMESTAMP(3)),
                                field(18, "ts6", DataTypes.TIMESTAMP(6)),
                                field(19, "ts9", DataTypes.TIMESTAMP(9)),
                                field(20, "ltz3", DataTypes.TIMESTAMP_LTZ(3)),
                                field(23, "ltz6", DataTypes.TIMESTAMP_LTZ(6)),
                                field(24, "ltz9", DataTypes.TIMESTAMP_LTZ(9))));

        assertThat(schema.toString())
                .isEqualTo(
                        "message paimon_schema {\n"
                                + "  optional boolean b = 0;\n"
                                + "  optional int32 t (INTEGER(8,true)) = 1;\n"
                                + "  optional int32 s (INTEGER(16,true)) = 2;\n"
                                + "  required int32 i = 3;\n"
                                + "  optional int64 l = 4;\n"
                                + "  optional float f = 5;\n"
                                + "  optional double d = 6;\n"
                                + "  optional binary c (STRING) = 7;\n"
                                + "  optional binary v (STRING) = 8;\n"
                                + "  optional binary bin = 9;\n"
                                + "  optional binary bytes = 10;\n"
                                + "  optional int32 d5 (DECIMAL(5,2)) = 11;\n"
                                + "  optional int64 d18 (DECIMAL(18,4)) = 12;\n"
                                + "  optional fixed_len_byte_array(16) d38 (DECIMAL(38,10)) = 13;\n"
                                + "  optional fixed_len_byte_array(9) d19 (DECIMAL(19,0)) = 14;\n"
                                + "  optional int32 day (DATE) = 15;\n"
                                + "  optional int32 tm (TIME(MILLIS,true)) = 16;\n"
                                + "  optional int64 ts3 (TIMESTAMP(MILLIS,false)) = 17;\n"
                                + "  optional int64 ts6 (TIMESTAMP(MICROS,false)) = 18;\n"
                                + "  optional int96 ts9 = 19;\n"
                                + "  optional int64 ltz3 (TIMESTAMP(MILLIS,true)) = 20;\n"
                                + "  optional int64 ltz6 (TIMESTAMP(MICROS,true)) = 23;\n"
                                + "  optional int96 ltz9 = 24;\n"
                                + "}\n");
    }

    @Test
    void nestedTypesUseThreeLevelListsMapsAndSyntheticMemberIds() {
        MessageType schema =
                ParquetSchemas.messageType(
                        List.of(
                                field(
                                        20,
                                        "nested",
                                        DataTypes.ROW(
                                                field(23, "x", DataTypes.INT()),
                                                field(
                                                        24,
                                                        "y",
                                                        DataTypes.STRING().withNullable(false)))),
                                field(21, "arr", DataTypes.ARRAY(DataTypes.INT())),
                                field(22, "m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
                                field(
                                        25,
                                        "deep",
                                        DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.BIGINT()))
                                                .withNullable(false)),
                                field(26, "ms", DataTypes.MULTISET(DataTypes.STRING()))));

        assertThat(schema.toString())
                .isEqualTo(
                        "message paimon_schema {\n"
                                + "  optional group nested = 20 {\n"
                                + "    optional int32 x = 23;\n"
                                + "    required binary y (STRING) = 24;\n"
                                + "  }\n"
                                + "  optional group arr (LIST) = 21 {\n"
                                + "    repeated group list {\n"
                                + "      optional int32 element = 536892416;\n"
                                + "    }\n"
                                + "  }\n"
                                + "  optional group m (MAP) = 22 {\n"
                                + "    repeated group key_value (MAP_KEY_VALUE) {\n"
                                + "      required binary key (STRING) = 536848382;\n"
                                + "      optional int32 value = 536893440;\n"
                                + "    }\n"
                                + "  }\n"
                                + "  required group deep (LIST) = 25 {\n"
                                + "    repeated group list {\n"
                                + "      optional group element (LIST) = 536896512 {\n"
                                + "        repeated group list {\n"
                                + "          optional int64 element = 536896513;\n"
                                + "        }\n"
                                + "      }\n"
                                + "    }\n"
                                + "  }\n"
                                + "  optional group ms (MAP) = 26 {\n"
                                + "    repeated group key_value (MAP_KEY_VALUE) {\n"
                                + "      required binary key (STRING) = 536844286;\n"
                                + "      required int32 value = 536897536;\n"
                                + "    }\n"
                                + "  }\n"
                                + "}\n");
        GroupType arr = schema.getType("arr").asGroupType();
        assertThat(arr.getId().intValue()).isEqualTo(21);
    }

    @Test
    void syntheticIdsFollowPaimonsFormula() {
        assertThat(FieldIds.listElementId(21, 1)).isEqualTo(536892416);
        assertThat(FieldIds.mapKeyId(22, 1)).isEqualTo(536848382);
        assertThat(FieldIds.mapValueId(22, 1)).isEqualTo(536893440);
        assertThat(ParquetSchemas.decimalBytes(9)).isEqualTo(4);
        assertThat(ParquetSchemas.decimalBytes(18)).isEqualTo(8);
        assertThat(ParquetSchemas.decimalBytes(38)).isEqualTo(16);
    }

    @Test
    void rejectsTypesTheWriterDoesNotSupportYet() {
        for (DataType type : List.of(DataTypes.VARIANT(), DataTypes.VECTOR(DataTypes.FLOAT(), 4))) {
            assertThatThrownBy(() -> ParquetSchemas.messageType(List.of(field(0, "x", type))))
                    .isInstanceOf(DovetailException.class)
                    .hasMessageContaining("not supported by the writer yet");
        }
    }

    @Test
    void blobColumnsStoredInlineAreBinaryWithoutALogicalType() {
        // as Paimon 1.4.2 writes a 'blob-descriptor-field' column: the descriptor's bytes
        assertThat(
                        ParquetSchemas.messageType(List.of(field(3, "img", DataTypes.BLOB())))
                                .toString())
                .isEqualTo(
                        ParquetSchemas.messageType(List.of(field(3, "img", DataTypes.BYTES())))
                                .toString());
    }

    private static DataField field(int id, String name, DataType type) {
        return new DataField(id, name, type);
    }
}
