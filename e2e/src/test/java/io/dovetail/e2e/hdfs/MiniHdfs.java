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
package io.dovetail.e2e.hdfs;

import io.dovetail.table.fs.FileIO;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.Map;

/**
 * An in-process HDFS ({@link MiniDFSCluster}: one NameNode, one DataNode, replication 1) with its
 * storage under {@code target/}, for one test class. Flink reaches it through its Hadoop file
 * system factory ({@code flink-hadoop-fs}, which {@code flink-runtime} brings): an {@code
 * hdfs://host:port} URI needs no Hadoop configuration.
 */
final class MiniHdfs implements AutoCloseable {

    /**
     * Hadoop client settings for Flink's HDFS client, given as {@code flink.hadoop.*} keys: a
     * closing file polls the NameNode for completion from 10 ms instead of 400 ms, which would
     * otherwise dominate the run time of commits (each writes several small files).
     */
    private static final Configuration CLIENT_SETTINGS =
            Configuration.fromMap(
                    Map.of(
                            "flink.hadoop.dfs.client.block.write.locateFollowingBlock.initial.delay.ms",
                            "10"));

    private final MiniDFSCluster cluster;
    private final URI uri;

    private MiniHdfs(MiniDFSCluster cluster) {
        this.cluster = cluster;
        this.uri = cluster.getURI();
    }

    /**
     * Starts a cluster in a new directory below {@code target/minidfs}, waits until it serves, and
     * resets Flink's file systems to {@link #CLIENT_SETTINGS}.
     */
    static MiniHdfs start() throws IOException {
        File target = new File("target/minidfs");
        Files.createDirectories(target.toPath());
        File base = Files.createTempDirectory(target.toPath(), "cluster-").toFile();
        org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
        conf.setInt("dfs.replication", 1);
        MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, base).numDataNodes(1).build();
        cluster.waitActive();
        FileSystem.initialize(CLIENT_SETTINGS, null);
        return new MiniHdfs(cluster);
    }

    /** {@code hdfs://localhost:<port>}. */
    URI uri() {
        return uri;
    }

    /**
     * The Flink path of {@code absolutePath} on this cluster, created as a directory from the
     * calling thread: Flink's file system (and its Hadoop configuration) is then created and cached
     * outside any job's class loader.
     */
    Path directory(String absolutePath) {
        Path path = new Path(uri.toString() + absolutePath);
        FileIO.mkdirs(path);
        return path;
    }

    /** The same directory through another authority ({@code 127.0.0.1}): a second HDFS client. */
    Path viaSecondClient(Path path) {
        return new Path("hdfs://127.0.0.1:" + uri.getPort() + path.toUri().getPath());
    }

    @Override
    public void close() {
        cluster.shutdown(true);
    }
}
