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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlFragmentsTest {

    @Test
    void listsSplitAtTopLevelCommasOnly() {
        assertThat(
                        SqlFragments.splitList(
                                "matched_update_set",
                                " a = s.a , b = CONCAT(s.b, ','), `c,d` = ARRAY[1, 2], e = 'x,y'"))
                .containsExactly(
                        "a = s.a", "b = CONCAT(s.b, ',')", "`c,d` = ARRAY[1, 2]", "e = 'x,y'");
        assertThatThrownBy(() -> SqlFragments.splitList("matched_update_set", "a = 1,, b = 2"))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("matched_update_set");
    }

    @Test
    void statementsSplitAtTopLevelSemicolonsOutsideLiteralsAndComments() {
        assertThat(
                        SqlFragments.statements(
                                "source_sqls",
                                "CREATE TEMPORARY VIEW v AS SELECT 'a;b' AS s, `x;y` FROM t;\n"
                                        + "-- a comment; with a semicolon\n"
                                        + "CREATE TEMPORARY VIEW w AS SELECT /* ; */ 1 AS one;;\n"
                                        + "  -- only a comment\n"))
                .containsExactly(
                        "CREATE TEMPORARY VIEW v AS SELECT 'a;b' AS s, `x;y` FROM t",
                        "-- a comment; with a semicolon\n"
                                + "CREATE TEMPORARY VIEW w AS SELECT /* ; */ 1 AS one");
        assertThatThrownBy(() -> SqlFragments.statements("source_sqls", "SELECT 'open"))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("source_sqls: unterminated ' quote");
        assertThatThrownBy(() -> SqlFragments.statements("source_sqls", "SELECT 1 /* open"))
                .hasMessageContaining("source_sqls: unterminated /* comment");
    }

    @Test
    void keyValuesTakeQuotedValuesWithSeparators() {
        assertThat(
                        SqlFragments.keyValues(
                                "options",
                                " write-only = true, note='a,b;c', quoted = 'it''s' , empty="))
                .containsExactly(
                        java.util.Map.entry("write-only", "true"),
                        java.util.Map.entry("note", "a,b;c"),
                        java.util.Map.entry("quoted", "it's"),
                        java.util.Map.entry("empty", ""));
        assertThat(SqlFragments.keyValues("options", "  ")).isEmpty();
        assertThat(SqlFragments.keyValues("options", null)).isEmpty();
        assertThatThrownBy(() -> SqlFragments.keyValues("options", "a=1,a=2"))
                .hasMessageContaining("options must be 'key=value' pairs")
                .hasMessageContaining("distinct keys");
        assertThatThrownBy(() -> SqlFragments.keyValues("options", "novalue"))
                .hasMessageContaining("options must be 'key=value' pairs");
        assertThat(SqlFragments.split("partitions", "dt='2026-12-01;x',hh=1;dt=b", ';'))
                .containsExactly("dt='2026-12-01;x',hh=1", "dt=b");
    }

    @Test
    void conditionsSplitAtTopLevelAndsWithoutEnclosingParentheses() {
        assertThat(
                        SqlFragments.conjuncts(
                                "merge_condition",
                                "((t.id = s.id) and t.`band` = s.band AND (t.a = 1 OR t.b = 2)"
                                        + " AND t.brand = 'AND' AND t.operand = s.x)"))
                .containsExactly(
                        "t.id = s.id",
                        "t.`band` = s.band",
                        "t.a = 1 OR t.b = 2",
                        "t.brand = 'AND'",
                        "t.operand = s.x");
        assertThat(SqlFragments.conjuncts("merge_condition", "(t.a = 1) OR (t.b = 2)"))
                .containsExactly("(t.a = 1) OR (t.b = 2)");
    }

    @Test
    void theAssignmentSignIsTheFirstTopLevelEqualsThatIsNoComparison() {
        assertThat(SqlFragments.assignmentSign("a", "c = s.c")).isEqualTo(2);
        assertThat(SqlFragments.assignmentSign("a", "`x=y` = IF(s.a >= 1, s.b = 2, s.c <> 3)"))
                .isEqualTo(6);
        assertThat(SqlFragments.assignmentSign("a", "s.a <= 1 OR s.b != 2 OR s.c == 3"))
                .isEqualTo(-1);
    }
}
