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

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The S3 keys are read as Flink's S3 file systems read them. */
class S3SettingsTest {

    @Test
    void flinkKeysConfigureEndpointRegionPathStyleAndCredentials() {
        S3Settings settings =
                S3Settings.of(
                        Configuration.fromMap(
                                Map.of(
                                        "s3.endpoint", "http://127.0.0.1:9000",
                                        "s3.endpoint.region", "eu-west-1",
                                        "s3.path.style.access", "true",
                                        "s3.access-key", "key",
                                        "s3.secret-key", "secret")));
        assertThat(settings)
                .isEqualTo(
                        new S3Settings(
                                Optional.of(URI.create("http://127.0.0.1:9000")),
                                Optional.of("eu-west-1"),
                                true,
                                Optional.of("key"),
                                Optional.of("secret")));
        assertThat(settings.toString()).doesNotContain("secret");
        assertThat(settings.storeName("b")).isEqualTo("s3://b at http://127.0.0.1:9000");
    }

    @Test
    void hadoopSpellingsAndAnEndpointWithoutSchemeFollowTheSslSetting() {
        S3Settings settings =
                S3Settings.of(
                        Configuration.fromMap(
                                Map.of(
                                        "fs.s3a.endpoint", "minio:9000",
                                        "fs.s3a.connection.ssl.enabled", "false",
                                        "s3a.access.key", "key",
                                        "fs.s3a.secret.key", "secret")));
        assertThat(settings.endpoint()).contains(URI.create("http://minio:9000"));
        assertThat(settings.accessKey()).contains("key");
        assertThat(settings.secretKey()).contains("secret");
        assertThat(settings.pathStyleAccess()).isFalse();
        assertThat(
                        S3Settings.of(Configuration.fromMap(Map.of("s3.endpoint", "minio:9000")))
                                .endpoint())
                .contains(URI.create("https://minio:9000"));
    }

    @Test
    void withoutKeysTheSdkDefaultsApply() {
        S3Settings settings = S3Settings.of(new Configuration());
        assertThat(settings.endpoint()).isEmpty();
        assertThat(settings.region()).isEmpty();
        assertThat(settings.accessKey()).isEmpty();
        assertThat(settings.storeName("b")).isEqualTo("s3://b (AWS)");
    }
}
