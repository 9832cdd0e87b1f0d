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
package io.dovetail.sql;

import org.apache.flink.sql.parser.impl.FlinkSqlParserImplConstants;
import org.apache.flink.sql.parser.impl.FlinkSqlParserImplTokenManager;
import org.apache.flink.sql.parser.impl.SimpleCharStream;
import org.apache.flink.sql.parser.impl.Token;
import org.apache.flink.sql.parser.impl.TokenMgrError;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a script into statements at the {@code ;} tokens of Flink's own SQL lexer (the one Flink's
 * SQL client reads statements with), so semicolons in string literals, quoted identifiers and
 * comments do not split, and comments between statements are dropped.
 */
final class StatementSplitter {

    /** The lexer state for back-quoted identifiers, as Flink's SQL client and parser use it. */
    private static final int BACK_QUOTED_IDENTIFIERS = 2;

    private StatementSplitter() {}

    /** One statement, without its terminating {@code ;}, and the line it starts on (from 1). */
    record Statement(String text, int line) {}

    /** The statements of {@code script}. */
    static List<Statement> split(String script) {
        String text = script.replace("\r\n", "\n").replace('\r', '\n');
        int[] lineStarts = lineStarts(text);
        // the lexer counts a tab as several columns: give it the text with tabs as spaces
        FlinkSqlParserImplTokenManager lexer =
                new FlinkSqlParserImplTokenManager(
                        new SimpleCharStream(new StringReader(text.replace('\t', ' '))));
        lexer.SwitchTo(BACK_QUOTED_IDENTIFIERS);
        List<Statement> statements = new ArrayList<>();
        int start = -1;
        int startLine = 0;
        try {
            for (Token token = lexer.getNextToken();
                    token.kind != FlinkSqlParserImplConstants.EOF;
                    token = lexer.getNextToken()) {
                int offset = lineStarts[token.beginLine - 1] + token.beginColumn - 1;
                if (token.kind == FlinkSqlParserImplConstants.SEMICOLON) {
                    if (start >= 0) {
                        statements.add(
                                new Statement(text.substring(start, offset).trim(), startLine));
                    }
                    start = -1;
                } else if (start < 0) {
                    start = offset;
                    startLine = token.beginLine;
                }
            }
        } catch (TokenMgrError e) {
            throw new SqlScriptException("SQL parse failed: " + e.getMessage());
        }
        if (start >= 0) {
            statements.add(new Statement(text.substring(start).trim(), startLine));
        }
        return statements;
    }

    private static int[] lineStarts(String text) {
        int[] starts = new int[(int) text.chars().filter(c -> c == '\n').count() + 1];
        for (int i = 0, line = 1; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                starts[line++] = i + 1;
            }
        }
        return starts;
    }
}
