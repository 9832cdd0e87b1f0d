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

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.types.VectorType;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.columnar.vector.ArrayColumnVector;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Vector-store files in both formats: every element type round-trips, NULL vectors included,
 * through batches and skips; a value of the wrong dimension or with a NULL element is refused
 * before it is written; Paimon 1.4.2's JSON bytes and Avro schema read as Paimon wrote them; names
 * tell the format, and formats Dovetail cannot read are refused by name.
 */
class VectorFilesTest {

    private static final List<DataField> COLUMNS =
            List.of(
                    new DataField(2, "f", DataTypes.VECTOR(DataTypes.FLOAT(), 3), null, null),
                    new DataField(3, "d", DataTypes.VECTOR(DataTypes.DOUBLE(), 2), null, null),
                    new DataField(4, "i", DataTypes.VECTOR(DataTypes.INT(), 2), null, null),
                    new DataField(5, "l", DataTypes.VECTOR(DataTypes.BIGINT(), 1), null, null),
                    new DataField(6, "s", DataTypes.VECTOR(DataTypes.SMALLINT(), 2), null, null),
                    new DataField(7, "t", DataTypes.VECTOR(DataTypes.TINYINT(), 2), null, null),
                    new DataField(8, "b", DataTypes.VECTOR(DataTypes.BOOLEAN(), 2), null, null));

    @TempDir java.nio.file.Path dir;

    @ParameterizedTest
    @EnumSource(VectorFileFormat.class)
    void everyElementTypeRoundTripsThroughBatchesAndSkips(VectorFileFormat format)
            throws Exception {
        Random random = new Random(7);
        List<Object[]> rows = new ArrayList<>();
        for (int r = 0; r < 1000; r++) {
            rows.add(
                    new Object[] {
                        r % 9 == 4 ? null : new Float[] {random.nextFloat(), -1e-7f, (float) r},
                        new Double[] {random.nextDouble(), Double.MAX_VALUE},
                        new Integer[] {random.nextInt(), r},
                        r % 3 == 0 ? null : new Long[] {random.nextLong()},
                        new Short[] {(short) r, Short.MIN_VALUE},
                        new Byte[] {(byte) r, Byte.MAX_VALUE},
                        new Boolean[] {r % 2 == 0, true}
                    });
        }
        Path path = new Path(dir.resolve("data-x-1." + format.fileNameSuffix()).toUri());
        long size;
        try (VectorFileWriter writer = format.create(path, COLUMNS, "zstd", 1, 1 << 20)) {
            for (Object[] row : rows) {
                writer.write(row(row));
            }
            assertThat(writer.count()).isEqualTo(1000);
            size = writer.finish();
        }
        assertThat(size).isEqualTo(Files.size(dir.resolve(path.getName())));
        assertThat(VectorFileFormat.ofFileName(path.getName())).isEqualTo(format);

        // columns in another order and a subset; batches of 64, skipping 100 rows in between
        List<DataField> read = List.of(COLUMNS.get(6), COLUMNS.get(0), COLUMNS.get(3));
        int[] source = {6, 0, 3};
        try (VectorFileReader reader = format.open(path, size, read, 64)) {
            int r = 0;
            while (r < 1000) {
                if (r == 320) {
                    reader.skip(100);
                    r += 100;
                }
                int n = Math.min(64, 1000 - r);
                reader.read(n);
                for (int k = 0; k < n; k++) {
                    for (int c = 0; c < read.size(); c++) {
                        Object[] expected = (Object[]) rows.get(r + k)[source[c]];
                        ArrayColumnVector vector = (ArrayColumnVector) reader.vector(c);
                        assertThat(vector.isNullAt(k)).isEqualTo(expected == null);
                        if (expected != null) {
                            assertThat(values(vector.getArray(k), read.get(c).type()))
                                    .as("row %s column %s", r + k, read.get(c).name())
                                    .isEqualTo(Arrays.asList(expected));
                        }
                    }
                }
                r += n;
            }
        }
    }

    @ParameterizedTest
    @EnumSource(VectorFileFormat.class)
    void badValuesAreRefusedBeforeTheyAreWritten(VectorFileFormat format) throws Exception {
        List<DataField> columns = COLUMNS.subList(0, 1);
        Path path = new Path(dir.resolve("data-y-1." + format.fileNameSuffix()).toUri());
        try (VectorFileWriter writer = format.create(path, columns, "zstd", 1, 1 << 20)) {
            assertThatThrownBy(
                            () ->
                                    writer.write(
                                            GenericRowData.of(
                                                    new GenericArrayData(new float[] {1, 2}))))
                    .isInstanceOf(DovetailException.class)
                    .hasMessageContaining("VECTOR column 'f' has dimension 3")
                    .hasMessageContaining("2 elements");
            assertThatThrownBy(
                            () ->
                                    writer.write(
                                            GenericRowData.of(
                                                    new GenericArrayData(
                                                            new Object[] {1f, null, 3f}))))
                    .hasMessageContaining("VECTOR column 'f' cannot hold NULL elements");
        }
    }

    @Test
    void paimonsJsonReadsAsPaimonWroteIt() throws Exception {
        // the bytes Apache Paimon 1.4.2 wrote for (emb VECTOR<FLOAT, 3>, e2 VECTOR<INT, 2>)
        String paimon =
                "{\"emb\":[\"0.5\",\"1.25\",\"-3.0\"],\"e2\":[\"1\",\"2\"]}\n"
                        + "{\"emb\":null,\"e2\":[\"3\",\"4\"]}\n"
                        + "{\"emb\":[\"1.0E-7\",\"1.0E30\",\"0.1\"],\"e2\":null}\n";
        java.nio.file.Path file = dir.resolve("data-p-1.vector.json");
        Files.writeString(file, paimon);
        List<DataField> columns =
                List.of(
                        new DataField(2, "emb", DataTypes.VECTOR(DataTypes.FLOAT(), 3), null, null),
                        new DataField(3, "e2", DataTypes.VECTOR(DataTypes.INT(), 2), null, null));
        try (VectorFileReader reader =
                VectorFileFormat.JSON.open(new Path(file.toUri()), Files.size(file), columns, 8)) {
            reader.read(3);
            ArrayColumnVector emb = (ArrayColumnVector) reader.vector(0);
            ArrayColumnVector e2 = (ArrayColumnVector) reader.vector(1);
            assertThat(values(emb.getArray(0), columns.get(0).type()))
                    .containsExactly(0.5f, 1.25f, -3.0f);
            assertThat(emb.isNullAt(1)).isTrue();
            assertThat(values(emb.getArray(2), columns.get(0).type()))
                    .containsExactly(1.0e-7f, 1.0e30f, 0.1f);
            assertThat(values(e2.getArray(1), columns.get(1).type())).containsExactly(3, 4);
            assertThat(e2.isNullAt(2)).isTrue();
        }
        // and Dovetail writes the same bytes
        Path written = new Path(dir.resolve("data-d-1.vector.json").toUri());
        try (VectorFileWriter writer =
                VectorFileFormat.JSON.create(written, columns, "zstd", 1, 1 << 20)) {
            writer.write(
                    row(new Object[] {new Float[] {0.5f, 1.25f, -3.0f}, new Integer[] {1, 2}}));
            writer.write(row(new Object[] {null, new Integer[] {3, 4}}));
            writer.write(row(new Object[] {new Float[] {1.0e-7f, 1.0e30f, 0.1f}, null}));
            writer.finish();
        }
        assertThat(Files.readString(dir.resolve("data-d-1.vector.json"), StandardCharsets.UTF_8))
                .isEqualTo(paimon);
    }

    @Test
    void theAvroSchemaIsPaimons() {
        // as found in a vector-store file Apache Paimon 1.4.2 wrote
        String paimon =
                "[\"null\",{\"type\":\"record\",\"name\":\"record\",\"namespace\":"
                        + "\"org.apache.paimon.avro.generated\",\"fields\":[{\"name\":\"emb\","
                        + "\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"float\"]}],"
                        + "\"default\":null},{\"name\":\"e2\",\"type\":[\"null\",{\"type\":"
                        + "\"array\",\"items\":[\"null\",\"int\"]}],\"default\":null}]}]";
        assertThat(
                        AvroVectorSchema.of(
                                        List.of(
                                                new DataField(
                                                        2,
                                                        "emb",
                                                        DataTypes.VECTOR(DataTypes.FLOAT(), 3),
                                                        null,
                                                        null),
                                                new DataField(
                                                        3,
                                                        "e2",
                                                        DataTypes.VECTOR(DataTypes.INT(), 2),
                                                        null,
                                                        null)))
                                .toString())
                .isEqualTo(paimon);
    }

    @Test
    void namesTellTheFormatAndUnreadableFormatsAreRefused() {
        assertThat(VectorFileFormat.ofFileName("data-a-1.vector.avro"))
                .isEqualTo(VectorFileFormat.AVRO);
        assertThat(VectorFileFormat.ofFileName("data-a-1.vector.json.zst"))
                .isEqualTo(VectorFileFormat.JSON);
        assertThatThrownBy(() -> VectorFileFormat.ofFileName("data-a-1.vector.lance"))
                .hasMessageContaining("Lance's native library");
        assertThatThrownBy(
                        () ->
                                VectorFileFormat.ofTableOptions(
                                        Map.of("vector.file.format", "vortex")))
                .hasMessageContaining("'vector.file.format' to 'avro' or 'json'");
        assertThat(VectorFileFormat.ofTableOptions(Map.of())).isNull();
    }

    private static GenericRowData row(Object[] values) {
        GenericRowData row = new GenericRowData(values.length);
        for (int i = 0; i < values.length; i++) {
            row.setField(i, values[i] == null ? null : new GenericArrayData((Object[]) values[i]));
        }
        return row;
    }

    private static List<Object> values(ArrayData array, DataType vectorType) {
        ArrayData.ElementGetter getter =
                ArrayData.createElementGetter(
                        FlinkTypes.toFlink(((VectorType) vectorType).element()));
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            out.add(getter.getElementOrNull(array, i));
        }
        return out;
    }
}
