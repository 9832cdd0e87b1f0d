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
package io.dovetail.table.path;

import io.dovetail.table.error.Errors;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Partition directory names exactly as Paimon computes them: {@code <k1>=<v1>/<k2>=<v2>/...} with
 * keys in partition-key order, values formatted per {@link PartitionValueFormat}, a null, empty or
 * blank value replaced by {@code partition.default-name}, and key and value escaped per {@link
 * PathEscaping}. Paimon recomputes this directory from the partition row every time it opens a data
 * file, so it must match byte for byte. An unpartitioned table has the empty partition path.
 */
public final class PartitionPaths {

    /** Table option: the directory name of a partition whose value is null, empty or blank. */
    public static final String DEFAULT_NAME_OPTION = "partition.default-name";

    /** Table option: partition directories use the legacy (Java toString) value strings. */
    public static final String LEGACY_NAME_OPTION = "partition.legacy-name";

    public static final String DEFAULT_NAME = "__DEFAULT_PARTITION__";
    public static final boolean LEGACY_NAME_DEFAULT = true;

    private final List<String> keys;
    private final PartitionValueFormat.Formatter[] formatters;
    private final String defaultName;

    public PartitionPaths(
            List<String> keys, List<LogicalType> types, String defaultName, boolean legacyName) {
        if (keys.size() != types.size()) {
            throw Errors.invalidArgument(
                    "Partition keys " + keys + " and their types " + types + " differ in number.");
        }
        if (defaultName == null || defaultName.isBlank()) {
            throw Errors.invalidArgument(
                    "Option " + DEFAULT_NAME_OPTION + " must not be empty or blank.");
        }
        this.keys = List.copyOf(keys);
        this.defaultName = defaultName;
        this.formatters = new PartitionValueFormat.Formatter[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            if (key == null || key.isEmpty()) {
                throw Errors.invalidArgument("Partition keys must not be empty: " + keys + ".");
            }
            formatters[i] = PartitionValueFormat.forType(key, types.get(i), legacyName);
        }
    }

    /**
     * Reads {@code partition.default-name} and {@code partition.legacy-name} from table options.
     */
    public static PartitionPaths fromOptions(
            List<String> keys, List<LogicalType> types, Map<String, String> options) {
        String legacy = options.get(LEGACY_NAME_OPTION);
        boolean legacyName = LEGACY_NAME_DEFAULT;
        if (legacy != null) {
            String normalized = legacy.trim().toLowerCase(Locale.ROOT);
            if (!normalized.equals("true") && !normalized.equals("false")) {
                throw Errors.invalidArgument(
                        "Option "
                                + LEGACY_NAME_OPTION
                                + " must be 'true' or 'false', got '"
                                + legacy
                                + "'.");
            }
            legacyName = normalized.equals("true");
        }
        return new PartitionPaths(
                keys, types, options.getOrDefault(DEFAULT_NAME_OPTION, DEFAULT_NAME), legacyName);
    }

    public List<String> keys() {
        return keys;
    }

    /** The unescaped key → value strings of a partition row, in key order. */
    public LinkedHashMap<String, String> values(RowData partition) {
        if (partition.getArity() != keys.size()) {
            throw Errors.invalidArgument(
                    "A partition row of "
                            + partition.getArity()
                            + " fields does not match the partition keys "
                            + keys
                            + ".");
        }
        LinkedHashMap<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            String value = partition.isNullAt(i) ? null : formatters[i].format(partition, i);
            values.put(keys.get(i), value == null || value.isBlank() ? defaultName : value);
        }
        return values;
    }

    /**
     * Selects the partitions that match any of {@code specs}: a partition matches a spec when it
     * has every value the spec names (values as partition directories spell them, the default
     * partition name for null); no spec selects every partition. A spec naming a column that is not
     * a partition key is a clear error.
     */
    public Predicate<RowData> matchingAny(List<Map<String, String>> specs) {
        for (Map<String, String> spec : specs) {
            if (!keys.containsAll(spec.keySet())) {
                throw Errors.invalidArgument(
                        "The partition spec "
                                + spec
                                + " names columns that are not partition keys; the table's"
                                + " partition keys are "
                                + keys
                                + ".");
            }
        }
        if (specs.isEmpty()) {
            return partition -> true;
        }
        return partition -> {
            Map<String, String> values = values(partition);
            return specs.stream().anyMatch(s -> values.entrySet().containsAll(s.entrySet()));
        };
    }

    /** The relative directory of a partition row, without the bucket; empty if unpartitioned. */
    public String path(RowData partition) {
        return path(values(partition));
    }

    /** Joins unescaped key → value strings into an escaped relative directory path. */
    public static String path(Map<String, String> values) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, String> entry : values.entrySet()) {
            if (entry.getKey() == null || entry.getKey().isEmpty()) {
                throw Errors.invalidArgument("Empty partition key in " + values + ".");
            }
            if (entry.getValue() == null || entry.getValue().isEmpty()) {
                throw Errors.invalidArgument(
                        "Empty value of partition key '" + entry.getKey() + "' in " + values + ".");
            }
            if (out.length() > 0) {
                out.append('/');
            }
            out.append(PathEscaping.escape(entry.getKey()))
                    .append('=')
                    .append(PathEscaping.escape(entry.getValue()));
        }
        return out.toString();
    }

    /**
     * Splits a relative partition path ({@code k1=v1/k2=v2}, a trailing {@code /} allowed) into
     * unescaped key → value strings in path order; the empty path gives no entries.
     */
    public static LinkedHashMap<String, String> parse(String path) {
        LinkedHashMap<String, String> values = new LinkedHashMap<>();
        if (path.isEmpty()) {
            return values;
        }
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        for (String segment : split(trimmed)) {
            int eq = segment.indexOf('=');
            if (eq <= 0 || eq == segment.length() - 1 || segment.indexOf('=', eq + 1) >= 0) {
                throw Errors.invalidArgument(
                        "Malformed partition path '"
                                + path
                                + "': segment '"
                                + segment
                                + "' is not <key>=<value> with escaped key and value.");
            }
            for (int i = 0; i < segment.length(); i++) {
                char c = segment.charAt(i);
                if (c != '=' && c != '%' && PathEscaping.needsEscape(c)) {
                    throw Errors.invalidArgument(
                            "Malformed partition path '"
                                    + path
                                    + String.format(
                                            "': segment '%s' contains the unescaped character"
                                                    + " U+%04X.",
                                            segment, (int) c));
                }
            }
            String key = PathEscaping.unescape(segment.substring(0, eq), path);
            if (values.put(key, PathEscaping.unescape(segment.substring(eq + 1), path)) != null) {
                throw Errors.invalidArgument(
                        "Malformed partition path '" + path + "': key '" + key + "' repeats.");
            }
        }
        return values;
    }

    private static List<String> split(String path) {
        List<String> segments = new ArrayList<>();
        int start = 0;
        for (int slash = path.indexOf('/'); ; slash = path.indexOf('/', start)) {
            segments.add(slash < 0 ? path.substring(start) : path.substring(start, slash));
            if (slash < 0) {
                return segments;
            }
            start = slash + 1;
        }
    }
}
