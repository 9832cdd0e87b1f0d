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
package io.dovetail.flink.system;

import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.lib.util.IteratorSourceReader;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.table.data.RowData;

/**
 * Emits the rows of the system table splits it is assigned. Flink's iterator reader assumes that a
 * new split has at least one element; a system table may have no rows, so empty splits are finished
 * as soon as they are opened.
 */
final class SystemRowsReader
        extends IteratorSourceReader<RowData, SystemRowsSplit.Rows, SystemRowsSplit> {

    SystemRowsReader(SourceReaderContext context) {
        super(context);
    }

    @Override
    protected InputStatus tryMoveToNextSplit() {
        InputStatus status = super.tryMoveToNextSplit();
        while (status == InputStatus.MORE_AVAILABLE && !iterator.hasNext()) {
            finishSplit();
            status = super.tryMoveToNextSplit();
        }
        return status;
    }
}
