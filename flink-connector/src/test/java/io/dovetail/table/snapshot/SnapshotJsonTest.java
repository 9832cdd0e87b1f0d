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
package io.dovetail.table.snapshot;

import io.dovetail.table.error.DovetailException;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotJsonTest {

    /** Snapshot 3 of a DE table written by Paimon 1.4.2 (metadata spec §3.1), byte for byte. */
    static final String PAIMON_SNAPSHOT_3 =
            "{\n"
                    + "  \"version\" : 3,\n"
                    + "  \"id\" : 3,\n"
                    + "  \"schemaId\" : 0,\n"
                    + "  \"baseManifestList\" :"
                    + " \"manifest-list-014aff11-25e2-4763-a5c0-c6b30f2badaf-0\",\n"
                    + "  \"baseManifestListSize\" : 1169,\n"
                    + "  \"deltaManifestList\" :"
                    + " \"manifest-list-014aff11-25e2-4763-a5c0-c6b30f2badaf-1\",\n"
                    + "  \"deltaManifestListSize\" : 1121,\n"
                    + "  \"commitUser\" : \"7dadbbbb-8feb-4178-9986-6bd2d45f42d9\",\n"
                    + "  \"commitIdentifier\" : 9223372036854775807,\n"
                    + "  \"commitKind\" : \"APPEND\",\n"
                    + "  \"timeMillis\" : 1796088725126,\n"
                    + "  \"totalRecordCount\" : 11,\n"
                    + "  \"deltaRecordCount\" : 3,\n"
                    + "  \"nextRowId\" : 8\n"
                    + "}";

    @Test
    void paimonSnapshotReserializesByteIdentically() {
        Snapshot s = SnapshotJson.fromBytes(utf8(PAIMON_SNAPSHOT_3), "snapshot-3");

        assertThat(s.id()).isEqualTo(3);
        assertThat(s.schemaId()).isZero();
        assertThat(s.baseManifestListSize()).isEqualTo(1169L);
        assertThat(s.deltaManifestList())
                .isEqualTo("manifest-list-014aff11-25e2-4763-a5c0-c6b30f2badaf-1");
        assertThat(s.commitIdentifier()).isEqualTo(Long.MAX_VALUE);
        assertThat(s.commitKind()).isEqualTo(CommitKind.APPEND);
        assertThat(s.totalRecordCount()).isEqualTo(11);
        assertThat(s.nextRowId()).isEqualTo(8L);
        assertThat(s.changelogManifestList()).isNull();
        assertThat(s.watermark()).isNull();
        assertThat(s.properties()).isEmpty();
        assertThat(new String(SnapshotJson.toBytes(s), StandardCharsets.UTF_8))
                .isEqualTo(PAIMON_SNAPSHOT_3);
    }

    @Test
    void everyOptionalKeyIsWrittenInPaimonOrder() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("z", "1");
        properties.put("a", "2");
        Snapshot s =
                SnapshotJson.fromBytes(utf8(PAIMON_SNAPSHOT_3), "snapshot-3").toBuilder()
                        .changelogManifestList("manifest-list-c")
                        .changelogManifestListSize(7L)
                        .indexManifest("index-manifest-i")
                        .changelogRecordCount(4L)
                        .watermark(Long.MIN_VALUE)
                        .statistics("stat-s")
                        .properties(properties)
                        .build();

        String json = new String(SnapshotJson.toBytes(s), StandardCharsets.UTF_8);

        assertThat(json)
                .containsSubsequence(
                        "\"version\"",
                        "\"id\"",
                        "\"schemaId\"",
                        "\"baseManifestList\"",
                        "\"baseManifestListSize\"",
                        "\"deltaManifestList\"",
                        "\"deltaManifestListSize\"",
                        "\"changelogManifestList\"",
                        "\"changelogManifestListSize\"",
                        "\"indexManifest\"",
                        "\"commitUser\"",
                        "\"commitIdentifier\"",
                        "\"commitKind\"",
                        "\"timeMillis\"",
                        "\"totalRecordCount\"",
                        "\"deltaRecordCount\"",
                        "\"changelogRecordCount\"",
                        "\"watermark\" : -9223372036854775808",
                        "\"statistics\"",
                        "\"properties\" : {\n    \"z\" : \"1\",\n    \"a\" : \"2\"\n  },",
                        "\"nextRowId\"");
        assertThat(SnapshotJson.fromBytes(utf8(json), "f")).isEqualTo(s);
    }

    @Test
    void unknownKeysOfNewerPaimonAreIgnored() {
        String master =
                PAIMON_SNAPSHOT_3
                        .replace("\"id\"", "\"uuid\" : \"u-1\",\n  \"id\"")
                        .replace(
                                "\"commitIdentifier\"",
                                "\"writerVersion\" : 2,\n  \"commitIdentifier\"")
                        .replace(
                                "\"nextRowId\" : 8",
                                "\"nextRowId\" : 8,\n  \"operation\" : \"MERGE\"");

        Snapshot s = SnapshotJson.fromBytes(utf8(master), "snapshot-3");

        assertThat(s).isEqualTo(SnapshotJson.fromBytes(utf8(PAIMON_SNAPSHOT_3), "snapshot-3"));
    }

    @Test
    void explicitNullOptionalKeysReadAsAbsent() {
        String json = PAIMON_SNAPSHOT_3.replace("\"nextRowId\" : 8", "\"nextRowId\" : null");
        assertThat(SnapshotJson.fromBytes(utf8(json), "f").nextRowId()).isNull();
    }

    @Test
    void otherVersionsAreRefused() {
        assertCorrupt(
                PAIMON_SNAPSHOT_3.replace("\"version\" : 3", "\"version\" : 4"),
                "unsupported snapshot version 4");
        assertCorrupt(
                PAIMON_SNAPSHOT_3.replace("\"version\" : 3", "\"version\" : 1"),
                "unsupported snapshot version 1");
    }

    @Test
    void missingAlwaysPresentKeysAreRefused() {
        for (String key :
                new String[] {
                    "version",
                    "id",
                    "schemaId",
                    "baseManifestList",
                    "deltaManifestList",
                    "commitUser",
                    "commitIdentifier",
                    "commitKind",
                    "timeMillis",
                    "totalRecordCount",
                    "deltaRecordCount"
                }) {
            String json = PAIMON_SNAPSHOT_3.replace("\"" + key + "\" :", "\"_" + key + "\" :");
            assertCorrupt(json, "the required key '" + key + "' is missing");
        }
        assertCorrupt(
                PAIMON_SNAPSHOT_3.replace(
                        "\"commitUser\" : \"7dadbbbb-8feb-4178-9986-6bd2d45f42d9\"",
                        "\"commitUser\" : null"),
                "the required key 'commitUser' is missing");
    }

    @Test
    void truncatedEmptyAndMistypedContentIsRefused() {
        for (int cut :
                new int[] {1, 40, PAIMON_SNAPSHOT_3.length() / 2, PAIMON_SNAPSHOT_3.length() - 1}) {
            assertCorrupt(PAIMON_SNAPSHOT_3.substring(0, cut), "not valid JSON");
        }
        assertCorrupt("", "empty");
        assertCorrupt("[1,2]", "expected a JSON object");
        assertCorrupt(
                PAIMON_SNAPSHOT_3.replace("\"id\" : 3", "\"id\" : \"3\""),
                "the value of 'id' is not a 64-bit integer");
        assertCorrupt(
                PAIMON_SNAPSHOT_3.replace("\"id\" : 3", "\"id\" : 3.5"),
                "the value of 'id' is not a 64-bit integer");
        assertCorrupt(
                PAIMON_SNAPSHOT_3.replace("9223372036854775807", "9223372036854775808"),
                "the value of 'commitIdentifier' is not a 64-bit integer");
        assertCorrupt(
                PAIMON_SNAPSHOT_3.replace("\"APPEND\"", "\"MERGE\""), "unknown commitKind 'MERGE'");
        assertCorrupt(
                PAIMON_SNAPSHOT_3.replace("\"nextRowId\" : 8", "\"nextRowId\" : -8"), "nextRowId");
        assertCorrupt(
                PAIMON_SNAPSHOT_3.replace("\"nextRowId\" : 8", "\"properties\" : {\"a\" : 1}"),
                "the value of 'properties.a' is not a string");
    }

    private static void assertCorrupt(String json, String problem) {
        assertThatThrownBy(() -> SnapshotJson.fromBytes(utf8(json), "/t/snapshot/snapshot-3"))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("/t/snapshot/snapshot-3")
                .hasMessageContaining(problem)
                .satisfies(
                        e ->
                                assertThat(((DovetailException) e).kind())
                                        .isEqualTo(DovetailException.Kind.CORRUPT_METADATA));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
