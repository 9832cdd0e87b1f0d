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
package io.dovetail.flink.options;

import io.dovetail.flink.options.DovetailOptions.Scope;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.ExpireConfig;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.write.DataFileWriterOptions;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.description.BlockElement;
import org.apache.flink.configuration.description.TextElement;
import org.apache.flink.util.TimeUtils;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/configuration.md is the rendering of {@link DovetailOptions}, and {@link DovetailOptions}
 * holds every option the code declares or reads, with the defaults the code applies. Rewrite the
 * page after changing an option with {@code -Ddovetail.docs.update=true}.
 */
class ConfigurationDocsTest {

    private static final Path PAGE = Path.of("..", "docs", "configuration.md");

    /** Classes whose non-private string constants are table-option keys the code reads. */
    private static final List<String> KEY_HOLDERS =
            List.of(
                    "io.dovetail.table.schema.TableOptions",
                    "io.dovetail.table.write.DataFileWriterOptions",
                    "io.dovetail.table.write.OpenParquetFile",
                    "io.dovetail.flink.sink.OverwriteScope",
                    "io.dovetail.flink.sink.TableCommitter");

    @Test
    void pageIsTheRenderingOfTheOptionsInCode() throws Exception {
        String rendered = render();
        if (Boolean.getBoolean("dovetail.docs.update")) {
            Files.writeString(PAGE, rendered);
        }
        assertThat(Files.readString(PAGE))
                .as("docs/configuration.md is out of date: rerun with -Ddovetail.docs.update=true")
                .isEqualTo(rendered);
    }

    @Test
    void everyConfigOptionDeclaredInCodeIsListed() throws Exception {
        List<ConfigOption<?>> listed = new ArrayList<>();
        for (Scope scope : Scope.values()) {
            listed.addAll(DovetailOptions.of(scope));
        }
        List<String> declared = new ArrayList<>();
        for (JavaClass type :
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.dovetail")) {
            for (JavaField field : type.getFields()) {
                if (field.getModifiers().contains(JavaModifier.STATIC)
                        && field.getRawType().isEquivalentTo(ConfigOption.class)) {
                    Field reflected = field.reflect();
                    reflected.setAccessible(true);
                    Object option = reflected.get(null);
                    if (listed.stream().noneMatch(o -> o == option)) {
                        declared.add(type.getName() + "." + field.getName());
                    }
                }
            }
        }
        assertThat(declared).as("options declared in code but not in DovetailOptions").isEmpty();
    }

    @Test
    void everyTableOptionKeyTheCodeReadsIsListed() throws Exception {
        List<Pattern> listed = OptionKeyPatterns.ofAllScopes();
        List<String> missing = new ArrayList<>();
        for (String holder : KEY_HOLDERS) {
            for (Field field : Class.forName(holder).getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers)
                        && !Modifier.isPrivate(modifiers)
                        && field.getType() == String.class) {
                    field.setAccessible(true);
                    String key = (String) field.get(null);
                    boolean affix = key.startsWith(".") || key.endsWith(".");
                    if (!affix && listed.stream().noneMatch(p -> p.matcher(key).matches())) {
                        missing.add(holder + "." + field.getName() + " = " + key);
                    }
                }
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void listedDefaultsAreTheOnesTheCodeApplies() {
        DataFileWriterOptions writer = DataFileWriterOptions.fromTableOptions(Map.of());
        assertThat(writer.format().extension())
                .isEqualTo(DovetailOptions.FILE_FORMAT.defaultValue());
        assertThat(writer.compression()).isEqualTo(DovetailOptions.FILE_COMPRESSION.defaultValue());
        assertThat(writer.zstdLevel()).isEqualTo(DovetailOptions.ZSTD_LEVEL.defaultValue());
        assertThat(writer.targetFileSize())
                .isEqualTo(DovetailOptions.TARGET_FILE_SIZE.defaultValue().getBytes());
        assertThat(DovetailOptions.TARGET_FILE_ROW_NUM.hasDefaultValue()).isFalse();
        assertThat(writer.targetRowCount()).isEqualTo(Long.MAX_VALUE);
        assertThat(writer.defaultStatsMode().toString())
                .isEqualTo(DovetailOptions.STATS_MODE.defaultValue());
        assertThat(writer.statsKeepFirstNColumns())
                .isEqualTo(DovetailOptions.STATS_KEEP_FIRST_N_COLUMNS.defaultValue());
        assertThat(writer.statsDenseStore())
                .isEqualTo(DovetailOptions.STATS_DENSE_STORE.defaultValue());

        ExpireConfig expire = ExpireConfig.fromOptions(Map.of());
        assertThat(expire.retainMin())
                .isEqualTo(DovetailOptions.SNAPSHOT_NUM_RETAINED_MIN.defaultValue());
        assertThat(DovetailOptions.SNAPSHOT_NUM_RETAINED_MAX.hasDefaultValue()).isFalse();
        assertThat(expire.retainMax()).isEqualTo(Integer.MAX_VALUE);
        assertThat(expire.timeRetained())
                .isEqualTo(DovetailOptions.SNAPSHOT_TIME_RETAINED.defaultValue());
        assertThat(expire.maxExpires())
                .isEqualTo(DovetailOptions.SNAPSHOT_EXPIRE_LIMIT.defaultValue());

        assertThat(CompactionConfig.fromOptions(Map.of()).minFileNum())
                .isEqualTo(DovetailOptions.COMPACTION_MIN_FILE_NUM.defaultValue());
    }

    private static String render() throws Exception {
        StringBuilder page = new StringBuilder();
        page.append("# Configuration\n\n")
                .append("Every option Dovetail reads. This page is generated from")
                .append(" `io.dovetail.flink.options.DovetailOptions`; `ConfigurationDocsTest`\n")
                .append("fails the build when it and the code differ (rewrite it with")
                .append(" `-Ddovetail.docs.update=true`).\n");
        for (Scope scope : Scope.values()) {
            page.append("\n## ").append(scope.heading).append("\n\n");
            page.append(scope.introduction).append("\n\n");
            page.append("| Key | Default | Type | Description |\n|---|---|---|---|\n");
            for (ConfigOption<?> option : DovetailOptions.of(scope)) {
                page.append("| `")
                        .append(option.key())
                        .append("` | ")
                        .append(defaultValue(option))
                        .append(" | ")
                        .append(type(option))
                        .append(" | ")
                        .append(description(option).replace("|", "\\|"))
                        .append(" |\n");
            }
        }
        page.append("\nFixed at CREATE TABLE (an ALTER TABLE that changes or removes them is")
                .append(" refused): ");
        List<String> immutable = new ArrayList<>();
        new TreeSet<>(TableOptions.IMMUTABLE).forEach(key -> immutable.add("`" + key + "`"));
        page.append(String.join(", ", immutable))
                .append(" (`blob-field` may still gain the names of columns the table does not")
                .append(
                        " have yet, to add BLOB columns: see [BLOBs and vectors](blobs-and-vectors.md)).\n");
        return page.toString();
    }

    private static String defaultValue(ConfigOption<?> option) {
        if (!option.hasDefaultValue()) {
            return "(none)";
        }
        Object value = option.defaultValue();
        String text =
                value instanceof Duration duration
                        ? TimeUtils.formatWithHighestUnit(duration)
                        : value.toString();
        return "`" + text + "`";
    }

    private static String type(ConfigOption<?> option) throws Exception {
        Method clazz = ConfigOption.class.getDeclaredMethod("getClazz");
        clazz.setAccessible(true);
        Class<?> type = (Class<?>) clazz.invoke(option);
        return type.isEnum() ? "Enum" : type.getSimpleName();
    }

    private static String description(ConfigOption<?> option) {
        StringBuilder text = new StringBuilder();
        for (BlockElement block : option.description().getBlocks()) {
            text.append(((TextElement) block).getFormat());
        }
        return text.toString();
    }
}
