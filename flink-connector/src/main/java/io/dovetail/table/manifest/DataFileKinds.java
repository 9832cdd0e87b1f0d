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

/**
 * How a data file's name tells its kind: a BLOB file ends in {@code .blob}, a vector-store file
 * contains {@code .vector.}; every other data file is a normal file. Dedicated (BLOB and vector)
 * files must lie inside one normal range; normal ranges are equal or disjoint.
 */
public final class DataFileKinds {

    private static final String VECTOR_MARKER = ".vector.";

    private DataFileKinds() {}

    public static boolean isDedicated(String fileName) {
        return isBlob(fileName) || isVectorStore(fileName);
    }

    public static boolean isBlob(String fileName) {
        return fileName.endsWith(".blob");
    }

    public static boolean isVectorStore(String fileName) {
        return fileName.contains(VECTOR_MARKER);
    }

    /**
     * The format name of vector-store file {@code fileName}: what follows {@code .vector.}, up to a
     * compression suffix ({@code data-x-1.vector.json.zst} is {@code json}).
     */
    public static String vectorStoreFormat(String fileName) {
        String rest =
                fileName.substring(fileName.lastIndexOf(VECTOR_MARKER) + VECTOR_MARKER.length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    public static boolean isNormal(String fileName) {
        return !isDedicated(fileName);
    }
}
