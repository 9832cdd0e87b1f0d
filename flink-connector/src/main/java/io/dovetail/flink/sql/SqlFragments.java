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
package io.dovetail.flink.sql;

import org.apache.flink.table.api.ValidationException;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

/**
 * Lexical helpers for the SQL fragments procedure arguments carry (statement lists, assignment
 * lists, conditions, option and partition lists): splitting at top-level separators while skipping
 * quoted text ({@code '..'}, {@code `..`}, {@code ".."}, a doubled quote inside), comments ({@code
 * -- ..} to the end of the line, {@code /* .. *}{@code /}) and parenthesised expressions. The one
 * parser of list-valued procedure arguments: Paimon splits {@code source_sqls} at every {@code ;},
 * so a statement with a {@code ;} inside a string literal breaks there; here it does not.
 */
public final class SqlFragments {

    private static final Pattern SIMPLE_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private SqlFragments() {}

    /** {@code text} split at top-level commas, each part trimmed; blank parts are an error. */
    public static List<String> splitList(String argument, String text) {
        return split(argument, text, ',');
    }

    /** {@code text} split at top-level {@code separator}s, each part trimmed; blank parts fail. */
    public static List<String> split(String argument, String text, char separator) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int at;
                (at = nextTopLevel(argument, text, start, i -> text.charAt(i) == separator)) >= 0;
                start = at + 1) {
            parts.add(part(argument, text, start, at));
        }
        parts.add(part(argument, text, start, text.length()));
        return parts;
    }

    /**
     * The statements of {@code text}, separated by top-level {@code ;}s; empty statements (a
     * trailing {@code ;}, comments only) are dropped.
     */
    public static List<String> statements(String argument, String text) {
        List<String> statements = new ArrayList<>();
        int start = 0;
        for (int end = 0; end >= 0; start = end + 1) {
            end = nextTopLevel(argument, text, start, i -> text.charAt(i) == ';');
            String statement = text.substring(start, end < 0 ? text.length() : end);
            if (!withoutComments(argument, statement).isBlank()) {
                statements.add(statement.trim());
            }
        }
        return statements;
    }

    /**
     * {@code 'k1=v1,k2=v2'}: keys and values trimmed, a value in single quotes unquoted (so it may
     * hold {@code ,} or {@code ;}); null or blank is empty. A pair without {@code =} or a repeated
     * key is an error naming {@code argument}.
     */
    public static Map<String, String> keyValues(String argument, @Nullable String text) {
        Map<String, String> pairs = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return pairs;
        }
        for (String pair : split(argument, text, ',')) {
            int eq = nextTopLevel(argument, pair, 0, i -> pair.charAt(i) == '=');
            String key = eq < 0 ? "" : pair.substring(0, eq).trim();
            if (key.isEmpty()
                    || pairs.put(key, unquoteString(pair.substring(eq + 1).trim())) != null) {
                throw new ValidationException(
                        argument
                                + " must be 'key=value' pairs separated by ',' with distinct keys;"
                                + " got '"
                                + text
                                + "'.");
            }
        }
        return pairs;
    }

    /** A single-quoted SQL string literal's value; anything else as it is. */
    private static String unquoteString(String value) {
        if (value.length() >= 2 && value.charAt(0) == '\'' && value.endsWith("'")) {
            return value.substring(1, value.length() - 1).replace("''", "'");
        }
        return value;
    }

    private static String withoutComments(String argument, String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            int end = commentEnd(argument, text, i);
            if (end > i) {
                i = end - 1;
                out.append(' ');
            } else {
                out.append(text.charAt(i));
            }
        }
        return out.toString();
    }

    /** If a comment starts at {@code at}, the position after it; else {@code at}. */
    private static int commentEnd(String argument, String text, int at) {
        if (text.startsWith("--", at)) {
            int newline = text.indexOf('\n', at);
            return newline < 0 ? text.length() : newline + 1;
        }
        if (text.startsWith("/*", at)) {
            int close = text.indexOf("*/", at + 2);
            if (close < 0) {
                throw new ValidationException(
                        argument + ": unterminated /* comment in '" + text + "'.");
            }
            return close + 2;
        }
        return at;
    }

    /**
     * The conjuncts of a condition: {@code text} split at top-level {@code AND}s (any case), each
     * part trimmed and stripped of enclosing parentheses.
     */
    public static List<String> conjuncts(String argument, String text) {
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
            int comment = commentEnd(argument, text, i);
            if (comment > i) {
                i = comment - 1;
            } else if (c == '\'' || c == '`' || c == '"') {
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
    public static int assignmentSign(String argument, String text) {
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
    public static String columnName(String argument, String reference) {
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
    public static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** Whether {@code text} is a query rather than a table name. */
    public static boolean isQuery(String text) {
        String head = text.trim().replaceFirst("^\\(+", "").trim().toUpperCase(Locale.ROOT);
        return head.startsWith("SELECT")
                || head.startsWith("WITH")
                || head.startsWith("VALUES")
                || head.startsWith("TABLE ");
    }

    /** Whether {@code text} mentions {@code alias.} outside quoted text (case-insensitive). */
    public static boolean mentionsQualifier(String text, String alias) {
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
    public static boolean isSimpleIdentifier(String name) {
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

    /**
     * {@code name} without its enclosing back or double quotes (a doubled quote inside kept once).
     */
    static String unquote(String name) {
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
