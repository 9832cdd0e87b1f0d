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

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dovetail.table.types.DataTypes.ARRAY;
import static io.dovetail.table.types.DataTypes.INT;
import static io.dovetail.table.types.DataTypes.MAP;
import static io.dovetail.table.types.DataTypes.ROW;
import static io.dovetail.table.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;

class FieldIdsTest {

    private static DataField f(String name, DataType type) {
        return new DataField(99, name, type);
    }

    @Test
    void freshIdsArePreOrderAndOnlyRowFieldsGetThem() {
        List<DataField> fields =
                FieldIds.assignFresh(
                        List.of(
                                f("a", INT()),
                                f("r", ROW(f("p", ROW(f("q", INT()))), f("s", STRING()))),
                                f("arr", ARRAY(ROW(f("e", INT())))),
                                f("m", MAP(ROW(f("k", INT())), ROW(f("v", INT())))),
                                f("z", INT())),
                        -1);
        assertThat(FieldIds.all(fields)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        assertThat(fields.get(1).type())
                .isEqualTo(
                        ROW(
                                new DataField(2, "p", ROW(new DataField(3, "q", INT()))),
                                new DataField(4, "s", STRING())));
        assertThat(fields.get(3).type())
                .isEqualTo(
                        MAP(ROW(new DataField(8, "k", INT())), ROW(new DataField(9, "v", INT()))));
        assertThat(FieldIds.highest(fields)).isEqualTo(10);
    }

    @Test
    void freshIdsContinueAfterTheGivenId() {
        List<DataField> added =
                FieldIds.assignFresh(List.of(f("extra", ROW(f("p", INT()), f("q", STRING())))), 24);
        assertThat(FieldIds.all(added)).containsExactly(25, 26, 27);
    }

    @Test
    void highestIgnoresSystemIdsAndIsMinusOneWhenEmpty() {
        assertThat(FieldIds.highest(List.of())).isEqualTo(-1);
        assertThat(
                        FieldIds.highest(
                                List.of(
                                        new DataField(3, "a", INT()),
                                        new DataField(Integer.MAX_VALUE - 5, "_ROW_ID", INT()))))
                .isEqualTo(3);
    }
}
