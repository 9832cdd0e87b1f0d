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

import io.dovetail.sql.StatementSplitter.Statement;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StatementSplitterTest {

    @Test
    void splitsAtSemicolonsOutsideLiteralsIdentifiersAndComments() {
        String script =
                String.join(
                        "\n",
                        "-- a comment; not a statement",
                        "SELECT 'a;b', `c;d`",
                        "  FROM t; /* also; a comment */",
                        "",
                        "SET 'k' = 'v;w';;",
                        "\tSHOW TABLES");

        assertThat(StatementSplitter.split(script))
                .containsExactly(
                        new Statement("SELECT 'a;b', `c;d`\n  FROM t", 2),
                        new Statement("SET 'k' = 'v;w'", 5),
                        new Statement("SHOW TABLES", 6));
    }

    @Test
    void keepsCommentsInsideAStatementAndHandlesCarriageReturns() {
        assertThat(StatementSplitter.split("SELECT 1 -- one\r\n, 2;\r\nSELECT 3;"))
                .containsExactly(
                        new Statement("SELECT 1 -- one\n, 2", 1), new Statement("SELECT 3", 3));
    }

    @Test
    void anEmptyScriptHasNoStatements() {
        assertThat(StatementSplitter.split(" -- nothing\n;\n")).isEmpty();
    }

    @Test
    void anUnterminatedCommentIsAParseError() {
        assertThatThrownBy(() -> StatementSplitter.split("SELECT 1; /* SELECT 2"))
                .isInstanceOf(SqlScriptException.class)
                .hasMessageStartingWith("SQL parse failed");
    }
}
