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

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.OptionGroup;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;

import javax.annotation.Nullable;

import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/** The command line of {@code bin/dovetail-sql}. */
record LauncherOptions(
        URI warehouse,
        @Nullable Path script,
        @Nullable String statements,
        OutputFormat format,
        int parallelism,
        String runtimeMode,
        boolean verbose,
        boolean help) {

    static final String USAGE =
            "dovetail-sql [-w WAREHOUSE] [-f SCRIPT.sql | -e 'SQL'] [--format table|csv|json]"
                    + " [-p PARALLELISM] [--mode batch|streaming] [--verbose]";

    private static final Options OPTIONS = options();
    private static final Pattern URI_WITH_SCHEME = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]+:");

    static LauncherOptions parse(String[] args) {
        CommandLine line;
        try {
            line = new DefaultParser().parse(OPTIONS, args);
        } catch (ParseException e) {
            throw new SqlScriptException(e.getMessage());
        }
        if (!line.getArgList().isEmpty()) {
            throw new SqlScriptException("Unexpected argument '" + line.getArgList().get(0) + "'.");
        }
        String mode = line.getOptionValue("mode", "batch").toLowerCase(Locale.ROOT);
        if (!mode.equals("batch") && !mode.equals("streaming")) {
            throw new SqlScriptException("Unknown --mode '" + mode + "': use batch or streaming.");
        }
        return new LauncherOptions(
                warehouse(line.getOptionValue("w", "warehouse")),
                line.hasOption("f") ? Path.of(line.getOptionValue("f")) : null,
                line.getOptionValue("e"),
                OutputFormat.parse(line.getOptionValue("format", "table")),
                positive(line.getOptionValue("p", "2")),
                mode,
                line.hasOption("verbose"),
                line.hasOption("h"));
    }

    /**
     * The warehouse as a URI: a URI with a scheme of more than one letter (hdfs://, s3://, file:)
     * names the file system to use; anything else is a local path, made absolute.
     */
    static URI warehouse(String value) {
        if (URI_WITH_SCHEME.matcher(value).lookingAt()) {
            try {
                URI uri = new URI(value);
                return isLocal(uri) ? Path.of(uri).normalize().toUri() : uri;
            } catch (URISyntaxException | IllegalArgumentException e) {
                throw new SqlScriptException(
                        "-w must be a directory or a URI, got '" + value + "': " + e.getMessage());
            }
        }
        return Path.of(value).toAbsolutePath().normalize().toUri();
    }

    /** Whether the warehouse is on the local file system (the launcher creates it if missing). */
    static boolean isLocal(URI warehouse) {
        return "file".equalsIgnoreCase(warehouse.getScheme());
    }

    boolean interactive() {
        return script == null && statements == null;
    }

    static void printHelp(PrintWriter out) {
        new HelpFormatter()
                .printHelp(
                        out,
                        100,
                        USAGE,
                        "Runs Flink SQL over a Dovetail warehouse (catalog 'dovetail', current) on one"
                                + " embedded Flink cluster. Without -f or -e, opens Flink's SQL"
                                + " client.%n%n",
                        OPTIONS,
                        2,
                        2,
                        "%nExit codes: 0 success, 1 a statement failed, 2 bad command line.");
        out.flush();
    }

    private static int positive(String value) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new SqlScriptException("-p must be a positive integer, got '" + value + "'.");
    }

    private static Options options() {
        OptionGroup input = new OptionGroup();
        input.addOption(
                Option.builder("f")
                        .longOpt("file")
                        .hasArg()
                        .argName("SCRIPT")
                        .desc("Runs the statements of a SQL script, one by one.")
                        .build());
        input.addOption(
                Option.builder("e")
                        .longOpt("execute")
                        .hasArg()
                        .argName("SQL")
                        .desc("Runs these statements (separated by ';'), one by one.")
                        .build());
        return new Options()
                .addOption(
                        Option.builder("w")
                                .longOpt("warehouse")
                                .hasArg()
                                .argName("DIR|URI")
                                .desc(
                                        "Warehouse: a local directory, created if missing (default"
                                                + " ./warehouse), or a URI such as hdfs://nn/wh or"
                                                + " s3://bucket/wh, used through the Flink file"
                                                + " system of its scheme (which must be on the"
                                                + " class path).")
                                .build())
                .addOptionGroup(input)
                .addOption(
                        Option.builder()
                                .longOpt("format")
                                .hasArg()
                                .argName("FORMAT")
                                .desc(
                                        "Query results as table (default), csv (header, NULL as \\N,"
                                                + " RFC 4180 quotes) or json (one object per line)."
                                                + " With csv and json, status lines go to stderr.")
                                .build())
                .addOption(
                        Option.builder("p")
                                .longOpt("parallelism")
                                .hasArg()
                                .argName("N")
                                .desc(
                                        "Default parallelism and task slots of the cluster (default 2).")
                                .build())
                .addOption(
                        Option.builder()
                                .longOpt("mode")
                                .hasArg()
                                .argName("MODE")
                                .desc("Runtime mode: batch (default) or streaming.")
                                .build())
                .addOption(
                        Option.builder()
                                .longOpt("verbose")
                                .desc("Prints the stack trace of a failure.")
                                .build())
                .addOption(Option.builder("h").longOpt("help").desc("Prints this help.").build());
    }
}
