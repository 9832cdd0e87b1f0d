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
package io.dovetail.table.fs;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;

import static org.assertj.core.api.Assertions.assertThat;

class FileIOListingTest {

    @TempDir java.nio.file.Path dir;

    @Test
    void missingDirectoryListsAsEmpty() {
        Path missing = new Path(dir.toString(), "nope");
        assertThat(FileIO.list(missing)).isEmpty();
        assertThat(FileIO.listNames(missing)).isEmpty();
    }

    @Test
    void namesAreKeptLiterallyIncludingWhiteSpaceAndPercent() throws Exception {
        Files.createDirectory(dir.resolve(" k= v "));
        Files.writeString(dir.resolve("a%2Fb"), "x");

        assertThat(FileIO.listNames(new Path(dir.toString())))
                .containsExactlyInAnyOrder(" k= v ", "a%2Fb");
        assertThat(FileIO.list(new Path("file:" + dir)))
                .extracting(FileStatus::getPath)
                .extracting(Path::getName)
                .containsExactlyInAnyOrder(" k= v ", "a%2Fb");
        Path spaced = ChildPaths.below(new Path(dir.toString()), " k= v ");
        assertThat(FileIO.exists(spaced)).isTrue();
        assertThat(FileIO.list(spaced)).isEmpty();
    }
}
