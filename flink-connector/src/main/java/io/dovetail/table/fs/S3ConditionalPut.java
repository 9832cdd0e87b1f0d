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

import io.dovetail.table.error.Errors;
import io.dovetail.table.schema.TableOptions;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.net.URI;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Create-if-absent publication on S3 and S3-compatible stores: a {@code PUT} with {@code
 * If-None-Match: *}, which the store refuses with 412 Precondition Failed when the key exists (or
 * 409 while a concurrent conditional PUT of that key is in flight). A refusal means another writer
 * may hold the name, exactly like a lost hard-link race: the caller re-reads and retries. An object
 * appears whole or not at all, so no temporary object is needed.
 *
 * <p>A store that silently ignores the condition would let two writers both win. Before the first
 * publication to a bucket, the bucket is probed once per process: a probe object is created twice
 * with the condition and the second PUT must be refused. On a store that accepts it, publishing is
 * refused with the fix, unless the table declares a single writer ({@link
 * TableOptions#COMMIT_SINGLE_WRITER}).
 */
final class S3ConditionalPut {

    private static final String PROBE_PREFIX = ".dovetail-conditional-write-probe-";

    private static final ConcurrentMap<BucketKey, Bucket> BUCKETS = new ConcurrentHashMap<>();

    private S3ConditionalPut() {}

    static boolean publishIfAbsent(URI target, byte[] bytes, Writers writers) {
        S3Settings settings = S3Settings.current();
        String bucketName = target.getAuthority();
        Bucket bucket =
                BUCKETS.computeIfAbsent(
                        new BucketKey(settings, bucketName), k -> new Bucket(settings, bucketName));
        String key =
                target.getPath().startsWith("/") ? target.getPath().substring(1) : target.getPath();
        return bucket.publishIfAbsent(key, bytes, writers, target);
    }

    private record BucketKey(S3Settings settings, String bucket) {}

    /** One bucket of one store: its client and whether it honours {@code If-None-Match: *}. */
    private static final class Bucket {
        private final String name;
        private final String storeName;
        private final S3Client client;
        private volatile Boolean honoursConditionalWrites;

        Bucket(S3Settings settings, String name) {
            this.name = name;
            this.storeName = settings.storeName(name);
            this.client = client(settings);
        }

        boolean publishIfAbsent(String key, byte[] bytes, Writers writers, URI target) {
            if (!honoursConditionalWrites(target)) {
                if (writers != Writers.SINGLE) {
                    throw Errors.unsupported(
                            "committing to "
                                    + target
                                    + ": the store "
                                    + storeName
                                    + " ignores conditional writes (a second PUT of one key with"
                                    + " If-None-Match: * succeeded), so two writers could both"
                                    + " commit the same snapshot",
                            "Use a store that honours If-None-Match: * on PUT (AWS S3, MinIO,"
                                    + " Cloudflare R2 and most S3-compatible stores), or, if only"
                                    + " one writer ever commits to this table, set the table"
                                    + " option '"
                                    + TableOptions.COMMIT_SINGLE_WRITER
                                    + "' = 'true'");
                }
                if (read(key, target) != null) {
                    return false;
                }
            }
            try {
                if (putIfAbsent(key, RequestBody.fromBytes(bytes))) {
                    return true;
                }
                // Taken; or our own PUT landed and the SDK's retry of it was refused.
                return Arrays.equals(read(key, target), bytes);
            } catch (SdkException e) {
                throw Errors.io("publish", target, e);
            }
        }

        private boolean honoursConditionalWrites(URI target) {
            Boolean honours = honoursConditionalWrites;
            if (honours == null) {
                synchronized (this) {
                    if (honoursConditionalWrites == null) {
                        honoursConditionalWrites = probe(target);
                    }
                    honours = honoursConditionalWrites;
                }
            }
            return honours;
        }

        /** Creates a probe object twice with the condition: the second PUT must be refused. */
        private boolean probe(URI target) {
            String key = PROBE_PREFIX + UUID.randomUUID();
            try {
                if (!putIfAbsent(key, RequestBody.fromString("first"))) {
                    throw Errors.io(
                            "probe conditional writes of",
                            storeName,
                            new IllegalStateException("a fresh probe key " + key + " was refused"));
                }
                try {
                    return !putIfAbsent(key, RequestBody.fromString("second"));
                } catch (S3Exception e) {
                    if (e.statusCode() == 400 || e.statusCode() == 501) {
                        return false; // the store does not implement the condition
                    }
                    throw e;
                }
            } catch (SdkException e) {
                throw Errors.io("probe conditional writes (for " + target + ") of", storeName, e);
            } finally {
                try {
                    client.deleteObject(b -> b.bucket(name).key(key));
                } catch (SdkException e) {
                    // A leftover probe object is harmless: it lies outside every table.
                }
            }
        }

        /** PUT with {@code If-None-Match: *}; false when the store refused it as a duplicate. */
        private boolean putIfAbsent(String key, RequestBody body) {
            PutObjectRequest request =
                    PutObjectRequest.builder().bucket(name).key(key).ifNoneMatch("*").build();
            try {
                client.putObject(request, body);
                return true;
            } catch (S3Exception e) {
                if (e.statusCode() == 412 || e.statusCode() == 409) {
                    return false;
                }
                throw e;
            }
        }

        /** The object's bytes, or null when there is none. */
        private byte[] read(String key, URI target) {
            try {
                return client.getObjectAsBytes(b -> b.bucket(name).key(key)).asByteArray();
            } catch (NoSuchKeyException e) {
                return null;
            } catch (SdkException e) {
                throw Errors.io("read", target, e);
            }
        }
    }

    private static S3Client client(S3Settings settings) {
        S3ClientBuilder builder =
                S3Client.builder()
                        .httpClientBuilder(UrlConnectionHttpClient.builder())
                        .forcePathStyle(settings.pathStyleAccess())
                        // checksums only where S3 requires them: understood by every S3 clone
                        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                        .region(
                                settings.region()
                                        .map(Region::of)
                                        .orElseGet(S3ConditionalPut::defaultRegion))
                        .credentialsProvider(credentials(settings));
        settings.endpoint().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    private static Region defaultRegion() {
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        } catch (SdkException e) {
            return Region.US_EAST_1;
        }
    }

    private static AwsCredentialsProvider credentials(S3Settings settings) {
        if (settings.accessKey().isPresent() && settings.secretKey().isPresent()) {
            return StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(
                            settings.accessKey().get(), settings.secretKey().get()));
        }
        return DefaultCredentialsProvider.builder().build();
    }
}
