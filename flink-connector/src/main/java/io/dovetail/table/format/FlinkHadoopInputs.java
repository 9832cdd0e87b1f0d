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
import io.dovetail.table.fs.FileIO;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

import java.net.URI;

/**
 * A read-only Hadoop {@link FileSystem} over Flink's file systems, for format libraries that open
 * their input through Hadoop (ORC). It only opens files; anything else is refused.
 */
final class FlinkHadoopInputs extends FileSystem {

    private static final URI URI_ROOT = URI.create("dovetail:///");

    FlinkHadoopInputs(Configuration conf) {
        setConf(conf);
    }

    @Override
    public URI getUri() {
        return URI_ROOT;
    }

    @Override
    public FSDataInputStream open(Path path, int bufferSize) {
        return new FSDataInputStream(
                HadoopInputStream.open(
                        new org.apache.flink.core.fs.Path(path.toUri()), "a data file"));
    }

    @Override
    public FSDataOutputStream create(
            Path path,
            FsPermission permission,
            boolean overwrite,
            int bufferSize,
            short replication,
            long blockSize,
            Progressable progress) {
        throw readOnly("create", path);
    }

    @Override
    public FSDataOutputStream append(Path path, int bufferSize, Progressable progress) {
        throw readOnly("append to", path);
    }

    @Override
    public boolean rename(Path source, Path target) {
        throw readOnly("rename", source);
    }

    @Override
    public boolean delete(Path path, boolean recursive) {
        throw readOnly("delete", path);
    }

    @Override
    public FileStatus[] listStatus(Path path) {
        throw readOnly("list", path);
    }

    @Override
    public void setWorkingDirectory(Path directory) {
        throw readOnly("change directory to", directory);
    }

    @Override
    public Path getWorkingDirectory() {
        return new Path(URI_ROOT);
    }

    @Override
    public boolean mkdirs(Path path, FsPermission permission) {
        throw readOnly("create directory", path);
    }

    @Override
    public FileStatus getFileStatus(Path path) {
        org.apache.flink.core.fs.Path flinkPath = new org.apache.flink.core.fs.Path(path.toUri());
        return new FileStatus(FileIO.length(flinkPath), false, 1, 0, 0, path);
    }

    private static RuntimeException readOnly(String action, Path path) {
        return Errors.unsupported(
                "trying to "
                        + action
                        + " "
                        + path
                        + " through the read-only Hadoop view of data files",
                "This view only opens data files for reading");
    }
}
