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
package io.dovetail.table.format.vector;

import io.dovetail.table.error.Errors;

import com.github.luben.zstd.ZstdInputStream;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * The compression of JSON vector-store files, which their name tells (Paimon names a compressed
 * text file {@code .json.<codec extension>}): Dovetail writes them uncompressed, since Paimon 1.4.2
 * reads compressed JSON only through Hadoop's native codecs, and reads plain, {@code .zst} and
 * {@code .gz} files.
 */
final class JsonVectorFiles {

    private JsonVectorFiles() {}

    /** {@code in} decompressed as the name {@code fileName} says. */
    static InputStream decompressed(String fileName, InputStream in) throws IOException {
        String name = fileName.toLowerCase(Locale.ROOT);
        if (name.endsWith(".json")) {
            return in;
        }
        if (name.endsWith(".json.zst")) {
            return new ZstdInputStream(in);
        }
        if (name.endsWith(".json.gz")) {
            return new GZIPInputStream(in);
        }
        throw Errors.unsupported(
                "reading JSON vector-store file " + fileName + " (its compression)",
                "Dovetail reads JSON vector-store files that are uncompressed, zstd (.zst) or"
                        + " gzip (.gz)");
    }
}
