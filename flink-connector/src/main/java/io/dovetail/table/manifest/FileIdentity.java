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

import javax.annotation.Nullable;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The identity under which ADD and DELETE manifest entries of one data file match: partition bytes
 * (compared byte for byte), bucket, level, file name, extra files, embedded index bytes and
 * external path.
 */
public final class FileIdentity {

    private final byte[] partition;
    private final int bucket;
    private final int level;
    private final String fileName;
    private final List<String> extraFiles;
    @Nullable private final byte[] embeddedIndex;
    @Nullable private final String externalPath;

    FileIdentity(
            byte[] partition,
            int bucket,
            int level,
            String fileName,
            List<String> extraFiles,
            @Nullable byte[] embeddedIndex,
            @Nullable String externalPath) {
        this.partition = partition;
        this.bucket = bucket;
        this.level = level;
        this.fileName = fileName;
        this.extraFiles = extraFiles;
        this.embeddedIndex = embeddedIndex;
        this.externalPath = externalPath;
    }

    public String fileName() {
        return fileName;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof FileIdentity)) {
            return false;
        }
        FileIdentity that = (FileIdentity) o;
        return bucket == that.bucket
                && level == that.level
                && fileName.equals(that.fileName)
                && Arrays.equals(partition, that.partition)
                && extraFiles.equals(that.extraFiles)
                && Arrays.equals(embeddedIndex, that.embeddedIndex)
                && Objects.equals(externalPath, that.externalPath);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fileName, bucket, level, Arrays.hashCode(partition));
    }

    @Override
    public String toString() {
        return fileName
                + " (partition "
                + HexFormat.of().formatHex(partition)
                + ", bucket "
                + bucket
                + ", level "
                + level
                + (externalPath == null ? "" : ", external path " + externalPath)
                + ")";
    }
}
