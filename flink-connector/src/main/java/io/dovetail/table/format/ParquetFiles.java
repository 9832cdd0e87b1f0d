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
package io.dovetail.table.format;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.HadoopParquetConfiguration;

/** What every reader of Parquet data files shares. */
public final class ParquetFiles {

    private ParquetFiles() {}

    /**
     * Parquet's default read options over an empty Hadoop configuration: {@code
     * ParquetReadOptions.builder()} loads a new one from Hadoop's default XML resources, which
     * costs more than reading a point lookup's page.
     */
    public static ParquetReadOptions readOptions() {
        return ParquetReadOptions.builder(new HadoopParquetConfiguration(new Configuration(false)))
                .build();
    }
}
