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
package io.dovetail.flink.sink;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.local.LocalFileSystem;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local file system under the scheme {@code faulty://}, crashing the calling task around the
 * publication of chosen snapshot files: {@link #crashBefore} and {@link #crashAfter} name the
 * ordinals (1-based, counted over every snapshot publication of the JVM) at which the rename that
 * publishes a snapshot throws {@link InjectedCrash} before or after it took place. The crash is an
 * {@link Error}, so commit code that cleans up after exceptions cannot absorb it: it stands for a
 * process dying at that instant. {@link #failOpening} makes the next opening of a file of that name
 * throw an {@link IOException} (a failing read); {@link #beforeOpening} runs an action just before
 * the next opening of a file of that name (a concurrent writer acting at that instant); {@link
 * #opened} lists the names of the files opened for reading, in order.
 */
public final class FaultyFileSystem extends LocalFileSystem {

    public static final String SCHEME = "faulty";

    public static final Set<Integer> crashBefore = ConcurrentHashMap.newKeySet();
    public static final Set<Integer> crashAfter = ConcurrentHashMap.newKeySet();
    public static final AtomicInteger publications = new AtomicInteger();
    public static final AtomicInteger crashes = new AtomicInteger();
    private static final Set<String> failOpening = ConcurrentHashMap.newKeySet();
    private static final AtomicInteger failedOpenings = new AtomicInteger();
    private static final Map<String, Runnable> beforeOpening = new ConcurrentHashMap<>();

    /** The names of the files opened for reading so far (clear it to start counting). */
    public static final Queue<String> opened = new ConcurrentLinkedQueue<>();

    /** The next opening of a file named {@code fileName} fails. */
    public static void failOpening(String fileName) {
        failOpening.add(fileName);
    }

    /** Runs {@code action} just before the next opening of a file named {@code fileName}. */
    public static void beforeOpening(String fileName, Runnable action) {
        beforeOpening.put(fileName, action);
    }

    /** How many openings failed as asked. */
    public static int failedOpenings() {
        return failedOpenings.get();
    }

    /** A crash injected by a test. */
    static final class InjectedCrash extends Error {
        InjectedCrash(String message) {
            super(message);
        }
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public boolean isDistributedFS() {
        return true;
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        if (!dst.getName().startsWith("snapshot-")) {
            return super.rename(src, dst);
        }
        int ordinal = publications.incrementAndGet();
        if (crashBefore.remove(ordinal)) {
            crash("before publishing " + dst.getName());
        }
        boolean renamed = super.rename(src, dst);
        if (crashAfter.remove(ordinal)) {
            crash("after publishing " + dst.getName());
        }
        return renamed;
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        checkOpening(f);
        return super.open(f, bufferSize);
    }

    @Override
    public FSDataInputStream open(Path f) throws IOException {
        checkOpening(f);
        return super.open(f);
    }

    private static void checkOpening(Path f) throws IOException {
        opened.add(f.getName());
        Runnable action = beforeOpening.remove(f.getName());
        if (action != null) {
            action.run();
        }
        if (failOpening.remove(f.getName())) {
            failedOpenings.incrementAndGet();
            throw new IOException("Injected failure opening " + f);
        }
    }

    private static void crash(String when) {
        crashes.incrementAndGet();
        throw new InjectedCrash("Injected crash " + when);
    }

    /** Registered through {@code META-INF/services} of the test classpath. */
    public static final class Factory implements FileSystemFactory {
        @Override
        public String getScheme() {
            return SCHEME;
        }

        @Override
        public FileSystem create(URI uri) {
            return new FaultyFileSystem();
        }
    }
}
