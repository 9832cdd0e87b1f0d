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
package io.dovetail.table.fs;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where and as whom snapshot and schema files are PUT on S3, read from the keys Flink's S3 file
 * systems read, so that one configuration serves the data files (Flink's file system) and the
 * conditional PUTs: {@code s3.endpoint}, {@code s3.endpoint.region}, {@code s3.path.style.access},
 * {@code s3.access-key} and {@code s3.secret-key}, each also under the prefixes {@code s3a.} and
 * {@code fs.s3a.} (and with {@code .} for {@code -}) as Flink accepts them. Without keys, the AWS
 * SDK's default region and credential chains apply.
 *
 * <p>The configuration is the one given to {@link #configure}, else the one Flink processes load at
 * start-up ({@code config.yaml} in {@code FLINK_CONF_DIR}).
 */
record S3Settings(
        Optional<URI> endpoint,
        Optional<String> region,
        boolean pathStyleAccess,
        Optional<String> accessKey,
        Optional<String> secretKey) {

    private static final List<String> PREFIXES = List.of("s3.", "s3a.", "fs.s3a.");

    private static volatile Configuration configured;

    static void configure(Configuration configuration) {
        configured = configuration;
    }

    static S3Settings current() {
        Configuration configuration = configured;
        return configuration != null ? of(configuration) : FromFlinkConfDir.SETTINGS;
    }

    /** Loaded once, on first use: Flink processes read their configuration at start-up. */
    private static final class FromFlinkConfDir {
        static final S3Settings SETTINGS = of(GlobalConfiguration.loadConfiguration());
    }

    static S3Settings of(Configuration configuration) {
        Map<String, String> keys = configuration.toMap();
        boolean ssl = !"false".equalsIgnoreCase(value(keys, "connection.ssl.enabled"));
        return new S3Settings(
                Optional.ofNullable(value(keys, "endpoint")).map(e -> endpointUri(e, ssl)),
                Optional.ofNullable(value(keys, "endpoint.region")),
                "true".equalsIgnoreCase(value(keys, "path.style.access")),
                Optional.ofNullable(value(keys, "access-key", "access.key")),
                Optional.ofNullable(value(keys, "secret-key", "secret.key")));
    }

    /** Names a bucket of this store in messages: the bucket and the endpoint (or AWS). */
    String storeName(String bucket) {
        return "s3://" + bucket + endpoint.map(uri -> " at " + uri).orElse(" (AWS)");
    }

    @Override
    public String toString() {
        return "S3Settings[endpoint=" + endpoint + ", region=" + region + "]"; // no secrets
    }

    private static URI endpointUri(String endpoint, boolean ssl) {
        return URI.create(
                endpoint.contains("://") ? endpoint : (ssl ? "https://" : "http://") + endpoint);
    }

    private static String value(Map<String, String> keys, String... suffixes) {
        for (String prefix : PREFIXES) {
            for (String suffix : suffixes) {
                String value = keys.get(prefix + suffix);
                if (value != null && !value.isBlank()) {
                    return value.trim();
                }
            }
        }
        return null;
    }
}
