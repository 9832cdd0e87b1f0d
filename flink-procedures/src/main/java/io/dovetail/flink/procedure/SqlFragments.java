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
package io.dovetail.flink.procedure;

import org.apache.flink.table.api.ValidationException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

/**
 * Lexical helpers for the SQL fragments procedure arguments carry (assignment lists, conditions):
 * splitting at top-level separators while skipping quoted text ({@code '..'}, {@code `..`}, {@code
 * ".."}) and parenthesised expressions.
 */
final class SqlFragments {

    private static final Pattern SIMPLE_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private SqlFragments() {}

    /** {@code text} split at top-level commas, each part trimmed; blank parts are an error. */
    static List<String> splitList(String argument, String text) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int comma;
                (comma = nextTopLevel(argument, text, start, i -> text.charAt(i) == ',')) >= 0;
                start = comma + 1) {
            parts.add(part(argument, text, start, comma));
        }
        parts.add(part(argument, text, start, text.length()));
        return parts;
    }

    /**
     * The conjuncts of a condition: {@code text} split at top-level {@code AND}s (any case), each
     * part trimmed and stripped of enclosing parentheses.
     */
    static List<String> conjuncts(String argument, String text) {
        List<String> parts = new ArrayList<>();
        String condition = withoutEnclosingParentheses(argument, text);
        int start = 0;
        for (int and;
                (and =
                                nextTopLevel(
                                        argument,
                                        condition,
                                        start,
                                        i -> isKeywordAt(condition, i, "AND")))
                        >= 0;
                start = and + 3) {
            parts.add(withoutEnclosingParentheses(argument, condition.substring(start, and)));
        }
        parts.add(withoutEnclosingParentheses(argument, condition.substring(start)));
        return parts;
    }

    /**
     * The first position of {@code text} from {@code from} on that is outside quotes and brackets
     * and where {@code matches} holds, or -1.
     */
    private static int nextTopLevel(String argument, String text, int from, IntPredicate matches) {
        int depth = 0;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '`' || c == '"') {
                i = closingQuote(argument, text, i);
            } else if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                depth--;
            } else if (depth == 0 && matches.test(i)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isKeywordAt(String text, int at, String keyword) {
        int end = at + keyword.length();
        return text.regionMatches(true, at, keyword, 0, keyword.length())
                && (at == 0 || !isIdentifierPart(text.charAt(at - 1)))
                && (end == text.length() || !isIdentifierPart(text.charAt(end)));
    }

    private static boolean isIdentifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '`' || c == '.';
    }

    /** {@code text} trimmed, without parentheses that enclose all of it. */
    private static String withoutEnclosingParentheses(String argument, String text) {
        String t = text.trim();
        while (t.startsWith("(") && closingParenthesis(argument, t) == t.length() - 1) {
            t = t.substring(1, t.length() - 1).trim();
        }
        return t;
    }

    /** The position of the parenthesis closing the one {@code text} starts with, or -1. */
    private static int closingParenthesis(String argument, String text) {
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '`' || c == '"') {
                i = closingQuote(argument, text, i);
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The position of the first top-level {@code =} of {@code text} that is an assignment (not part
     * of {@code <=}, {@code >=}, {@code <>}, {@code !=} or {@code ==}), or -1.
     */
    static int assignmentSign(String argument, String text) {
        return nextTopLevel(argument, text, 0, i -> isAssignmentAt(text, i));
    }

    private static boolean isAssignmentAt(String text, int at) {
        char before = at > 0 ? text.charAt(at - 1) : ' ';
        char after = at + 1 < text.length() ? text.charAt(at + 1) : ' ';
        return text.charAt(at) == '='
                && before != '<'
                && before != '>'
                && before != '!'
                && before != '='
                && after != '=';
    }

    /**
     * A column reference ({@code c}, {@code `c`}, {@code alias.c}) as the bare column name; the
     * qualifier, if any, is dropped.
     */
    static String columnName(String argument, String reference) {
        String text = reference.trim();
        int dot = lastTopLevelDot(text);
        String name = unquote(dot < 0 ? text : text.substring(dot + 1).trim());
        if (name.isEmpty()) {
            throw new ValidationException(
                    argument + ": '" + reference + "' does not name a column.");
        }
        return name;
    }

    /** {@code name} as a quoted identifier, safe in any SQL statement. */
    static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /**
     * A table name ({@code t}, {@code db.t}, {@code cat.db.t}, parts optionally back-quoted) with
     * every part quoted, so reserved words such as {@code default} can be used.
     */
    static String quotedTableName(String argument, String name) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '`') {
                i = closingQuote(argument, name, i);
            } else if (c == '.') {
                parts.add(name.substring(start, i).trim());
                start = i + 1;
            }
        }
        parts.add(name.substring(start).trim());
        List<String> quoted = new ArrayList<>();
        for (String part : parts) {
            if (part.isEmpty() || parts.size() > 3) {
                throw new ValidationException(
                        argument + " must be a table name or a query, got '" + name + "'.");
            }
            quoted.add(part.startsWith("`") ? part : quote(part));
        }
        return String.join(".", quoted);
    }

    /** Whether {@code text} is a query rather than a table name. */
    static boolean isQuery(String text) {
        String head = text.trim().replaceFirst("^\\(+", "").trim().toUpperCase(Locale.ROOT);
        return head.startsWith("SELECT")
                || head.startsWith("WITH")
                || head.startsWith("VALUES")
                || head.startsWith("TABLE ");
    }

    /** Whether {@code text} mentions {@code alias.} outside quoted text (case-insensitive). */
    static boolean mentionsQualifier(String text, String alias) {
        String stripped = withoutQuotedText(text).toLowerCase(Locale.ROOT);
        String plain = alias.toLowerCase(Locale.ROOT);
        Pattern qualified =
                Pattern.compile(
                        "(^|[^a-z0-9_`])("
                                + Pattern.quote(plain)
                                + "|`"
                                + Pattern.quote(plain)
                                + "`)\\s*\\.");
        return qualified.matcher(stripped).find() || text.contains("`" + alias + "`.");
    }

    /** Whether {@code name} can be used without quoting. */
    static boolean isSimpleIdentifier(String name) {
        return SIMPLE_IDENTIFIER.matcher(name).matches();
    }

    private static String withoutQuotedText(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                i = closingQuote("", text, i);
                out.append("''");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static int lastTopLevelDot(String text) {
        int dot = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '`' || c == '"') {
                i = closingQuote("", text, i);
            } else if (c == '.') {
                dot = i;
            }
        }
        return dot;
    }

    private static String unquote(String name) {
        if (name.length() >= 2
                && (name.charAt(0) == '`' || name.charAt(0) == '"')
                && name.charAt(name.length() - 1) == name.charAt(0)) {
            String quote = String.valueOf(name.charAt(0));
            return name.substring(1, name.length() - 1).replace(quote + quote, quote);
        }
        return name;
    }

    private static int closingQuote(String argument, String text, int open) {
        char quote = text.charAt(open);
        for (int i = open + 1; i < text.length(); i++) {
            if (text.charAt(i) == quote) {
                if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
                    i++; // doubled quote
                } else {
                    return i;
                }
            }
        }
        throw new ValidationException(
                argument + ": unterminated " + quote + " quote in '" + text + "'.");
    }

    private static String part(String argument, String text, int from, int to) {
        String part = text.substring(from, to).trim();
        if (part.isEmpty()) {
            throw new ValidationException(argument + ": empty item in '" + text + "'.");
        }
        return part;
    }
}
