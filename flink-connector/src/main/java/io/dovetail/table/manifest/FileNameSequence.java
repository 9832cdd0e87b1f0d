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
package io.dovetail.table.manifest;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Names new files {@code <prefix><uuid>-<n>}: one random UUID per sequence and a counter from 0, as
 * Paimon names manifests, manifest lists and index files. Readers never parse these names.
 */
public final class FileNameSequence {

    private final String prefix;
    private final String uuid = UUID.randomUUID().toString();
    private final AtomicInteger counter = new AtomicInteger();

    public FileNameSequence(String prefix) {
        this.prefix = prefix;
    }

    public String next() {
        return prefix + uuid + "-" + counter.getAndIncrement();
    }
}
