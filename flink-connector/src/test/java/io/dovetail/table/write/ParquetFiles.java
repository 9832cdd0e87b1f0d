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
package io.dovetail.table.write;

import org.apache.flink.core.fs.Path;

import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads Parquet files back with parquet-mr's example object model, for assertions. */
final class ParquetFiles {

    private ParquetFiles() {}

    static InputFile input(Path path) {
        return io.dovetail.table.format.ParquetFiles.inputFile(
                path, new File(path.toUri()).length(), "a Parquet file under test");
    }

    static ParquetMetadata footer(Path path) throws IOException {
        try (ParquetFileReader reader =
                ParquetFileReader.open(input(path), ParquetReadOptions.builder().build())) {
            return reader.getFooter();
        }
    }

    static List<Group> rows(Path path) throws IOException {
        List<Group> rows = new ArrayList<>();
        try (ParquetReader<Group> reader = new GroupReader(input(path)).build()) {
            for (Group row = reader.read(); row != null; row = reader.read()) {
                rows.add(row);
            }
        }
        return rows;
    }

    private static final class GroupReader extends ParquetReader.Builder<Group> {
        GroupReader(InputFile file) {
            super(file);
        }

        @Override
        protected ReadSupport<Group> getReadSupport() {
            return new GroupReadSupport();
        }
    }
}
