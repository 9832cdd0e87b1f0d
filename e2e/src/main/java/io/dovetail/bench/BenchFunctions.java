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
package io.dovetail.bench;

import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.functions.ScalarFunction;

import java.util.Arrays;

/** Deterministic generators and a checksum the benchmarks register as SQL functions. */
public final class BenchFunctions {

    private BenchFunctions() {}

    /** {@code bench_image(id, bytes)}: {@code bytes} bytes that start with the id. */
    public static final class Image extends ScalarFunction {

        public byte[] eval(Long id, Integer bytes) {
            byte[] image = new byte[bytes];
            Arrays.fill(image, (byte) (id % 251));
            for (int i = 0; i < 8 && i < bytes; i++) {
                image[i] = (byte) (id >>> (8 * i));
            }
            return image;
        }
    }

    /**
     * {@code bench_vector(id, dim)}: {@code dim} floats, all small whole numbers (exact in FLOAT
     * and in any order of summation), the first {@code id % 1000}.
     */
    public static final class Vector extends ScalarFunction {

        public @DataTypeHint("ARRAY<FLOAT>") Float[] eval(Long id, Integer dim) {
            Float[] vector = new Float[dim];
            for (int i = 0; i < dim; i++) {
                vector[i] = (float) ((id + i) % 1000);
            }
            return vector;
        }
    }

    /** {@code bench_length(bytes)}: the length of a byte string (reads the value whole). */
    public static final class Length extends ScalarFunction {

        public Long eval(byte[] bytes) {
            return bytes == null ? null : (long) bytes.length;
        }
    }

    /**
     * {@code bench_caption(id)}: a 200-character caption of lower-case letters (xorshift from the
     * id), the same for the same id.
     */
    public static final class Caption extends ScalarFunction {

        public static final int LENGTH = 200;

        public String eval(Long id) {
            return of(id);
        }

        static String of(long id) {
            char[] caption = new char[LENGTH];
            long x = id * 0x9E3779B97F4A7C15L + 1;
            for (int i = 0; i < LENGTH; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
                caption[i] = (char) ('a' + (int) ((x >>> 33) % 26));
            }
            return new String(caption);
        }
    }

    /** {@code bench_hash(s)}: a 64-bit spread of {@code s.hashCode()}, 0 for NULL (summed). */
    public static final class Hash extends ScalarFunction {

        public Long eval(String s) {
            return of(s);
        }

        static long of(String s) {
            return s == null ? 0 : s.hashCode() * 0x9E3779B97F4A7C15L;
        }
    }
}
