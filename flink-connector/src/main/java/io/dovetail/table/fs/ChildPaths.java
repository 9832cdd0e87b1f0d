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

import io.dovetail.table.error.Errors;

import org.apache.flink.core.fs.Path;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Joins a relative path below a parent without re-parsing it as a path string: Flink's {@code
 * Path(String)} trims white space, which can be part of a file or partition directory name.
 */
public final class ChildPaths {

    private ChildPaths() {}

    /** {@code parent/relative}; {@code relative} is taken literally ('/' separates levels). */
    public static Path below(Path parent, String relative) {
        URI uri = parent.toUri();
        String path = uri.getPath();
        String joined =
                path.isEmpty() || path.endsWith("/") ? path + relative : path + "/" + relative;
        try {
            return new Path(new URI(uri.getScheme(), uri.getAuthority(), joined, null, null));
        } catch (URISyntaxException e) {
            throw Errors.invalidArgument(
                    "Cannot place '" + relative + "' below " + parent + ": " + e.getMessage());
        }
    }
}
