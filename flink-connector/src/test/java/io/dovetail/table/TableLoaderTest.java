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
package io.dovetail.table;

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.testing.DataEvolutionTables;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.core.fs.Path;
import org.apache.flink.util.InstantiationUtil;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A loader travels in a job graph and opens its table where the job runs. */
class TableLoaderTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void aSerializedLoaderOpensTheSameTable() throws Exception {
        TablePaths paths = new TablePaths(new Path(dir.toUri()));
        DataEvolutionTables.create(
                TableStore.at(paths), new DataField(0, "id", DataTypes.BIGINT()));
        TableLoader loader = TableLoader.of(paths);

        TableLoader shipped =
                InstantiationUtil.clone(loader, TableLoaderTest.class.getClassLoader());

        assertThat(shipped).isEqualTo(loader).isEqualTo(TableLoader.at(loader.location()));
        assertThat(shipped.location()).isEqualTo(paths.root().toString());
        assertThat(shipped.open().latestSchema().fields())
                .extracting(DataField::name)
                .containsExactly("id");
    }

    @Test
    void aDirectoryWithoutTableIsAClearErrorWhenOpened() {
        TableLoader loader = TableLoader.of(new TablePaths(new Path(dir.resolve("none").toUri())));
        assertThatThrownBy(loader::open)
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("no schema files");
    }
}
