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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/** The {@code --name value} options of one action, checked against the names it accepts. */
final class ActionOptions {

    private final String action;
    private final Map<String, String> values;

    private ActionOptions(String action, Map<String, String> values) {
        this.action = action;
        this.values = values;
    }

    /**
     * Parses {@code args} (everything after the action name); an unknown, repeated or valueless
     * option is a {@link UsageException}.
     */
    static ActionOptions parse(String action, List<String> args, Set<String> accepted) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg.startsWith("--") ? arg.substring(2) : null;
            if (name == null || !accepted.contains(name)) {
                throw new UsageException(
                        (name == null ? "Unexpected argument '" : "Unknown option '")
                                + arg
                                + "' for "
                                + action
                                + "; it accepts "
                                + describe(accepted)
                                + ".");
            }
            if (i + 1 == args.size() || args.get(i + 1).startsWith("--")) {
                throw new UsageException("Option " + arg + " needs a value.");
            }
            String value = args.get(++i);
            if (value.isBlank()) {
                throw new UsageException("Option " + arg + " needs a non-empty value.");
            }
            if (values.put(name, value) != null) {
                throw new UsageException("Option " + arg + " is given more than once.");
            }
        }
        return new ActionOptions(action, values);
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    Optional<String> optional(String name) {
        return Optional.ofNullable(values.get(name));
    }

    String required(String name) {
        return optional(name)
                .orElseThrow(() -> new UsageException(action + " needs option --" + name + "."));
    }

    /** A positive integer option such as a snapshot id. */
    OptionalLong positiveLong(String name) {
        Optional<String> value = optional(name);
        if (value.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            long parsed = Long.parseLong(value.get());
            if (parsed > 0) {
                return OptionalLong.of(parsed);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(
                "Option --" + name + " must be a positive integer, got '" + value.get() + "'.");
    }

    private static String describe(Set<String> accepted) {
        if (accepted.isEmpty()) {
            return "no options";
        }
        StringBuilder out = new StringBuilder();
        for (String name : new TreeSet<>(accepted)) {
            out.append(out.length() == 0 ? "" : ", ").append("--").append(name);
        }
        return out.toString();
    }
}
