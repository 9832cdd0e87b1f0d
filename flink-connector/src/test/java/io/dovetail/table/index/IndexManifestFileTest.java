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
package io.dovetail.table.index;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.manifest.AvroCodec;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.WrittenFile;

import org.apache.flink.core.fs.Path;

import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IndexManifestFileTest {

    private static final String SCHEMA_TEXT =
            "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":["
                    + "{\"name\":\"_VERSION\",\"type\":\"int\"},"
                    + "{\"name\":\"_KIND\",\"type\":\"int\"},"
                    + "{\"name\":\"_PARTITION\",\"type\":\"bytes\"},"
                    + "{\"name\":\"_BUCKET\",\"type\":\"int\"},"
                    + "{\"name\":\"_INDEX_TYPE\",\"type\":\"string\"},"
                    + "{\"name\":\"_FILE_NAME\",\"type\":\"string\"},"
                    + "{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},"
                    + "{\"name\":\"_ROW_COUNT\",\"type\":\"long\"},"
                    + "{\"name\":\"_DELETIONS_VECTORS_RANGES\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",{\"type\":\"record\",\"name\":\"record__DELETIONS_VECTORS_RANGES\",\"fields\":["
                    + "{\"name\":\"f0\",\"type\":\"string\"},"
                    + "{\"name\":\"f1\",\"type\":\"int\"},"
                    + "{\"name\":\"f2\",\"type\":\"int\"},"
                    + "{\"name\":\"_CARDINALITY\",\"type\":[\"null\",\"long\"],\"default\":null}]}]}],\"default\":null},"
                    + "{\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],\"default\":null},"
                    + "{\"name\":\"_GLOBAL_INDEX\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"record__GLOBAL_INDEX\",\"fields\":["
                    + "{\"name\":\"_ROW_RANGE_START\",\"type\":\"long\"},"
                    + "{\"name\":\"_ROW_RANGE_END\",\"type\":\"long\"},"
                    + "{\"name\":\"_INDEX_FIELD_ID\",\"type\":\"int\"},"
                    + "{\"name\":\"_EXTRA_FIELD_IDS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"int\"}],\"default\":null},"
                    + "{\"name\":\"_INDEX_META\",\"type\":[\"null\",\"bytes\"],\"default\":null}]}],\"default\":null}]}";

    @TempDir java.nio.file.Path tempDir;

    private final IndexManifestEntry dv =
            new IndexManifestEntry(
                    FileKind.ADD,
                    BinaryRowCodec.emptyRow(),
                    0,
                    new IndexFileMeta(
                            DeletionVectorIndexFile.INDEX_TYPE,
                            "index-abc-0",
                            35,
                            2,
                            List.of(
                                    new DeletionVectorMeta("data-1.parquet", 1, 26, 3L),
                                    new DeletionVectorMeta("data-2.parquet", 35, 20, null)),
                            null,
                            null));

    private final IndexManifestEntry global =
            new IndexManifestEntry(
                    FileKind.ADD,
                    BinaryRowCodec.emptyRow(),
                    0,
                    new IndexFileMeta(
                            "BTREE",
                            "index-def-1",
                            1000,
                            500,
                            null,
                            "s3://bucket/idx/index-def-1",
                            new GlobalIndexMeta(0, 499, 3, List.of(4, 5), new byte[] {1, 2})));

    @Test
    void entriesRoundTripWithPaimonSchema() throws IOException {
        Path dir = new Path(tempDir.toUri());

        WrittenFile file =
                new IndexManifestFile(dir, AvroCodec.ZSTANDARD).write(List.of(dv, global));

        assertThat(file.fileName()).matches("index-manifest-[0-9a-f-]{36}-\\d+");
        File written = tempDir.resolve(file.fileName()).toFile();
        assertThat(file.fileSize()).isEqualTo(written.length());
        try (DataFileReader<GenericRecord> reader =
                new DataFileReader<>(written, new GenericDatumReader<>())) {
            assertThat(reader.getMetaString("avro.schema"))
                    .isEqualTo(new Schema.Parser().parse(SCHEMA_TEXT).toString());
        }
        List<IndexManifestEntry> read =
                IndexManifestFile.read(new Path(dir, file.fileName()), file.fileSize());
        assertThat(read).containsExactly(dv, global);
        assertThat(read.get(1).indexFile().globalIndex().indexMeta()).containsExactly(1, 2);
        assertThat(read.get(1).indexFile().path(dir))
                .isEqualTo(new Path("s3://bucket/idx/index-def-1"));
    }

    @Test
    void otherVersionsAndNullRangesAreCorrupt() throws IOException {
        GenericRecord v2 = IndexManifestAvro.toRecord(dv);
        v2.put("_VERSION", 2);
        GenericRecord nullRange = IndexManifestAvro.toRecord(dv);
        nullRange.put("_DELETIONS_VECTORS_RANGES", Arrays.asList(null, null));

        File v2File = writeRaw(v2);
        File nullFile = writeRaw(nullRange);

        assertThatThrownBy(() -> IndexManifestFile.read(new Path(v2File.toURI()), null))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining(v2File.getName())
                .hasMessageContaining("_VERSION is 2");
        assertThatThrownBy(() -> IndexManifestFile.read(new Path(nullFile.toURI()), null))
                .hasMessageContaining("null element at 0");
    }

    @Test
    void duplicateDataFilesInOneIndexFileAreRejected() {
        assertThatThrownBy(
                        () ->
                                new IndexFileMeta(
                                        "DELETION_VECTORS",
                                        "index-x",
                                        10,
                                        2,
                                        List.of(
                                                new DeletionVectorMeta("d", 1, 5, 1L),
                                                new DeletionVectorMeta("d", 14, 5, 1L)),
                                        null,
                                        null))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("two deletion vectors for data file d");
    }

    private File writeRaw(GenericRecord record) throws IOException {
        File file = tempDir.resolve("index-manifest-raw-" + System.nanoTime()).toFile();
        try (DataFileWriter<GenericRecord> writer =
                new DataFileWriter<>(new GenericDatumWriter<>(IndexManifestAvro.SCHEMA))) {
            writer.create(IndexManifestAvro.SCHEMA, file);
            writer.append(record);
        }
        return file;
    }
}
