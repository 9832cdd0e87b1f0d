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
package io.dovetail.packaging;

import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Files of the repository, for tests run from a module directory, and their YAML as maps. */
final class RepositoryFiles {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    private RepositoryFiles() {}

    static String read(String file) throws IOException {
        return Files.readString(ROOT.resolve(file));
    }

    static Map<String, Object> yaml(String file) throws IOException {
        return map(new Load(LoadSettings.builder().build()).loadFromString(read(file)));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object yaml) {
        assertThat(yaml).isInstanceOf(Map.class);
        return (Map<String, Object>) yaml;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object yaml) {
        assertThat(yaml).isInstanceOf(List.class);
        return (List<Object>) yaml;
    }
}
