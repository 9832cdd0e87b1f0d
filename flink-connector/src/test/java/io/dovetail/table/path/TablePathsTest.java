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
package io.dovetail.table.path;

import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TablePathsTest {

    private final TablePaths table = new TablePaths(new Path("/w/db.db/t"));

    @Test
    void metadataLocations() {
        assertThat(table.schemaFile(0).toString()).isEqualTo("/w/db.db/t/schema/schema-0");
        assertThat(table.snapshotFile(12).toString()).isEqualTo("/w/db.db/t/snapshot/snapshot-12");
        assertThat(table.latestHint().toString()).isEqualTo("/w/db.db/t/snapshot/LATEST");
        assertThat(table.earliestHint().toString()).isEqualTo("/w/db.db/t/snapshot/EARLIEST");
        assertThat(table.manifestFile("manifest-list-abc-0").toString())
                .isEqualTo("/w/db.db/t/manifest/manifest-list-abc-0");
        assertThat(table.indexFile("index-abc-1").toString())
                .isEqualTo("/w/db.db/t/index/index-abc-1");
    }

    @Test
    void bucketAndDataFileLocations() {
        assertThat(table.bucketDir("", TablePaths.UNAWARE_BUCKET).toString())
                .isEqualTo("/w/db.db/t/bucket-0");
        assertThat(table.bucketDir("part=a%2Fb%3Dc/dpart=1", 0).toString())
                .isEqualTo("/w/db.db/t/part=a%2Fb%3Dc/dpart=1/bucket-0");
        Path data = table.dataFile("p=x", 0, "data-u-0.parquet");
        assertThat(data.toString()).isEqualTo("/w/db.db/t/p=x/bucket-0/data-u-0.parquet");
        assertThat(data.getParent().getParent().getName()).isEqualTo("p=x");
    }

    @Test
    void escapedPartitionDirectoryKeepsItsLiteralNameOnDisk() {
        Path bucket = table.bucketDir("part=a%2Fb%3Dc", 0);
        assertThat(bucket.getParent().getName()).isEqualTo("part=a%2Fb%3Dc");
        assertThat(bucket.toUri().getPath()).isEqualTo("/w/db.db/t/part=a%2Fb%3Dc/bucket-0");
    }

    @Test
    void refusesNamesThatLeaveTheirDirectory() {
        assertThatThrownBy(() -> table.manifestFile("../x")).hasMessageContaining("'../x'");
        assertThatThrownBy(() -> table.indexFile("..")).hasMessageContaining("plain path");
        assertThatThrownBy(() -> table.dataFile("p=1", 0, "")).hasMessageContaining("''");
        assertThatThrownBy(() -> table.bucketDir("../p=1", 0))
                .hasMessageContaining("Malformed partition path '../p=1'");
        assertThatThrownBy(() -> table.bucketDir("p=1//q=2", 0))
                .hasMessageContaining("Malformed partition path");
        assertThatThrownBy(() -> table.bucketDir("p=1", -1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> table.snapshotFile(0)).hasMessageContaining("start at 1");
        assertThatThrownBy(() -> table.schemaFile(-1)).hasMessageContaining("start at 0");
    }
}
