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

/**
 * Paimon's escaping of partition keys and values in directory names: every character in
 * U+0000..U+001F, U+007F or {@code " # % ' * / : = ? \ { } [ ] ^} becomes {@code %} and two
 * upper-case hex digits; everything else (including non-ASCII) is kept.
 */
final class PathEscaping {

    private static final String SPECIAL = "\"#%'*/:=?\\{}[]^";
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PathEscaping() {}

    static boolean needsEscape(char c) {
        return c < 0x20 || c == 0x7F || SPECIAL.indexOf(c) >= 0;
    }

    static String escape(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (needsEscape(c)) {
                if (out == null) {
                    out = new StringBuilder(s.length() + 8).append(s, 0, i);
                }
                out.append('%').append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? s : out.toString();
    }

    /** Reverses {@link #escape}; {@code path} names the whole path in errors. */
    static String unescape(String s, String path) {
        int percent = s.indexOf('%');
        if (percent < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length()).append(s, 0, percent);
        for (int i = percent; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
            int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
            if (lo < 0) {
                throw Errors.invalidArgument(
                        "Malformed partition path '"
                                + path
                                + "': '%' at position "
                                + i
                                + " of '"
                                + s
                                + "' is not followed by two hex digits.");
            }
            out.append((char) (hi * 16 + lo));
            i += 2;
        }
        return out.toString();
    }
}
