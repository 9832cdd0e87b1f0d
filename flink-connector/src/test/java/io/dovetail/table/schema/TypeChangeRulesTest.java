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

import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TypeChangeRulesTest {

    /** One representative per matrix family, in the order of the spec's table. */
    private static final List<DataType> FAMILIES =
            List.of(
                    DataTypes.TINYINT(),
                    DataTypes.SMALLINT(),
                    DataTypes.INT(),
                    DataTypes.BIGINT(),
                    DataTypes.FLOAT(),
                    DataTypes.DOUBLE(),
                    DataTypes.BOOLEAN(),
                    DataTypes.STRING(),
                    DataTypes.BYTES(),
                    DataTypes.DATE(),
                    DataTypes.TIMESTAMP(6),
                    DataTypes.DECIMAL(10, 2));

    /** The matrix of data-evolution semantics section 4.8, transcribed cell by cell. */
    private static final String[] SPEC =
            """
            tinyint   ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✘ ✘ ✘ ✔
            smallint  ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✘ ✘ ✘ ✔
            int       ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✘ ✘ ✔ ✔
            bigint    ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✘ ✘ ✔ ✔
            float     ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✘ ✘ ✘ ✔
            double    ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✘ ✘ ✘ ✔
            bool      ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✘ ✘ ✘ ✔
            string    ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔ ✔
            binary    ✘ ✘ ✘ ✘ ✘ ✘ ✘ ✔ ✔ ✘ ✘ ✘
            date      ✘ ✘ ✘ ✘ ✘ ✘ ✘ ✔ ✘ ✔ ✔ ✘
            timestamp ✘ ✘ ✔ ✔ ✘ ✘ ✘ ✔ ✘ ✔ ✔ ✘
            decimal   ✔ ✔ ✔ ✔ ✔ ✔ ✘ ✔ ✘ ✘ ✘ ✔
            """
                    .split("\\n");

    @Test
    void everyCellOfTheSpecMatrix() {
        for (int from = 0; from < FAMILIES.size(); from++) {
            String[] cells = SPEC[from].trim().split("\\s+");
            for (int to = 0; to < FAMILIES.size(); to++) {
                boolean expected = cells[to + 1].equals("✔");
                DataType source = FAMILIES.get(from);
                DataType target = FAMILIES.get(to);
                assertThat(TypeChangeRules.isAllowed(source, target))
                        .as("%s -> %s", source, target)
                        .isEqualTo(expected);
                assertThat(TypeChangeRules.isAllowed(source.withNullable(false), target))
                        .as("NOT NULL %s -> %s", source, target)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void familiesCoverAllTheirMembers() {
        assertThat(TypeChangeRules.isAllowed(DataTypes.CHAR(3), DataTypes.BINARY(2))).isTrue();
        assertThat(TypeChangeRules.isAllowed(DataTypes.VARBINARY(3), DataTypes.CHAR(9))).isTrue();
        assertThat(TypeChangeRules.isAllowed(DataTypes.DECIMAL(38, 10), DataTypes.DECIMAL(5, 0)))
                .isTrue();
        assertThat(TypeChangeRules.isAllowed(DataTypes.TIMESTAMP(9), DataTypes.TIMESTAMP(0)))
                .isTrue();
        assertThat(TypeChangeRules.isAllowed(DataTypes.SMALLINT(), DataTypes.TIMESTAMP(3)))
                .isFalse();
    }

    @Test
    void typesOutsideTheMatrixOnlyKeepTheirType() {
        DataType row = DataTypes.ROW(new DataField(3, "a", DataTypes.INT()));
        assertThat(TypeChangeRules.isAllowed(row, row.withNullable(false))).isTrue();
        assertThat(TypeChangeRules.isAllowed(row, DataTypes.STRING())).isFalse();
        assertThat(
                        TypeChangeRules.isAllowed(
                                DataTypes.ARRAY(DataTypes.INT()),
                                DataTypes.ARRAY(DataTypes.BIGINT())))
                .isFalse();
        assertThat(
                        TypeChangeRules.isAllowed(
                                DataTypes.TIMESTAMP_LTZ(3), DataTypes.TIMESTAMP_LTZ(6)))
                .isFalse();
        assertThat(TypeChangeRules.isAllowed(DataTypes.TIMESTAMP_LTZ(3), DataTypes.STRING()))
                .isFalse();
        assertThat(TypeChangeRules.isAllowed(DataTypes.STRING(), DataTypes.TIME(0))).isFalse();
        assertThat(TypeChangeRules.isAllowed(DataTypes.BLOB(), DataTypes.BYTES())).isFalse();
        assertThat(TypeChangeRules.isAllowed(DataTypes.BYTES(), DataTypes.BLOB())).isFalse();
        assertThat(TypeChangeRules.isAllowed(DataTypes.VARIANT(), DataTypes.VARIANT())).isTrue();
    }
}
