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

import java.nio.charset.StandardCharsets;

/**
 * Validation of database and table names, which become directory names of the warehouse ({@code
 * <db>.db/<table>/}). A valid name is exactly one directory level: it can never address a parent, a
 * sibling or a hidden file.
 */
public final class CatalogNames {

    /** Longest directory name most file systems accept, in UTF-8 bytes. */
    private static final int MAX_NAME_BYTES = 255;

    private CatalogNames() {}

    /** Returns {@code name} if it is a valid database name, else throws naming the problem. */
    public static String checkDatabaseName(String name) {
        return check("database", name, MAX_NAME_BYTES - Warehouse.DATABASE_DIR_SUFFIX.length());
    }

    /** Returns {@code name} if it is a valid table name, else throws naming the problem. */
    public static String checkTableName(String name) {
        return check("table", name, MAX_NAME_BYTES);
    }

    private static String check(String kind, String name, int maxBytes) {
        String problem = problem(name, maxBytes);
        if (problem != null) {
            throw Errors.invalidArgument(
                    "Invalid " + kind + " name " + quote(name) + ": " + problem + ".");
        }
        return name;
    }

    private static String problem(String name, int maxBytes) {
        if (name == null) {
            return "the name is missing";
        }
        if (name.isBlank()) {
            return "the name is empty or blank";
        }
        if (name.equals(".") || name.equals("..")) {
            return "'.' and '..' address the current or the parent directory";
        }
        if (name.startsWith(".")) {
            return "names starting with '.' are reserved for hidden and temporary files";
        }
        if (!name.strip().equals(name)) {
            return "the name starts or ends with white space";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\') {
                return "it contains the path separator '" + c + "'";
            }
            if (c == ':') {
                return "it contains ':', which paths read as a scheme or drive";
            }
            if (c < 0x20 || c == 0x7F) {
                return String.format("it contains the control character U+%04X", (int) c);
            }
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            return "it is longer than " + maxBytes + " bytes in UTF-8";
        }
        return null;
    }

    private static String quote(String name) {
        if (name == null) {
            return "<null>";
        }
        StringBuilder out = new StringBuilder("'");
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                out.append(String.format("\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('\'').toString();
    }
}
