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
package io.dovetail.table.format;

import io.dovetail.table.error.Errors;

import org.apache.flink.core.fs.Path;

import org.apache.hadoop.conf.Configuration;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;

import java.io.IOException;

/** Opens ORC data files stored on any Flink file system. */
public final class OrcFiles {

    private OrcFiles() {}

    /**
     * An ORC reader of the data file {@code path} of {@code length} bytes; the caller closes it.
     */
    public static Reader open(Path path, long length) {
        Configuration conf = new Configuration(false);
        OrcFile.ReaderOptions options =
                OrcFile.readerOptions(conf)
                        .filesystem(new FlinkHadoopInputs(conf))
                        .maxLength(length);
        try {
            return OrcFile.createReader(new org.apache.hadoop.fs.Path(path.toUri()), options);
        } catch (IOException e) {
            throw Errors.io("open ORC data file", path, e);
        }
    }
}
