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
package io.dovetail.flink.options;

import io.dovetail.flink.options.DovetailOptions.Scope;

import org.apache.flink.configuration.ConfigOption;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The keys {@link DovetailOptions} documents, as patterns: {@code <column>} stands for one column
 * name, {@code *} for any suffix, and {@code a / b} lists two keys. For the tests that check keys
 * found in code or docs against the options page.
 */
public final class OptionKeyPatterns {

    private OptionKeyPatterns() {}

    public static List<Pattern> ofAllScopes() {
        List<Pattern> patterns = new ArrayList<>();
        for (Scope scope : Scope.values()) {
            for (ConfigOption<?> option : DovetailOptions.of(scope)) {
                for (String key : option.key().split(" / ")) {
                    patterns.add(
                            Pattern.compile(
                                    Pattern.quote(key)
                                            .replace("<column>", "\\E[^.]+\\Q")
                                            .replace("*", "\\E.+\\Q")));
                }
            }
        }
        return patterns;
    }
}
