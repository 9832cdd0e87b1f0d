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
package io.dovetail.actions;

import org.apache.flink.core.fs.Path;

import java.nio.file.Paths;
import java.util.regex.Pattern;

/** Turns a command-line location into a path: a URI with a scheme as given, else a local path. */
final class Locations {

    private static final Pattern URI_WITH_SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]+:/.*");

    private Locations() {}

    /**
     * A {@code scheme:/...} URI unchanged; any other string as a local path from the working dir.
     */
    static Path toPath(String location) {
        if (URI_WITH_SCHEME.matcher(location).matches()) {
            return new Path(location);
        }
        return new Path("file", null, Paths.get(location).toAbsolutePath().normalize().toString());
    }
}
