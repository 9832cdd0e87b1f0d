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
package org.apache.flink.python.util;

import org.apache.flink.configuration.Configuration;

import org.apache.commons.cli.CommandLine;

/**
 * The one method of flink-python that Flink's SQL client calls, by reflection, whatever its command
 * line: it reads the Python options ({@code -pyfs}, {@code -pyexec}, ...). bin/dovetail-sql runs no
 * Python and passes none, so it answers with no configuration instead of putting the 42 MB
 * flink-python jar (Beam, Py4J) on the launcher's classpath.
 */
public final class PythonDependencyUtils {

    private PythonDependencyUtils() {}

    public static Configuration parsePythonDependencyConfiguration(CommandLine commandLine) {
        return new Configuration();
    }
}
