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

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.columnar.vector.ArrayColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.MapColumnVector;
import org.apache.flink.table.data.columnar.vector.RowColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapBytesVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapRowVector;

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
    void renamedNestedFieldKeepsTheStoredVector() {
        ColumnVector stored = i -> false;
        assertThat(CastVector.of(stored, point("x"), point("renamed"), "point")).isSameAs(stored);
    }

    @Test
    void evolvedRowResolvesFieldsById() {
        HeapIntVector x = new HeapIntVector(3);
        HeapBytesVector label = new HeapBytesVector(3);
        x.vector[0] = 7;
        label.appendBytes(0, "a".getBytes(), 0, 1);
        x.setNullAt(1);
        label.appendBytes(1, "b".getBytes(), 0, 1);
        HeapRowVector stored = new HeapRowVector(3, x, label);
        stored.setNullAt(2);
        DataType evolved =
                DataTypes.ROW(
                        new DataField(11, "name", DataTypes.STRING()),
                        new DataField(10, "x", DataTypes.BIGINT()),
                        new DataField(12, "added", DataTypes.INT()));

        RowColumnVector read =
                (RowColumnVector) CastVector.of(stored, point("x"), evolved, "point");

        RowData first = read.getRow(0);
        assertThat(first.getString(0).toString()).isEqualTo("a");
        assertThat(first.getLong(1)).isEqualTo(7L);
        assertThat(first.isNullAt(2)).isTrue();
        RowData second = read.getRow(1);
        assertThat(second.getString(0).toString()).isEqualTo("b");
        assertThat(second.isNullAt(1)).isTrue();
        assertThat(((ColumnVector) read).isNullAt(2)).isTrue();
    }

    @Test
    void evolvedArrayElementsAndMapValuesAreConverted() {
        DataType oldElement = DataTypes.ROW(new DataField(20, "v", DataTypes.SMALLINT()));
        DataType newElement =
                DataTypes.ROW(
                        new DataField(21, "w", DataTypes.STRING()),
                        new DataField(20, "v", DataTypes.INT()));
        ArrayColumnVector arrays =
                (ArrayColumnVector)
                        CastVector.of(
                                arrays(
                                        new GenericArrayData(
                                                new Object[] {GenericRowData.of((short) 3), null})),
                                DataTypes.ARRAY(oldElement),
                                DataTypes.ARRAY(newElement),
                                "list");
        ArrayData array = arrays.getArray(0);
        assertThat(array.size()).isEqualTo(2);
        assertThat(array.getRow(0, 2).isNullAt(0)).isTrue();
        assertThat(array.getRow(0, 2).getInt(1)).isEqualTo(3);
        assertThat(array.isNullAt(1)).isTrue();

        MapColumnVector maps =
                (MapColumnVector)
                        CastVector.of(
                                maps(attrs("k", 5)),
                                DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()),
                                DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()),
                                "attrs");
        MapData map = maps.getMap(0);
        assertThat(map.keyArray().getString(0).toString()).isEqualTo("k");
        assertThat(map.valueArray().getLong(0)).isEqualTo(5L);
    }

    @Test
    void aColumnCannotChangeShape() {
        ColumnVector stored = i -> false;
        assertThatThrownBy(() -> CastVector.of(stored, DataTypes.INT(), point("x"), "point"))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("'point' stored as INT")
                .hasMessageContaining("cannot change between atomic, ROW, ARRAY and MAP");
    }

    private static ArrayColumnVector arrays(ArrayData value) {
        return new ArrayColumnVector() {
            @Override
            public ArrayData getArray(int i) {
                return value;
            }

            @Override
            public boolean isNullAt(int i) {
                return false;
            }
        };
    }

    private static MapColumnVector maps(MapData value) {
        return new MapColumnVector() {
            @Override
            public MapData getMap(int i) {
                return value;
            }

            @Override
            public boolean isNullAt(int i) {
                return false;
            }
        };
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
