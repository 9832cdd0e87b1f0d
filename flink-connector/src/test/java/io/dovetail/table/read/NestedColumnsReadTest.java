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

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ROW, ARRAY and MAP columns: provided by field id like top-level columns, nested ids kept. */
class NestedColumnsReadTest {

    private static final GenericRowData NO_PARTITION = GenericRowData.of();

    @TempDir java.nio.file.Path dir;

    private static DataType point(String xName) {
        return DataTypes.ROW(
                new DataField(10, xName, DataTypes.INT()),
                new DataField(11, "label", DataTypes.STRING()));
    }

    @Test
    void nestedColumnsComeFromTheirNewestProviderFile() {
        TestTable t =
                new TestTable(
                        dir,
                        List.of(
                                new DataField(0, "id", DataTypes.INT()),
                                new DataField(1, "point", point("x")),
                                new DataField(2, "tags", DataTypes.ARRAY(DataTypes.STRING())),
                                new DataField(
                                        3,
                                        "attrs",
                                        DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))),
                        List.of());
        t.append(
                NO_PARTITION,
                List.of(
                        GenericRowData.of(1, point(1, "a"), tags("t1", null), attrs("k", 1)),
                        GenericRowData.of(2, null, tags(), null)));
        t.update(
                NO_PARTITION,
                0,
                List.of("point", "attrs"),
                List.of(
                        GenericRowData.of(point(10, null), null),
                        GenericRowData.of(point(20, "b"), attrs("m", 2))));
        assertThat(t.read(t.request().withRowTracking()))
                .containsExactly(
                        "id=1, point={x=10, label=null}, tags=[t1, null], attrs=null,"
                                + " _ROW_ID=0, _SEQUENCE_NUMBER=2",
                        "id=2, point={x=20, label=b}, tags=[], attrs=[m->2],"
                                + " _ROW_ID=1, _SEQUENCE_NUMBER=2");
    }

    @Test
    void renamedNestedFieldKeepsTheStoredVectorAndChangedStructureIsUnsupported() {
        ColumnVector stored = i -> false;
        assertThat(CastVector.of(stored, point("x"), point("renamed"), "point")).isSameAs(stored);
        DataType added =
                DataTypes.ROW(
                        new DataField(10, "x", DataTypes.INT()),
                        new DataField(11, "label", DataTypes.STRING()),
                        new DataField(12, "z", DataTypes.INT()));
        assertThatThrownBy(() -> CastVector.of(stored, point("x"), added, "point"))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("nested column 'point'")
                .hasMessageContaining("nested schema evolution");
    }

    private static GenericRowData point(int x, String label) {
        return GenericRowData.of(x, label == null ? null : StringData.fromString(label));
    }

    private static GenericArrayData tags(String... values) {
        Object[] data = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            data[i] = values[i] == null ? null : StringData.fromString(values[i]);
        }
        return new GenericArrayData(data);
    }

    private static GenericMapData attrs(String key, int value) {
        return new GenericMapData(Map.of(StringData.fromString(key), value));
    }
}
