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
package io.dovetail.flink.state;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * The base of Dovetail's versioned state serializers (splits, enumerator states, committables,
 * committer state): a subclass writes and reads one value's fields; this class refuses bytes of
 * another version and bytes left over after the value, naming what it read. A serializer of a
 * container (an enumerator's pending splits) writes its elements with the element serializer's
 * {@link #write} and {@link #read}, so both keep one version.
 *
 * <p>Bumping {@link #getVersion()} means reading the older bytes too: a serializer that still reads
 * versions from {@code oldestVersion} on says so in its constructor and reads each with {@link
 * #read(DataInputView, int)}. Every serializer has a test against stored bytes of each version it
 * reads ({@code src/test/resources/serializer}).
 */
public abstract class VersionedSerializer<T> implements SimpleVersionedSerializer<T> {

    private final int oldestVersion;
    private final int version;
    private final String what;

    /**
     * @param version the version this serializer writes and the only one it reads
     * @param what what the bytes hold, for messages ("a Dovetail split")
     */
    protected VersionedSerializer(int version, String what) {
        this(version, version, what);
    }

    /**
     * @param oldestVersion the oldest version this serializer still reads
     * @param version the version this serializer writes
     * @param what what the bytes hold, for messages ("a Dovetail split")
     */
    protected VersionedSerializer(int oldestVersion, int version, String what) {
        this.oldestVersion = oldestVersion;
        this.version = version;
        this.what = what;
    }

    /** Writes {@code value}'s fields. */
    protected abstract void write(T value, DataOutputView out) throws IOException;

    /** Reads the fields {@link #write} wrote. */
    protected abstract T read(DataInputView in) throws IOException;

    /**
     * Reads the fields of bytes of {@code version} (one this serializer reads); by default as
     * {@link #read(DataInputView)}, for versions whose bytes the current form reads unchanged.
     */
    protected T read(DataInputView in, int version) throws IOException {
        return read(in);
    }

    @Override
    public final int getVersion() {
        return version;
    }

    @Override
    public final byte[] serialize(T value) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        write(value, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public final T deserialize(int version, byte[] serialized) throws IOException {
        if (version < oldestVersion || version > this.version) {
            throw new IOException(
                    "Cannot read "
                            + what
                            + " of version "
                            + version
                            + "; this connector reads "
                            + (oldestVersion == this.version
                                    ? "version " + this.version
                                    : "versions " + oldestVersion + " to " + this.version)
                            + ". Restore with the connector version that wrote it.");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        T value = read(in, version);
        if (in.available() > 0) {
            throw new IOException(
                    in.available()
                            + " bytes left after "
                            + what
                            + " of version "
                            + version
                            + ": the bytes are damaged or of another writer.");
        }
        return value;
    }
}
