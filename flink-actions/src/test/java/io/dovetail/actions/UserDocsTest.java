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

import io.dovetail.flink.catalog.DovetailCatalog;
import io.dovetail.flink.options.OptionKeyPatterns;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.api.config.TableConfigOptions;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user docs ({@code docs/*.md}) against the code, so that they cannot drift: every procedure
 * has a section listing exactly its arguments (name, type, whether required) and result columns,
 * every {@code CALL} and every action command line in the docs names what exists, every option key
 * set in an example exists, and every relative link resolves. Reads files and annotations only.
 */
class UserDocsTest {

    private static final Path DOCS = Path.of("..", "docs");

    /** Options of Flink itself that the examples set. */
    private static final Set<String> FLINK_KEYS =
            Set.of(
                    ExecutionOptions.RUNTIME_MODE.key(),
                    CheckpointingOptions.CHECKPOINTING_INTERVAL.key(),
                    TableConfigOptions.TABLE_COLUMN_EXPANSION_STRATEGY.key(),
                    TableConfigOptions.TABLE_DML_SYNC.key());

    /** Procedure arguments that are SQL keywords and must be backquoted in a CALL. */
    private static final Set<String> KEYWORD_ARGUMENTS = Set.of("table", "where");

    private static final Pattern CALL = Pattern.compile("CALL\\s+\\w+\\.sys\\.(\\w+)\\s*\\(");
    private static final Pattern NAMED_ARGUMENT = Pattern.compile("(`?)(\\w+)`?\\s*=>");
    private static final Pattern ARGUMENT_ROW =
            Pattern.compile("^\\| `(\\w+)` \\| (\\w+) \\| (yes|no) \\|");
    private static final Pattern OPTION_PAIR =
            Pattern.compile("'([a-z][a-z0-9._<>*-]*)'\\s*=\\s*'");

    /** A procedure's positional signature written out: {@code sys.name(a, b, c)}, names only. */
    private static final Pattern SIGNATURE =
            Pattern.compile("sys\\.(\\w+)\\(((?:\\w+, )+\\w+)\\)`");

    private static final Pattern RESET = Pattern.compile("RESET \\(?'([a-z0-9._-]+)'");
    private static final Pattern OPTIONS_ARGUMENT = Pattern.compile("options\\s*=>\\s*'([^']*)'");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    private static Map<Path, String> pages;
    private static Map<String, Procedure> procedures;

    @BeforeAll
    static void load(@TempDir Path warehouse) throws Exception {
        pages = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(DOCS)) {
            for (Path page : files.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                pages.put(page, Files.readString(page));
            }
        }
        DovetailCatalog catalog =
                new DovetailCatalog(
                        "dovetail",
                        "default",
                        new org.apache.flink.core.fs.Path(warehouse.toUri()));
        procedures = new LinkedHashMap<>();
        for (String name : catalog.listProcedures("sys")) {
            procedures.put(name, catalog.getProcedure(new ObjectPath("sys", name)));
        }
    }

    @Test
    void everyProcedureHasASectionWithExactlyItsArgumentsAndResultColumns() {
        assertThat(procedures).isNotEmpty();
        for (Map.Entry<String, Procedure> procedure : procedures.entrySet()) {
            List<String> sections = sections("`sys." + procedure.getKey() + "`");
            assertThat(sections).as("sections on sys.%s", procedure.getKey()).hasSize(1);
            String section = sections.get(0);
            ProcedureHint hint = hint(procedure.getValue());
            List<String> arguments = new ArrayList<>();
            for (ArgumentHint argument : hint.argument()) {
                arguments.add(
                        argument.name()
                                + " "
                                + argument.type().value()
                                + " "
                                + (argument.isOptional() ? "no" : "yes"));
            }
            List<String> documented = new ArrayList<>();
            for (String line : section.lines().toList()) {
                Matcher row = ARGUMENT_ROW.matcher(line);
                if (row.find()) {
                    documented.add(row.group(1) + " " + row.group(2) + " " + row.group(3));
                }
            }
            assertThat(documented)
                    .as("arguments of sys.%s (name, type, required)", procedure.getKey())
                    .containsExactlyElementsOf(arguments);
            RowType result =
                    (RowType)
                            LogicalTypeParser.parse(
                                    hint.output().value(), UserDocsTest.class.getClassLoader());
            assertThat(resultColumns(section))
                    .as("result columns of sys.%s", procedure.getKey())
                    .containsExactlyElementsOf(result.getFieldNames());
        }
    }

    @Test
    void everyCallInTheDocsNamesAProcedureAndItsArguments() {
        int calls = 0;
        for (Map.Entry<Path, String> page : pages.entrySet()) {
            Matcher call = CALL.matcher(page.getValue());
            while (call.find()) {
                calls++;
                String name = call.group(1);
                String where = page.getKey().getFileName() + ": CALL sys." + name;
                assertThat(procedures).as(where).containsKey(name);
                Set<String> known = new LinkedHashSet<>();
                for (ArgumentHint argument : hint(procedures.get(name)).argument()) {
                    known.add(argument.name());
                }
                Matcher named =
                        NAMED_ARGUMENT.matcher(unquoted(arguments(page.getValue(), call.end())));
                while (named.find()) {
                    assertThat(known).as(where).contains(named.group(2));
                    if (KEYWORD_ARGUMENTS.contains(named.group(2))) {
                        assertThat(named.group(1))
                                .as(where + ": quote " + named.group(2))
                                .isNotEmpty();
                    }
                }
            }
        }
        assertThat(calls).isPositive();
    }

    @Test
    void everyActionCommandLineInTheDocsIsAccepted() {
        Map<String, Set<String>> actions = actionOptions();
        int commandLines = 0;
        for (Map.Entry<Path, String> page : pages.entrySet()) {
            for (String line : codeLines(page.getValue().replace("\\\n", " "))) {
                int jar = line.indexOf("dovetail-flink-actions.jar ");
                if (jar < 0) {
                    continue;
                }
                commandLines++;
                List<String> words =
                        Arrays.asList(line.substring(jar).replace("`", " ").trim().split("\\s+"));
                String action = words.get(1);
                assertThat(actions)
                        .as(page.getKey().getFileName() + ": " + line)
                        .containsKey(action);
                for (String word : words.subList(2, words.size())) {
                    if (word.startsWith("--")) {
                        assertThat(actions.get(action))
                                .as(page.getKey().getFileName() + ": " + line)
                                .contains(word.substring(2));
                    }
                }
            }
        }
        assertThat(commandLines).isPositive();
        Set<String> listed = new TreeSet<>();
        Matcher row =
                Pattern.compile("(?m)^\\| `(\\w+)` \\| .* \\|$")
                        .matcher(table(page("deployment.md"), "| Action | Does |"));
        while (row.find()) {
            listed.add(row.group(1));
        }
        Set<String> expected = new TreeSet<>(actions.keySet());
        expected.remove("help");
        assertThat(listed).as("the action table of deployment.md").isEqualTo(expected);
    }

    /** The docs say so: a procedure action's options are its procedure's arguments. */
    @Test
    void procedureActionsTakeTheirProceduresArguments() {
        for (ProcedureAction action : DovetailActions.PROCEDURE_ACTIONS) {
            Matcher runs = Pattern.compile("CALL \\w+\\.sys\\.(\\w+)\\(").matcher(action.help());
            assertThat(runs.find()).as(action.name()).isTrue();
            ArgumentHint[] arguments = hint(procedures.get(runs.group(1))).argument();
            Set<String> besidesTheTable = new TreeSet<>();
            for (ArgumentHint argument : arguments) {
                besidesTheTable.add(argument.name());
            }
            besidesTheTable.remove(arguments[0].name()); // 'table' or 'target', as the docs say
            Set<String> options = flags(action.usage());
            options.removeAll(ProcedureAction.TABLE_OPTIONS);
            assertThat(options).as(action.name()).isEqualTo(besidesTheTable);
        }
    }

    @Test
    void everyOptionKeyTheDocsSetExists() {
        List<Pattern> known = new ArrayList<>(OptionKeyPatterns.ofAllScopes());
        Stream.concat(FLINK_KEYS.stream(), Stream.of("type"))
                .forEach(key -> known.add(Pattern.compile(Pattern.quote(key))));
        List<String> unknown = new ArrayList<>();
        int keys = 0;
        for (Map.Entry<Path, String> page : pages.entrySet()) {
            List<String> found = new ArrayList<>();
            for (Pattern pattern : List.of(OPTION_PAIR, RESET)) {
                Matcher key = pattern.matcher(page.getValue());
                while (key.find()) {
                    found.add(key.group(1));
                }
            }
            Matcher options = OPTIONS_ARGUMENT.matcher(page.getValue());
            while (options.find()) {
                for (String pair : options.group(1).split(",")) {
                    found.add(pair.substring(0, pair.indexOf('=')).trim());
                }
            }
            for (String key : found) {
                keys++;
                if (known.stream().noneMatch(p -> p.matcher(key).matches())) {
                    unknown.add(page.getKey().getFileName() + ": " + key);
                }
            }
        }
        assertThat(keys).isPositive();
        assertThat(unknown).as("option keys in the docs that no code reads").isEmpty();
    }

    @Test
    void everyRelativeLinkResolvesAndIndexLinksEveryPage() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Map.Entry<Path, String> page : pages.entrySet()) {
            Matcher link = LINK.matcher(page.getValue());
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // an absolute URL
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page.getKey() : page.getKey().resolveSibling(file);
                if (!Files.exists(resolved)) {
                    broken.add(page.getKey().getFileName() + ": " + target);
                } else if (hash >= 0
                        && !anchors(Files.readString(resolved))
                                .contains(target.substring(hash + 1))) {
                    broken.add(page.getKey().getFileName() + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).isEmpty();
        for (Path page : pages.keySet()) {
            String name = page.getFileName().toString();
            if (!name.equals("index.md")) {
                assertThat(page("index.md"))
                        .as("index.md links " + name)
                        .contains("](" + name + ")");
            }
        }
    }

    @Test
    void aProcedureSignatureWrittenOutListsTheArgumentsInTheProceduresOrder() throws Exception {
        String readme = Files.readString(DOCS.resolveSibling("README.md"));
        Matcher signature = SIGNATURE.matcher(readme + String.join("\n", pages.values()));
        int signatures = 0;
        while (signature.find()) {
            Procedure procedure = procedures.get(signature.group(1));
            assertThat(procedure).as("sys.%s exists", signature.group(1)).isNotNull();
            List<String> names = new ArrayList<>();
            for (ArgumentHint argument : hint(procedure).argument()) {
                names.add(argument.name());
            }
            assertThat(List.of(signature.group(2).split(",\\s*")))
                    .as("the argument list of sys.%s", signature.group(1))
                    .isEqualTo(names);
            signatures++;
        }
        assertThat(signatures).as("README's merge signature").isPositive();
    }

    @Test
    void theIndexPagesFirstExampleRunsInAStockSqlClient() {
        Matcher example =
                Pattern.compile("```sql\n(.*?)```", Pattern.DOTALL).matcher(page("index.md"));
        assertThat(example.find()).isTrue();
        assertThat(example.group(1))
                .as("UPDATE needs batch mode; the next statement must see the write")
                .contains("SET 'execution.runtime-mode' = 'batch';")
                .contains("SET 'table.dml-sync' = 'true';");
    }

    // ---------------------------------------------------------------- helpers

    private static String page(String name) {
        return pages.get(DOCS.resolve(name));
    }

    private static ProcedureHint hint(Procedure procedure) {
        for (Method method : procedure.getClass().getMethods()) {
            if (method.getName().equals("call")
                    && method.isAnnotationPresent(ProcedureHint.class)) {
                return method.getAnnotation(ProcedureHint.class);
            }
        }
        throw new AssertionError(procedure.getClass() + " has no annotated call method");
    }

    /** The text of every section (heading to next heading) whose heading contains {@code text}. */
    private static List<String> sections(String text) {
        List<String> sections = new ArrayList<>();
        for (String page : pages.values()) {
            List<String> lines = withoutCode(page);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith("#") && lines.get(i).contains(text)) {
                    StringBuilder section = new StringBuilder();
                    for (int j = i + 1; j < lines.size() && !lines.get(j).startsWith("#"); j++) {
                        section.append(lines.get(j)).append('\n');
                    }
                    sections.add(section.toString());
                }
            }
        }
        return sections;
    }

    /** The backquoted names of the paragraph starting {@code Result row:}. */
    private static List<String> resultColumns(String section) {
        int start = section.indexOf("Result row:");
        if (start < 0) {
            return List.of();
        }
        int end = section.indexOf("\n\n", start);
        String paragraph = section.substring(start, end < 0 ? section.length() : end);
        List<String> names = new ArrayList<>();
        Matcher name = Pattern.compile("`(\\w+)`").matcher(paragraph);
        while (name.find()) {
            names.add(name.group(1));
        }
        return names;
    }

    /** The argument text of a call, from {@code start} to its closing parenthesis. */
    private static String arguments(String text, int start) {
        int depth = 1;
        boolean quoted = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')' && --depth == 0) {
                return text.substring(start, i);
            }
        }
        throw new AssertionError("unclosed CALL at " + start);
    }

    /** {@code text} with its SQL string literals blanked out. */
    private static String unquoted(String text) {
        return text.replaceAll("'[^']*'", "''");
    }

    /** Accepted options by action name, from each action's usage line. */
    private static Map<String, Set<String>> actionOptions() {
        Map<String, Set<String>> actions = new LinkedHashMap<>();
        for (ProcedureAction action : DovetailActions.PROCEDURE_ACTIONS) {
            Set<String> options = flags(action.usage());
            options.add("help");
            actions.put(action.name(), options);
        }
        Set<String> delete = flags(DeleteAction.USAGE);
        delete.add("help");
        actions.put(DeleteAction.NAME, delete);
        actions.put(InspectAction.NAME, flags(InspectAction.USAGE));
        actions.put(QuickstartAction.NAME, flags(QuickstartAction.USAGE));
        actions.put("help", Set.of());
        return actions;
    }

    private static Set<String> flags(String usage) {
        Set<String> flags = new TreeSet<>();
        Matcher flag = Pattern.compile("--([a-z_-]+)").matcher(usage);
        while (flag.find()) {
            flags.add(flag.group(1));
        }
        return flags;
    }

    /** The Markdown table of {@code page} whose header starts with {@code header}. */
    private static String table(String page, String header) {
        int start = page.indexOf(header);
        assertThat(start).as("a table headed " + header).isNotNegative();
        int end = page.indexOf("\n\n", start);
        return page.substring(start, end < 0 ? page.length() : end);
    }

    /** GitHub's anchors of the headings of a page. */
    private static Set<String> anchors(String page) {
        Set<String> anchors = new LinkedHashSet<>();
        for (String line : withoutCode(page)) {
            if (line.startsWith("#")) {
                anchors.add(
                        line.replaceFirst("^#+\\s*", "")
                                .toLowerCase(java.util.Locale.ROOT)
                                .replaceAll("[^a-z0-9 _-]", "")
                                .replace(' ', '-'));
            }
        }
        return anchors;
    }

    /** The lines of a page outside fenced code blocks. */
    private static List<String> withoutCode(String page) {
        return lines(page, false);
    }

    /** The lines of a page inside fenced code blocks. */
    private static List<String> codeLines(String page) {
        return lines(page, true);
    }

    private static List<String> lines(String page, boolean inCode) {
        List<String> lines = new ArrayList<>();
        boolean code = false;
        for (String line : page.lines().toList()) {
            if (line.startsWith("```")) {
                code = !code;
            } else if (code == inCode) {
                lines.add(line);
            }
        }
        return lines;
    }
}
