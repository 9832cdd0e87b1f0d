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
package io.dovetail.table.manifest;

import io.dovetail.table.error.DovetailException;

import org.apache.flink.core.fs.Path;

import org.apache.avro.Schema;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;

import static io.dovetail.table.manifest.ManifestFilesTest.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Files written by other Paimon versions or damaged: fields are mapped by name, and anything the
 * reader cannot trust fails with an error naming the file.
 */
class ManifestReaderCompatibilityTest {

    private static final String FIRST_ROW_ID =
            ",{\"name\":\"_FIRST_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null}";
    private static final String WRITE_COLS =
            ",{\"name\":\"_WRITE_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],\"default\":null}";

    @TempDir java.nio.file.Path tempDir;

    /** A partial-column file entry: it has a first row id and write columns. */
    private final ManifestEntry sample = partialColumnEntry();

    @Test
    void extraFieldsOfNewerWritersAreIgnored() {
        String schema =
                schemaText()
                        .replace(
                                WRITE_COLS,
                                WRITE_COLS
                                        + ",{\"name\":\"_WRITE_COLS_SEQUENCES\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"long\"}],\"default\":null}");
        File file = write(schema, r -> putFileField(r, "_WRITE_COLS_SEQUENCES", List.of(3L, 4L)));

        assertThat(ManifestFileReader.readFile(path(file), file.length())).containsExactly(sample);
    }

    @Test
    void missingNullableFieldsOfOlderWritersReadAsNull() {
        String schema = schemaText().replace(FIRST_ROW_ID, "").replace(WRITE_COLS, "");
        File file = write(schema, r -> r);

        ManifestEntry read = ManifestFileReader.readFile(path(file), null).get(0);

        assertThat(read.file().firstRowId()).isNull();
        assertThat(read.file().writeCols()).isNull();
        assertThat(read.file().toBuilder().firstRowId(42L).writeCols(List.of("name")).build())
                .isEqualTo(sample.file());
    }

    @Test
    void missingRequiredFieldIsAnError() {
        String schema = schemaText().replace("{\"name\":\"_LEVEL\",\"type\":\"int\"},", "");
        File file = write(schema, r -> r);

        assertThatThrownBy(() -> ManifestFileReader.readFile(path(file), null))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(file.getName())
                .hasMessageContaining("required field _FILE._LEVEL is missing");
    }

    @Test
    void unionWithNullSecondIsRejected() {
        String schema =
                schemaText()
                        .replace(
                                FIRST_ROW_ID,
                                FIRST_ROW_ID
                                        .replace("[\"null\",\"long\"]", "[\"long\",\"null\"]")
                                        .replace(",\"default\":null", ""));
        File file = write(schema, r -> r);

        assertThatThrownBy(() -> ManifestFileReader.readFile(path(file), null))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(file.getName())
                .hasMessageContaining("_FILE._FIRST_ROW_ID must be a [\"null\", T] union");
    }

    @Test
    void creationTimeWithoutLogicalTypeIsRejected() {
        String schema =
                schemaText()
                        .replace(
                                "{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}",
                                "\"long\"");
        File file = write(schema, r -> r);

        assertThatThrownBy(() -> ManifestFileReader.readFile(path(file), null))
                .hasMessageContaining(
                        "_FILE._CREATION_TIME must have logical type timestamp-millis");
    }

    @Test
    void wrongPrimitiveKindIsRejected() {
        String schema =
                schemaText()
                        .replace(
                                "{\"name\":\"_BUCKET\",\"type\":\"int\"}",
                                "{\"name\":\"_BUCKET\",\"type\":\"long\"}");
        File file = write(schema, r -> put(r, "_BUCKET", 0L));

        assertThatThrownBy(() -> ManifestFileReader.readFile(path(file), null))
                .hasMessageContaining("_BUCKET must be \"int\"");
    }

    @Test
    void otherVersionsAreRejected() {
        File v1 = write(schemaText(), r -> put(r, "_VERSION", 1));
        File v3 = write(schemaText(), r -> put(r, "_VERSION", 3));

        assertThatThrownBy(() -> ManifestFileReader.readFile(path(v1), null))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(v1.getName())
                .hasMessageContaining("_VERSION is 1")
                .hasMessageContaining("recreated");
        assertThatThrownBy(() -> ManifestFileReader.readFile(path(v3), null))
                .hasMessageContaining("_VERSION is 3");
    }

    @Test
    void impossibleValuesAreCorruption() {
        File kind = write(schemaText(), r -> put(r, "_KIND", 5));
        File size = write(schemaText(), r -> putFileField(r, "_FILE_SIZE", -1L));
        File partition =
                write(
                        schemaText(),
                        r -> put(r, "_PARTITION", java.nio.ByteBuffer.wrap(new byte[3])));

        assertThatThrownBy(() -> ManifestFileReader.readFile(path(kind), null))
                .hasMessageContaining("unknown entry kind 5");
        assertThatThrownBy(() -> ManifestFileReader.readFile(path(size), null))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(size.getName())
                .hasMessageContaining("negative file size");
        assertThatThrownBy(() -> ManifestFileReader.readFile(path(partition), null))
                .hasMessageContaining("_PARTITION")
                .hasMessageContaining("fewer than the arity");
    }

    @Test
    void truncatedOrResizedFilesAreCorrupt() throws IOException {
        List<ManifestFileMeta> metas =
                new ManifestFileWriter(
                                new Path(tempDir.toUri()),
                                RandomManifests.PARTITION_TYPES,
                                AvroCodec.NULL,
                                1 << 20)
                        .write(List.of(sample, sample));
        ManifestFileMeta meta = metas.get(0);
        java.nio.file.Path file = tempDir.resolve(meta.fileName());
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 20));

        assertThatThrownBy(() -> ManifestFileReader.read(new Path(tempDir.toUri()), meta))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(meta.fileName())
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> ManifestFileReader.readFile(new Path(file.toUri()), null))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(meta.fileName())
                .hasMessageContaining("truncated");

        Files.write(file, bytes);
        assertThatThrownBy(
                        () ->
                                ManifestFileReader.readFile(
                                        new Path(file.toUri()), meta.fileSize() - 1))
                .hasMessageContaining("longer than");
        Files.write(file, "not avro at all".getBytes());
        assertThatThrownBy(() -> ManifestFileReader.readFile(new Path(file.toUri()), null))
                .hasMessageContaining(meta.fileName());
    }

    @Test
    void missingFileIsReportedAsMissing() {
        assertThatThrownBy(
                        () ->
                                ManifestListReader.read(
                                        new Path(tempDir.resolve("manifest-list-gone-0").toUri()),
                                        10L))
                .isInstanceOf(DovetailException.class)
                .satisfies(
                        e ->
                                assertThat(((DovetailException) e).kind())
                                        .isEqualTo(DovetailException.Kind.MISSING_FILE));
    }

    private static ManifestEntry partialColumnEntry() {
        ManifestEntry base = entry(FileKind.ADD, "a", 1, "data-1.parquet", 42L);
        return new ManifestEntry(
                base.kind(),
                base.partition(),
                base.bucket(),
                base.totalBuckets(),
                base.file().toBuilder().writeCols(List.of("name")).build());
    }

    private static String schemaText() {
        return ManifestEntryAvro.SCHEMA.toString();
    }

    private Path path(File file) {
        return new Path(file.toURI());
    }

    /** Writes the sample under a variant schema, copying fields by name, then edits it. */
    private File write(String schemaJson, java.util.function.UnaryOperator<GenericRecord> edit) {
        Schema schema = new Schema.Parser().parse(schemaJson);
        assertThat(schema.toString()).isEqualTo(schemaJson);
        GenericRecord record = edit.apply(convert(ManifestEntryAvro.toRecord(sample), schema));
        File file = tempDir.resolve("manifest-variant-" + System.nanoTime()).toFile();
        try (DataFileWriter<GenericRecord> writer =
                new DataFileWriter<>(new GenericDatumWriter<>(schema))) {
            writer.create(schema, file);
            writer.append(record);
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
        return file;
    }

    private static GenericRecord convert(GenericRecord source, Schema target) {
        GenericRecord result = new GenericData.Record(target);
        for (Schema.Field field : target.getFields()) {
            Schema.Field sourceField = source.getSchema().getField(field.name());
            if (sourceField == null) {
                continue;
            }
            Object value = source.get(field.name());
            Schema targetType = field.schema();
            if (targetType.getType() == Schema.Type.RECORD) {
                value = convert((GenericRecord) value, targetType);
            }
            result.put(field.name(), value);
        }
        return result;
    }

    private static GenericRecord put(GenericRecord record, String field, Object value) {
        record.put(field, value);
        return record;
    }

    private static GenericRecord putFileField(GenericRecord record, String field, Object value) {
        ((GenericRecord) record.get("_FILE")).put(field, value);
        return record;
    }
}
